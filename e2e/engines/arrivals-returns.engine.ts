// The arrival matrix, coming back: a return after a call, kept in the back/forward cache and not,
// and a tab opened in the background, shown later.
import { expect } from 'vitest';
import { HIDDEN_START_BOUND_MS } from '../../scripts/lib/start-after-paint.mjs';
import {
  describeArrivals,
  expectCallListens,
  expectLive,
  HOME,
  PAGE_NOT_FOUND,
  startRecording,
  type Arrival,
} from './arrival-matrix';
import type { EnginePage } from './engine';
import { toastGone, toastRecorded } from './toast-checks';

/**
 * Long enough hidden that a start which did not wait for the tab to be shown would have run, and
 * short of the bound after which a page never shown starts anyway.
 */
const HIDDEN_FOR_MS = 3000;

/** When the page asked for the app's script, in the page's clock (-1: it did not). */
function appRequestedAt() {
  const entry = performance
    .getEntriesByType('resource')
    .find((resource) => /\/assets\/index-[^/]+\.js$/.test(new URL(resource.name).pathname));
  return entry ? entry.startTime : -1;
}

/** Leaves after a call and comes back: the page must be live again, whichever way it returns. */
async function returnAfterCall(page: EnginePage, { kept }: { kept: boolean }) {
  await page.goto(HOME);
  await page.evaluate(startRecording);
  await page.evaluate(() => {
    const page = window as unknown as { __shown?: boolean[] };
    page.__shown = [];
    addEventListener('pageshow', (event) => page.__shown?.push(event.persisted));
  });
  await expectCallListens(page);
  // Within seconds of the call's end, while its toast is still up, the visitor leaves.
  await page.navigate('/elsewhere');
  await page.waitFor('the other page', () => window.location.pathname === '/elsewhere', []);
  await page.waitFor('the other page to load', () => document.readyState === 'complete', []);
  await page.back();
  await page.waitFor(
    'the return',
    () => window.location.pathname === '/' && document.readyState === 'complete',
    [],
  );
  const how = await page.waitFor(
    'the return to settle',
    () => {
      const shown = (window as unknown as { __shown?: boolean[] }).__shown;
      if (shown?.includes(true)) return 'restored';
      const navigation = performance.getEntriesByType('navigation')[0] as
        PerformanceNavigationTiming | undefined;
      return shown === undefined && navigation?.type === 'back_forward' ? 'loaded' : '';
    },
    [],
  );
  expect(how).toBe(kept ? 'restored' : 'loaded');
  await page.watch();
  if (kept) {
    // The call's goodbye shows (the lane shows it once 'Connected' has given way, which a visitor
    // who leaves at once may not wait for) and leaves on its own, as it would have without the
    // visit elsewhere.
    await page.waitFor("the call's goodbye", toastRecorded, ['Call ended']);
    await page.waitFor('the toast to leave', toastGone, ['Call ended']);
  }
}

const ARRIVALS: Arrival[] = [
  {
    name: 'end a call, leave, come back: kept in the back/forward cache',
    backForwardCache: true,
    async run(page) {
      await returnAfterCall(page, { kept: true });
      await expectLive(page, PAGE_NOT_FOUND);
    },
  },
  {
    name: 'end a call, leave, come back: not kept in the back/forward cache',
    backForwardCache: false,
    async run(page) {
      await returnAfterCall(page, { kept: false });
      await expectLive(page, PAGE_NOT_FOUND);
    },
  },
  {
    name: 'a tab opened in the background, shown later',
    async run(page) {
      await page.openHidden(HOME);
      expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');
      await page.waitFor('time hidden', (ms: number) => performance.now() > ms, [HIDDEN_FOR_MS]);
      // Hidden until now, in the page's clock (the page is shown after this).
      const hiddenUntil = await page.evaluate(() =>
        document.visibilityState === 'hidden' ? performance.now() : 0,
      );
      expect(hiddenUntil).toBeGreaterThan(HIDDEN_FOR_MS);
      await page.show();
      await expectLive(page);
      // Nothing started while nobody could see the page, unless it stayed hidden past the bound
      // (on a busy machine the load alone may take that long): the app was asked for after.
      const asked = await page.evaluate(appRequestedAt);
      expect(asked).toBeGreaterThanOrEqual(Math.min(hiddenUntil, HIDDEN_START_BOUND_MS));
    },
  },
];

describeArrivals('coming back', ARRIVALS);
