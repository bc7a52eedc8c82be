import type { Page, Route } from '@playwright/test';
import { callResources, installCallProbe, waitPastDoubleTap } from './support/call-probe';
import { routeClosedCourt } from './support/court-answers';
import { expect, test } from './support/fixtures';
import { holdRequests } from './support/held-requests';
import { talk } from './support/talk';
import { DOUBLE_TAP_MS } from '../src/features/talk/section/double-tap';
import { LATE_ANSWER_MS } from '../src/api/late-answer';
import { MOBILE_JOIN_DELAY_MS } from '../src/lib/call';

/**
 * A start whose waits overlap: on a phone, a slow call request or a slow microphone must not be
 * paid on top of the phone's wait before joining. What is asserted is the order of the waits on
 * the page's own clock (the microphone asked for while the request is out, the request sent while
 * the microphone is pending) and, for the phone's wait, a comparison between starts measured in
 * the same page, interleaved, with half the wait as the margin either way: the machine's speed
 * cancels out, and no absolute time is asserted.
 */

const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;
/** Starts per condition; the median of each is compared. */
const ROUNDS = 3;

/** One start, on the page's clock (`performance.now()`); null: not yet seen. */
interface StartRecord {
  tapAt: number | null;
  microphoneAskedAt: number | null;
  microphoneGrantedAt: number | null;
  requestSentAt: number | null;
  requestAnsweredAt: number | null;
  listeningAt: number | null;
}

/** A start seen through to 'Listening...': every moment of it. */
type RecordedStart = { [K in keyof StartRecord]: number };

declare global {
  interface Window {
    __fastStart?: StartRecord & {
      /** How long the next microphone is held back, as a slow permission prompt or device. */
      microphoneDelayMs: number;
      /** Microphones asked for since the page loaded. */
      microphoneRequests: number;
      /** Forgets the last start's record. */
      arm(): void;
    };
  }
}

/**
 * Records, on the page's clock, each start from the tap on Start Talking: when the microphone was
 * asked for and given, when the call request (`POST /api/calls`) went out and was answered, and
 * the first 'Listening...' after the tap.
 */
async function installStartRecord(page: Page) {
  await page.addInitScript(() => {
    const record = {
      microphoneDelayMs: 0,
      microphoneRequests: 0,
      tapAt: null as number | null,
      microphoneAskedAt: null as number | null,
      microphoneGrantedAt: null as number | null,
      requestSentAt: null as number | null,
      requestAnsweredAt: null as number | null,
      listeningAt: null as number | null,
      arm() {
        record.tapAt = null;
        record.microphoneAskedAt = null;
        record.microphoneGrantedAt = null;
        record.requestSentAt = null;
        record.requestAnsweredAt = null;
        record.listeningAt = null;
      },
    };
    window.__fastStart = record;
    const media = navigator.mediaDevices;
    const original = media.getUserMedia.bind(media);
    media.getUserMedia = async (constraints) => {
      record.microphoneRequests += 1;
      const first = record.tapAt !== null && record.microphoneAskedAt === null;
      if (first) record.microphoneAskedAt = performance.now();
      const delayMs = record.microphoneDelayMs;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const stream = await original(constraints);
      if (first) record.microphoneGrantedAt = performance.now();
      return stream;
    };
    const originalFetch = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const request = input instanceof Request ? input : null;
      const url = new URL(request ? request.url : String(input), window.location.href);
      const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
      const first =
        record.tapAt !== null &&
        record.requestSentAt === null &&
        method === 'POST' &&
        url.pathname === '/api/calls';
      if (first) record.requestSentAt = performance.now();
      const response = await originalFetch(input, init);
      if (first) record.requestAnsweredAt = performance.now();
      return response;
    };
    window.addEventListener(
      'pointerdown',
      (event) => {
        if (record.tapAt !== null) return;
        if (event.target instanceof Element && event.target.closest('#talk button')) {
          record.tapAt = performance.now();
        }
      },
      true,
    );
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(() => {
        if (record.tapAt === null || record.listeningAt !== null) return;
        const status = document.querySelector('#talk [role="status"]')?.textContent ?? '';
        if (/Listening\.\.\./.test(status)) record.listeningAt = performance.now();
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  });
}

/** Holds every `POST /api/calls` back by `delayMs()` before it goes to the gate. */
async function slowCallRequests(page: Page, delayMs: () => number) {
  await page.route('**/api/calls', async (route: Route) => {
    const ms = delayMs();
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

async function open(page: Page) {
  await installCallProbe(page);
  await installStartRecord(page);
  await page.goto('/');
  await talk(page).start.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

/** One start from the tap to 'Listening...', ended again; returns its record. */
async function recordedStart(page: Page): Promise<RecordedStart> {
  // A press within the double-tap window of End Call would be merged into it.
  await waitPastDoubleTap(page, DOUBLE_TAP_MS + 50);
  await page.evaluate(() => window.__fastStart!.arm());
  await talk(page).start.tap();
  await page.waitForFunction(() => window.__fastStart!.listeningAt !== null, null, {
    timeout: 20_000,
  });
  const record: StartRecord = await page.evaluate(() => {
    const {
      arm: _arm,
      microphoneDelayMs: _delay,
      microphoneRequests: _count,
      ...moments
    } = window.__fastStart!;
    return moments;
  });
  await expect(talk(page).status).toHaveText(CONNECTED);
  await talk(page).end.click();
  await expect(talk(page).start).toBeVisible();
  await expect.poll(async () => (await callResources(page)).liveTracks).toBe(0);
  for (const [moment, at] of Object.entries(record)) {
    expect(at, `${moment} of a start`).not.toBeNull();
  }
  return record as RecordedStart;
}

/**
 * How long after the last of its three waits (the call request, the microphone, the phone's
 * wait, run down from the tap) a start reached 'Listening...': the room's own part, the same for
 * every start on one machine when the waits overlap. A page that began the phone's wait only
 * after the request (or the microphone) was answered would add that wait here.
 */
function afterTheWaits(start: RecordedStart): number {
  return (
    start.listeningAt -
    Math.max(start.tapAt + MOBILE_JOIN_DELAY_MS, start.requestAnsweredAt, start.microphoneGrantedAt)
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

// The phone's wait before joining is the point.
test.describe('a start whose waits overlap @phone-only', () => {
  test("a slow call request and a slow microphone run beside each other and beside the phone's wait", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    let requestDelayMs = 0;
    await slowCallRequests(page, () => requestDelayMs);
    await open(page);
    const conditions = {
      plain: { request: 0, microphone: 0 },
      'request +1200 ms': { request: 1200, microphone: 0 },
      'request and microphone +800 ms': { request: 800, microphone: 800 },
    };
    const starts: Record<keyof typeof conditions, RecordedStart[]> = {
      plain: [],
      'request +1200 ms': [],
      'request and microphone +800 ms': [],
    };
    // One start first, unrecorded: the gate's first call and the page's first room are cold.
    await recordedStart(page);
    // Interleaved, so a machine that slows down during the run slows every condition alike.
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, delays] of Object.entries(conditions) as [
        keyof typeof conditions,
        (typeof conditions)[keyof typeof conditions],
      ][]) {
        requestDelayMs = delays.request;
        await page.evaluate((ms) => {
          window.__fastStart!.microphoneDelayMs = ms;
        }, delays.microphone);
        const before = await page.evaluate(() => window.__fastStart!.microphoneRequests);
        starts[name].push(await recordedStart(page));
        // One microphone per start: the room uses the track the start opened.
        expect(await page.evaluate(() => window.__fastStart!.microphoneRequests)).toBe(before + 1);
      }
    }
    const afterWaits = Object.fromEntries(
      Object.entries(starts).map(([name, list]) => [name, list.map(afterTheWaits)]),
    ) as Record<keyof typeof conditions, number[]>;
    test.info().annotations.push({
      type: 'figures',
      description: JSON.stringify({ starts, afterWaits }),
    });

    // The microphone is asked for while the slowed request is still out…
    for (const start of [
      ...starts['request +1200 ms'],
      ...starts['request and microphone +800 ms'],
    ]) {
      expect(
        start.microphoneAskedAt,
        'the microphone asked for before the request is answered',
      ).toBeLessThan(start.requestAnsweredAt);
    }
    // …and the request goes out while the slowed microphone is still pending.
    for (const start of starts['request and microphone +800 ms']) {
      expect(start.requestSentAt, 'the request sent before the microphone is given').toBeLessThan(
        start.microphoneGrantedAt,
      );
    }
    // The phone's wait ran down beside them: what follows the last wait is the room's own part,
    // as long as in a plain start. Begun only after a slow wait, it would add all of itself.
    const plain = median(afterWaits.plain);
    for (const name of ['request +1200 ms', 'request and microphone +800 ms'] as const) {
      expect(
        median(afterWaits[name]) - plain,
        `${name}: the time from the last wait to 'Listening...', beyond a plain start's`,
      ).toBeLessThan(MOBILE_JOIN_DELAY_MS / 2);
    }
  });

  test('the microphone prompt comes at the tap, before the call request is answered', async ({
    page,
  }) => {
    const releaseRequest = await holdRequests(page, '**/api/calls');
    await open(page);
    await talk(page).start.tap();
    await expect.poll(() => page.evaluate(() => window.__fastStart!.microphoneRequests)).toBe(1);
    await expect(talk(page).status).toHaveText('Connecting to Pepa...');
    releaseRequest();
    await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 20_000 });
    expect(await page.evaluate(() => window.__fastStart!.microphoneRequests)).toBe(1);
    await talk(page).end.click();
    await expect(talk(page).start).toBeVisible();
    await expect.poll(async () => (await callResources(page)).liveTracks).toBe(0);
  });

  test.describe('cancelled or refused', () => {
    test.use({ allowedProblems: /api\/calls|aborted|ERR_ABORTED|status of 503|HTTP 503/i });

    test('End Call while the request is in flight releases the microphone the start opened', async ({
      page,
    }) => {
      let aborted = false;
      // Never answered, as a gate that hangs.
      await page.route('**/api/calls', () => undefined);
      page.on('requestfailed', (request) => {
        if (request.url().endsWith('/api/calls')) aborted = true;
      });
      await page.clock.install();
      await open(page);
      await talk(page).start.tap();
      await expect.poll(async () => (await callResources(page)).liveTracks).toBe(1);
      // A press within the double-tap window of the tap would be merged into it.
      await waitPastDoubleTap(page, DOUBLE_TAP_MS + 50);
      await talk(page).end.click();
      await expect(talk(page).status).toHaveText('Ready to chat');
      await expect.poll(async () => (await callResources(page)).liveTracks).toBe(0);
      // The request is waited for while a late answer could still bring a place to give back.
      expect(aborted).toBe(false);
      await page.clock.fastForward(LATE_ANSWER_MS);
      await expect.poll(() => aborted).toBe(true);
    });

    test('a closed court releases the microphone at once', async ({ page }) => {
      await routeClosedCourt(page);
      await open(page);
      await talk(page).start.tap();
      await expect(talk(page).section.getByRole('alert')).toContainText('The court is closed');
      await expect.poll(async () => (await callResources(page)).liveTracks).toBe(0);
      expect(await page.evaluate(() => window.__fastStart!.microphoneRequests)).toBeLessThanOrEqual(
        1,
      );
    });
  });
});
