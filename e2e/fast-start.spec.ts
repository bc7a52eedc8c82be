import type { Page, Route } from '@playwright/test';
import { callResources, installCallProbe, waitPastDoubleTap } from './support/call-probe';
import { routeClosedCourt } from './support/court-answers';
import { expect, test } from './support/fixtures';
import { holdRequests } from './support/held-requests';
import { talk } from './support/talk';
import { DOUBLE_TAP_MS } from '../src/features/talk/section/double-tap';
import { LATE_ANSWER_MS } from '../src/api/late-answer';

/**
 * A start whose waits overlap: on a phone, a slow call request or a slow microphone must not be
 * paid on top of the phone's wait before joining. Each figure is a difference between starts
 * measured in the same page, interleaved, so the machine's speed cancels out; never an absolute
 * time.
 */

const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;
/** Starts per condition; the median of each is compared. */
const ROUNDS = 3;

declare global {
  interface Window {
    __fastStart?: {
      /** How long the next microphone is held back, as a slow permission prompt or device. */
      microphoneDelayMs: number;
      /** Microphones asked for since the page loaded. */
      microphoneRequests: number;
      tapAt: number | null;
      listeningAt: number | null;
      arm(): void;
    };
  }
}

/** Records, on the page's clock, each tap on Start Talking and the first 'Listening...' after it. */
async function installStartClock(page: Page) {
  await page.addInitScript(() => {
    const clock = {
      microphoneDelayMs: 0,
      microphoneRequests: 0,
      tapAt: null as number | null,
      listeningAt: null as number | null,
      arm() {
        clock.tapAt = null;
        clock.listeningAt = null;
      },
    };
    window.__fastStart = clock;
    const media = navigator.mediaDevices;
    const original = media.getUserMedia.bind(media);
    media.getUserMedia = async (constraints) => {
      clock.microphoneRequests += 1;
      const delayMs = clock.microphoneDelayMs;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      return original(constraints);
    };
    window.addEventListener(
      'pointerdown',
      (event) => {
        if (clock.tapAt !== null) return;
        if (event.target instanceof Element && event.target.closest('#talk button')) {
          clock.tapAt = performance.now();
        }
      },
      true,
    );
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(() => {
        if (clock.tapAt === null || clock.listeningAt !== null) return;
        const status = document.querySelector('#talk [role="status"]')?.textContent ?? '';
        if (/Listening\.\.\./.test(status)) clock.listeningAt = performance.now();
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
  await installStartClock(page);
  await page.goto('/');
  await talk(page).start.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

/** One start from tap to 'Listening...', ended again; returns the milliseconds between them. */
async function timedStart(page: Page): Promise<number> {
  // A press within the double-tap window of End Call would be merged into it.
  await waitPastDoubleTap(page, DOUBLE_TAP_MS + 50);
  await page.evaluate(() => window.__fastStart!.arm());
  await talk(page).start.tap();
  await page.waitForFunction(() => window.__fastStart!.listeningAt !== null, null, {
    timeout: 20_000,
  });
  const { tapAt, listeningAt } = await page.evaluate(() => ({ ...window.__fastStart! }));
  await expect(talk(page).status).toHaveText(CONNECTED);
  await talk(page).end.click();
  await expect(talk(page).start).toBeVisible();
  await expect.poll(async () => (await callResources(page)).liveTracks).toBe(0);
  return listeningAt! - tapAt!;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

// The phone's wait before joining is the point.
test.describe('a start whose waits overlap @phone-only', () => {
  test("a slow call request and a slow microphone add little to tap → 'Listening...'", async ({
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
    const times: Record<keyof typeof conditions, number[]> = {
      plain: [],
      'request +1200 ms': [],
      'request and microphone +800 ms': [],
    };
    // One start first, untimed: the gate's first call and the page's first room are cold.
    await timedStart(page);
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
        times[name].push(await timedStart(page));
        // One microphone per start: the room uses the track the start opened.
        expect(await page.evaluate(() => window.__fastStart!.microphoneRequests)).toBe(before + 1);
      }
    }
    const plain = median(times.plain);
    const added = {
      request: median(times['request +1200 ms']) - plain,
      both: median(times['request and microphone +800 ms']) - plain,
    };
    test.info().annotations.push({
      type: 'figures',
      description: JSON.stringify({ times, added }),
    });
    expect(added.request, 'a call request slowed by 1200 ms').toBeLessThanOrEqual(500);
    expect(added.both, 'a call request and a microphone each slowed by 800 ms').toBeLessThanOrEqual(
      600,
    );
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
