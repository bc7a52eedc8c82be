import type { Page, TestInfo } from '@playwright/test';
import { callResources, installCallProbe, statusHistory } from './support/call-probe';
import { expect, test } from './support/fixtures';

/** The demo's simulated room, twice as fast as a real one: still every step, in order. */
const FAST = 0.5;

const TOAST = {
  connected: ['Connected', "You're now talking to Pepa!"],
  ended: ['Call ended', 'Thanks for chatting with Pepa!'],
  error: ['Error', 'Something went wrong with the voice call'],
  startFailed: ['Failed to connect', 'Please check your microphone permissions'],
} as const;

function talk(page: Page) {
  const section = page.locator('#talk');
  return {
    section,
    status: section.getByRole('status'),
    start: section.getByRole('button', { name: 'Start Talking' }),
    end: section.getByRole('button', { name: 'End Call' }),
  };
}

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

async function expectToast(page: Page, [title, description]: readonly [string, string]) {
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: title });
  await expect(toast.getByText(title, { exact: true })).toBeVisible();
  await expect(toast.getByText(description, { exact: true })).toBeVisible();
}

async function toastCount(page: Page, title: string) {
  return page.locator('[data-sonner-toast]').getByText(title, { exact: true }).count();
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

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({
    path: `test-results/screenshots/talk-${name}-${testInfo.project.name}.png`,
  });
}

async function connect(page: Page) {
  const { start, status } = talk(page);
  await start.click();
  // Pepa greets at once, so 'Listening...' may be brief: connected is either of the two.
  await expect(status).toHaveText(/^(Listening\.\.\.|Pepa is speaking\.\.\.)$/, {
    timeout: 15_000,
  });
}

test.describe('Talk to Pepa', () => {
  test('a whole call: statuses, toasts, speech, captions, mute, and End Call', async ({
    page,
  }, testInfo) => {
    await open(page);
    const { status, start, end, section } = talk(page);
    await screenshot(page, testInfo, 'idle');

    const request = page.waitForRequest(
      (candidate) => candidate.method() === 'POST' && candidate.url().endsWith('/call/web'),
    );
    await start.click();
    const sent = await request;
    expect(sent.headers()['authorization']).toBe('Bearer demo-public-key');
    expect(sent.postDataJSON()).toMatchObject({ assistantId: 'demo-pepa-assistant' });
    await expect(status).toHaveText('Connecting to Pepa...');
    await screenshot(page, testInfo, 'connecting');

    await expect(status).toHaveText('Listening...', { timeout: 15_000 });
    await expectToast(page, TOAST.connected);
    await expect(section.getByText('Speak naturally, Pepa is all ears')).toBeVisible();
    await screenshot(page, testInfo, 'listening');

    await expect(status).toHaveText('Pepa is speaking...');
    await expect(section.getByText('Speak naturally, Pepa is all ears')).toBeHidden();
    await screenshot(page, testInfo, 'speaking');
    await expect(status).toHaveText('Listening...', { timeout: 15_000 });

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
    await expectToast(page, TOAST.ended);
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
  });

  test.describe('when the provider refuses the web call', () => {
    test.use({ allowedProblems: /status of (401|500)|HTTP (401|500)|\/call\/web/i });

    for (const code of [401, 500]) {
      test(`answering ${code} ends idle with 'Failed to connect'`, async ({ page }, testInfo) => {
        await page.route('**/call/web', (route) =>
          route.continue({ headers: { ...route.request().headers(), prefer: `code=${code}` } }),
        );
        await open(page);
        const response = page.waitForResponse('**/call/web');
        await talk(page).start.click();
        expect((await response).status()).toBe(code);
        await expectToast(page, TOAST.startFailed);
        await expectReleased(page);
        if (code === 500) await screenshot(page, testInfo, 'error');
      });
    }
  });

  test.describe('when the network fails', () => {
    test.use({ allowedProblems: /ERR_FAILED|Failed to fetch|network/i });

    test("a failed request ends idle with 'Failed to connect'", async ({ page }) => {
      await page.route('**/call/web', (route) => route.abort('failed'));
      await open(page);
      await talk(page).start.click();
      await expectToast(page, TOAST.startFailed);
      await expectReleased(page);
    });
  });

  test.describe('when the microphone is blocked', () => {
    test.use({ allowedProblems: /Permission denied|NotAllowedError|microphone/i });

    test("ends idle with 'Failed to connect' and says how to allow it", async ({ page }) => {
      await open(page, '', { denyMicrophone: true });
      await talk(page).start.click();
      await expectToast(page, TOAST.startFailed);
      await expect(talk(page).section.getByRole('note')).toContainText('microphone is blocked');
      await expectReleased(page);
    });
  });

  test.describe('when the room misbehaves', () => {
    test.use({ allowedProblems: /join|room|eject|malformed|JSON|app message/i });

    test("a join failure ends idle with 'Failed to connect'", async ({ page }) => {
      await open(page, 'sim=join-failure');
      await talk(page).start.click();
      await expectToast(page, TOAST.startFailed);
      await expectReleased(page);
      expect(await toastCount(page, 'Connected')).toBe(0);
    });

    test("the server ending the call shows one 'Call ended'", async ({ page }) => {
      await open(page, 'sim=server-end');
      await connect(page);
      await expectToast(page, TOAST.ended);
      await expectReleased(page);
      await page.waitForTimeout(500);
      expect(await toastCount(page, 'Call ended')).toBe(1);
    });

    test("ejection shows the 'Error' toast and ends idle", async ({ page }) => {
      await open(page, 'sim=ejection');
      await connect(page);
      await expectToast(page, TOAST.error);
      await expectReleased(page);
    });

    test('a malformed message does not break the call', async ({ page }) => {
      await open(page, 'sim=malformed-message');
      await connect(page);
      // The malformed message comes after the greeting; the call carries on past it.
      await expect(talk(page).status).toHaveText('Pepa is speaking...');
      await expect(talk(page).status).toHaveText('Listening...', { timeout: 15_000 });
      await page.waitForTimeout(1500);
      await expect(talk(page).end).toBeVisible();
      await talk(page).end.click();
      await expectToast(page, TOAST.ended);
      await expectReleased(page);
    });
  });

  test('a double tap makes one request', async ({ page }) => {
    await open(page);
    let requests = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/call/web')) requests += 1;
    });
    await talk(page).start.dblclick();
    await expect(talk(page).status).toHaveText('Listening...', { timeout: 15_000 });
    expect(requests).toBe(1);
    await talk(page).end.click();
    await expectReleased(page);
  });

  test('End Call while connecting: nothing joins', async ({ page }) => {
    // A slow room, so that connecting lasts long enough to be cancelled on any machine.
    await open(page, '', { simScale: 4 });
    await talk(page).start.click();
    await expect(talk(page).status).toHaveText('Connecting to Pepa...');
    await page.waitForTimeout(450);
    await talk(page).end.click();
    await expectReleased(page);
    await page.waitForTimeout(2000);
    await expect(talk(page).status).toHaveText('Ready to chat');
    expect(await toastCount(page, 'Connected')).toBe(0);
    expect(await toastCount(page, 'Failed to connect')).toBe(0);
    expect((await callResources(page)).audioElements).toBe(0);
  });

  test('Escape ends the call', async ({ page }) => {
    await open(page);
    await connect(page);
    await page.keyboard.press('Escape');
    await expectToast(page, TOAST.ended);
    await expectReleased(page);
  });

  test('leaving the page mid-call releases the microphone', async ({ page }) => {
    await open(page);
    await connect(page);
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide')));
    await expectReleased(page);
  });
});
