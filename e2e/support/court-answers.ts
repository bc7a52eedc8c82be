// The gate's answers a browser spec fakes, in the contract's problem shape.
import type { Page } from '@playwright/test';

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
