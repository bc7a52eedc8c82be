import type { Page } from '@playwright/test';
import {
  callResources,
  expectStatusesSeen,
  expectToastSeen,
  installCallProbe,
  momentHistory,
  statusHistory,
  toastHistory,
  toastsSeen,
  waitPastDoubleTap,
} from './support/call-probe';
import { DOUBLE_TAP_MS } from '../src/features/talk/section/double-tap';
import { expect, test } from './support/fixtures';
import { reviewShots } from './support/screenshot';
import { talk } from './support/talk';
import { wordsUnderDemoBadge } from './support/demo-badge';

/** The demo's simulated room, twice as fast as a real one: still every step, in order. */
const FAST = 0.5;

const TOAST = {
  connected: ['Connected', "You're now talking to Pepa!"],
  ended: ['Call ended', 'Thanks for chatting with Pepa!'],
  error: ['Error', 'Something went wrong with the voice call'],
  startFailed: ['Failed to connect', 'Please check your microphone permissions'],
} as const;

async function open(
  page: Page,
  query = '',
  options: { denyMicrophone?: boolean; simScale?: number } = {},
) {
  await installCallProbe(page, options);
  await page.goto(`/?${[`simScale=${options.simScale ?? FAST}`, query].filter(Boolean).join('&')}`);
  await talk(page).section.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

/** Every scenario ends here: idle, microphone released, nothing playing. */
async function expectReleased(page: Page) {
  const { status, start } = talk(page);
  await expect(status).toHaveText('Ready to chat');
  await expect(start).toBeVisible();
  await expect
    .poll(async () => {
      const resources = await callResources(page);
      return { liveTracks: resources.liveTracks, playingAudio: resources.playingAudio };
    })
    .toEqual({ liveTracks: 0, playingAudio: 0 });
}

const screenshot = reviewShots('talk');

async function connect(page: Page) {
  await talk(page).start.click();
  // Pepa greets at once, so 'Listening...' may be brief; the record has it either way.
  await expectStatusesSeen(page, ['Connecting to Pepa...', 'Listening...']);
}

/** The call object holds nothing: no timers, Daily listeners, gesture listeners or audio. */
async function expectCallObjectIdle(page: Page) {
  await expect
    .poll(() => page.evaluate(() => window.__pepaCallResources?.()))
    .toEqual({ audioElements: 0, timers: 0, dailyListeners: 0, gestureListeners: 0 });
}

test.describe('Talk to Pepa', () => {
  test('a whole call: statuses, toasts, speech, captions, mute, and End Call', async ({
    page,
  }, testInfo) => {
    await open(page);
    const { start, end, section } = talk(page);
    await screenshot(page, testInfo, 'idle');

    const request = page.waitForRequest(
      (candidate) => candidate.method() === 'POST' && candidate.url().endsWith('/api/calls'),
    );
    await start.click();
    const sent = await request;
    // The page asks its own origin's gate with a bot-check token; it holds no provider key.
    expect(new URL(sent.url()).origin).toBe(new URL(page.url()).origin);
    expect(sent.headers()['authorization']).toBeUndefined();
    expect(sent.postDataJSON()).toEqual({ botCheckToken: 'XXXX.DUMMY.TOKEN.XXXX' });
    await screenshot(page, testInfo, 'connecting');

    // Statuses, the hint and toasts as they appeared: greeting, then the visitor's turn again.
    await expectStatusesSeen(page, [
      'Ready to chat',
      'Connecting to Pepa...',
      'Listening...',
      'Pepa is speaking...',
      'Listening...',
    ]);
    await screenshot(page, testInfo, 'listening');
    expect(await page.evaluate(wordsUnderDemoBadge)).toEqual([]);
    await expectToastSeen(page, TOAST.connected);
    const toasts = await toastHistory(page);
    expect(toasts.find((toast) => toast.title === 'Connected')?.status).toMatch(
      /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/,
    );
    const moments = await momentHistory(page);
    expect(moments).toContain('Listening... +hint');
    expect(moments).toContain('Pepa is speaking...');
    expect(moments).not.toContain('Pepa is speaking... +hint');

    const captions = section.getByRole('log', { name: 'Captions' });
    await expect(captions).toHaveAttribute('aria-live', 'polite');
    await expect(captions.getByText(/^Pepa:/).first()).toBeVisible();

    const audio = await callResources(page);
    expect(audio.audioElements).toBe(1);
    expect(audio.liveTracks).toBeGreaterThan(0);

    await section.getByRole('button', { name: 'Mute' }).click();
    await expect(section.getByRole('button', { name: 'Unmute' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect((await callResources(page)).enabledTracks).toBe(0);
    await section.getByRole('button', { name: 'Unmute' }).click();
    await expect(section.getByRole('button', { name: 'Mute' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect((await callResources(page)).enabledTracks).toBeGreaterThan(0);

    await end.click();
    await expectToastSeen(page, TOAST.ended);
    await expectReleased(page);
    expect((await callResources(page)).audioElements).toBe(0);

    const statuses = await statusHistory(page);
    expect(statuses.slice(0, 4)).toEqual([
      'Ready to chat',
      'Connecting to Pepa...',
      'Listening...',
      'Pepa is speaking...',
    ]);
    expect(statuses[statuses.length - 1]).toBe('Ready to chat');
    expect(await toastsSeen(page, 'Connected')).toBe(1);
    expect(await toastsSeen(page, 'Call ended')).toBe(1);
  });

  test.describe('when the gate refuses the web call', () => {
    test.use({ allowedProblems: /status of (403|502)|HTTP (403|502)|\/api\/calls/i });

    // The gate's own refusals (problem+json with its code), as its Worker tests prove it sends.
    const refusals = {
      403: {
        code: 'bot-check-failed',
        reason: "Your browser didn't pass the court's bot check. Reload the page and try again.",
      },
      502: {
        code: 'provider-error',
        reason: 'The voice service had a problem starting the call. Please try again in a moment.',
      },
    } as const;
    for (const status of [403, 502] as const) {
      test(`the gate answering ${status} ends idle, says why in the panel and does not blame the microphone`, async ({
        page,
      }, testInfo) => {
        await page.route('**/api/calls', (route) =>
          route.fulfill({
            status,
            contentType: 'application/problem+json',
            body: JSON.stringify({ code: refusals[status].code, title: 'Refused', status }),
          }),
        );
        await open(page);
        const response = page.waitForResponse('**/api/calls');
        await talk(page).start.click();
        expect((await response).status()).toBe(status);
        await expect(talk(page).section.getByRole('alert')).toHaveText(refusals[status].reason);
        await expectReleased(page);
        expect(await toastsSeen(page, 'Failed to connect')).toBe(0);
        if (status === 502) await screenshot(page, testInfo, 'error');
      });
    }
  });

  test.describe('when the network fails @once', () => {
    test.use({ allowedProblems: /ERR_FAILED|Failed to fetch|network/i });

    test('a failed request ends idle and says the service could not be reached', async ({
      page,
    }) => {
      await page.route('**/api/calls', (route) => route.abort('failed'));
      await open(page);
      await talk(page).start.click();
      await expect(talk(page).section.getByRole('alert')).toHaveText(
        "Couldn't reach the voice service. Check your connection and try again.",
      );
      await expectReleased(page);
      expect(await toastsSeen(page, 'Failed to connect')).toBe(0);
    });
  });

  test.describe('when the microphone is blocked @once', () => {
    test.use({ allowedProblems: /Permission denied|NotAllowedError|microphone/i });

    test("ends idle with 'Failed to connect' and says how to allow it", async ({ page }) => {
      await open(page, '', { denyMicrophone: true });
      await talk(page).start.click();
      await expectToastSeen(page, TOAST.startFailed);
      await expect(talk(page).section.getByRole('note')).toContainText('microphone is blocked');
      await expectReleased(page);
    });
  });

  test.describe('when the room misbehaves @once', () => {
    test.use({ allowedProblems: /join|room|eject|malformed|JSON|app message/i });

    test("a join failure ends idle with 'Failed to connect'", async ({ page }) => {
      await open(page, 'sim=join-failure');
      await talk(page).start.click();
      await expectToastSeen(page, TOAST.startFailed);
      await expectReleased(page);
      await expectCallObjectIdle(page);
      expect(await toastsSeen(page, 'Connected')).toBe(0);
    });

    test("the server ending the call shows one 'Call ended'", async ({ page }) => {
      await open(page, 'sim=server-end');
      await connect(page);
      await expectToastSeen(page, TOAST.ended);
      await expectReleased(page);
      // Nothing of the call is left that could raise a second one.
      await expectCallObjectIdle(page);
      expect(await toastsSeen(page, 'Call ended')).toBe(1);
    });

    test("ejection shows the 'Error' toast and ends idle", async ({ page }) => {
      await open(page, 'sim=ejection');
      await connect(page);
      await expectToastSeen(page, TOAST.error);
      await expectReleased(page);
    });

    test('a malformed message does not break the call', async ({ page }) => {
      await open(page, 'sim=malformed-message');
      // The malformed message comes after the greeting; the call object logs that it ignored it.
      const ignored = page.waitForEvent('console', {
        predicate: (message) => /Ignored an app message/.test(message.text()),
        timeout: 20_000,
      });
      await connect(page);
      await ignored;
      await expectStatusesSeen(page, ['Pepa is speaking...', 'Listening...']);
      await expect(talk(page).end).toBeVisible();
      expect((await toastHistory(page)).map((toast) => toast.title)).toEqual(['Connected']);
      await talk(page).end.click();
      await expectToastSeen(page, TOAST.ended);
      await expectReleased(page);
    });
  });

  test('a double tap makes one request @once', async ({ page }) => {
    await open(page);
    let requests = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/calls')) requests += 1;
    });
    await talk(page).start.dblclick();
    await expectStatusesSeen(page, ['Connecting to Pepa...', 'Listening...']);
    expect(requests).toBe(1);
    await talk(page).end.click();
    await expectReleased(page);
  });

  test('End Call while connecting: nothing joins @once', async ({ page }) => {
    // A slow room, so that connecting lasts long enough to be cancelled on any machine.
    await open(page, '', { simScale: 4 });
    await talk(page).start.click();
    await expect(talk(page).end).toBeVisible();
    await waitPastDoubleTap(page, DOUBLE_TAP_MS);
    await talk(page).end.click();
    await expectReleased(page);
    // No timer or Daily listener is left in the call object, so nothing can join later.
    await expectCallObjectIdle(page);
    const statuses = await statusHistory(page);
    expect(statuses).not.toContain('Listening...');
    expect(statuses).not.toContain('Pepa is speaking...');
    expect(await toastsSeen(page, 'Connected')).toBe(0);
    expect(await toastsSeen(page, 'Failed to connect')).toBe(0);
    expect((await callResources(page)).audioElements).toBe(0);
  });

  test('Escape asks first, and a second Escape ends the call @once', async ({ page }) => {
    await open(page);
    await connect(page);
    await page.keyboard.press('Escape');
    await expect(
      talk(page).section.getByText('End the call? Press Escape again, or End Call.'),
    ).toBeVisible();
    await expect(talk(page).end).toBeVisible();
    await page.keyboard.press('Escape');
    await expectToastSeen(page, TOAST.ended);
    await expectReleased(page);
  });

  test('leaving the page mid-call releases the microphone @once', async ({ page }) => {
    await open(page);
    await connect(page);
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide')));
    await expectReleased(page);
  });
});
