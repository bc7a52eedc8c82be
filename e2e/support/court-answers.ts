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

/** The gate's answer when Pepa is resting (the pace reached): back at BACK_AT, in half an hour. */
export const RESTING_ANSWER = {
  status: 503,
  headers: {
    'content-type': 'application/problem+json',
    'cache-control': 'no-store',
    'retry-after': '1800',
  },
  body: JSON.stringify({
    code: 'court-resting',
    title: 'Resting',
    status: 503,
    retryAfterSeconds: 1800,
    reopensAt: BACK_AT,
  }),
};

/** Answers a request as the gate does while Pepa is resting. */
export function resting(route: Route) {
  return route.fulfill(RESTING_ANSWER);
}
