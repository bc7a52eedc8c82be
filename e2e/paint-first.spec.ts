import { expect, test } from './support/fixtures';

/**
 * The app's script is asked for only after the first contentful paint (scripts/lib/start-after-paint.mjs):
 * its download and evaluation must never stand in front of the first screen. Read from the page's
 * own paint and resource timing, over many fresh loads, since a start that races the paint loses
 * only now and then.
 */

/** Fresh loads per width: a start that races the paint lost in about one load of three. */
const LOADS = 15;

interface PaintOrder {
  entry: string | null;
  firstContentfulPaint: number | null;
  appRequested: number | null;
}

test('the app is not requested before the first contentful paint, load after load', async ({
  page,
}) => {
  // Every load a first visit: nothing of the app comes from the cache.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });

  const orders: PaintOrder[] = [];
  for (let load = 0; load < LOADS; load += 1) {
    await page.goto('/');
    // The engine reports the paint once it is on the screen, which may be after the app started.
    await page
      .waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0)
      .catch(() => undefined);
    const order = await page.evaluate((): PaintOrder => {
      const entry =
        document.querySelector('script[data-entry]')?.getAttribute('data-entry') ?? null;
      const paint = performance
        .getEntriesByType('paint')
        .find((candidate) => candidate.name === 'first-contentful-paint');
      const request = entry
        ? performance
            .getEntriesByType('resource')
            .find((candidate) => new URL(candidate.name).pathname === entry)
        : undefined;
      return {
        entry,
        firstContentfulPaint: paint?.startTime ?? null,
        appRequested: request?.startTime ?? null,
      };
    });
    orders.push(order);
  }

  for (const order of orders) {
    expect(order.entry, 'the start script names the app').not.toBeNull();
    expect(
      order.firstContentfulPaint,
      'Chromium reports the first contentful paint',
    ).not.toBeNull();
    expect(order.appRequested, 'the app was requested').not.toBeNull();
  }
  const early = orders.filter(
    ({ firstContentfulPaint, appRequested }) =>
      appRequested !== null && firstContentfulPaint !== null && appRequested < firstContentfulPaint,
  );
  const described = (list: PaintOrder[]) =>
    list
      .map(
        ({ firstContentfulPaint, appRequested }) =>
          `app at ${appRequested?.toFixed(1)} ms, first contentful paint at ${firstContentfulPaint?.toFixed(1)} ms`,
      )
      .join('; ');
  expect(early, `loads whose app came before the paint: ${described(early)}`).toEqual([]);
});
