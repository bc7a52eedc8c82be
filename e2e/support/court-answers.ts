// The gate's answers a browser spec fakes, in the contract's problem shape.
import type { Page, Route } from '@playwright/test';

/** Every start is answered as a closed court (the day's budget spent), reopening on 2 January 2030. */
export function routeClosedCourt(page: Page) {
  return page.route('**/api/calls', (route) =>
    route.fulfill({
      status: 503,
      headers: { 'retry-after': '3600' },
      contentType: 'application/problem+json',
      body: JSON.stringify({
        code: 'court-closed',
        title: 'Closed',
        status: 503,
        reopensAt: '2030-01-02T00:00:00.000Z',
      }),
    }),
  );
}

/** When a resting Pepa is back in these specs: 06:00 UTC, 15:00 in Tokyo. */
export const BACK_AT = '2030-01-02T06:00:00.000Z';

/** A problem answer of Pepa resting (the pace reached), with its Retry-After of half an hour. */
export function resting(route: Route) {
  return route.fulfill({
    status: 503,
    headers: { 'retry-after': '1800' },
    contentType: 'application/problem+json',
    body: JSON.stringify({
      code: 'court-resting',
      title: 'Resting',
      status: 503,
      retryAfterSeconds: 1800,
      reopensAt: BACK_AT,
    }),
  });
}
