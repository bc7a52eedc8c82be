// A call that respects the visitor when something goes wrong: a rejoin keeps the draft, the focus,
// the chosen microphone and the captions; a refused next call keeps the transcript; a microphone
// that cannot be opened, and a provider's answer that is not a call, each say why.
import { readFile } from 'node:fs/promises';
import {
  callResources,
  expectStatusesSeen,
  installCallProbe,
  statusHistory,
  toastHistory,
  waitPastDoubleTap,
} from './support/call-probe';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';
import {
  connect,
  CONNECTED,
  expectGreeted,
  FAST,
  installVisitorRecorder,
  open,
  visitorRecord,
} from './support/visitor-call';

const GREETING = "Pepa: Ribbit! Welcome to my court. I'm Pepa. What shall we talk about?";

test.describe('a call that respects the visitor', () => {
  test.describe('when the connection drops and the call rejoins @once', () => {
    test.use({ allowedProblems: /lost|connection|network/i });

    test('the draft, the focus, the chosen microphone and the captions stay as they were', async ({
      page,
    }) => {
      // At the room's own pace, so the visitor's steps come before the connection drops.
      await open(page, 'sim=network-rejoin');
      await connect(page);
      const { typeField: field, microphone, captions } = talk(page);
      const chosen = (await microphone.locator('option').nth(1).getAttribute('value')) ?? '';
      await microphone.selectOption(chosen);
      await expect.poll(async () => (await visitorRecord(page)).microphones).toContain(chosen);
      await field.fill('Half a thought');
      await page.evaluate(() => {
        window.__visitorRecord!.watchFocus = true;
      });

      await expectStatusesSeen(page, ['Reconnecting to Pepa...'], 20_000);
      await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 20_000 });
      const statuses = await statusHistory(page);
      expect(statuses.slice(statuses.indexOf('Reconnecting to Pepa...'))).not.toContain(
        'Ready to chat',
      );

      // Nothing the visitor had was taken away, at any moment of the rejoin.
      const record = await visitorRecord(page);
      expect(record.fieldLeft).toEqual([]);
      expect(record.focusFell).toEqual([]);
      await expect(field).toHaveValue('Half a thought');
      await expect(field).toBeFocused();
      await expect(captions).toContainText('Ribbit! Welcome');
      // The picker says what the call uses: the rejoined room opened the chosen microphone.
      await expect(microphone).toHaveValue(chosen);
      expect(record.microphones.at(-1)).toBe(chosen);
      expect((await callResources(page)).liveTracks).toBe(1);

      await talk(page).end.click();
      await expect(talk(page).status).toHaveText('Ready to chat');
    });
  });

  test.describe('when the gate refuses the next call @once', () => {
    test.use({ allowedProblems: /status of 429|HTTP 429|api\/calls/i });

    test('the kept transcript stays, to copy and download', async ({ page }) => {
      let requests = 0;
      await page.route('**/api/calls', (route) => {
        requests += 1;
        if (requests === 1) return route.fallback();
        return route.fulfill({
          status: 429,
          headers: { 'retry-after': '5' },
          contentType: 'application/problem+json',
          body: JSON.stringify({ code: 'rate-limited', title: 'Too many', status: 429 }),
        });
      });
      await open(page);
      await connect(page);
      await expectGreeted(page);
      await talk(page).end.click();
      await expect(talk(page).transcript).toContainText(GREETING);

      await waitPastDoubleTap(page, 500);
      await talk(page).start.click();
      await expect(talk(page).section.getByRole('alert')).toContainText(
        "You've asked for Pepa several times in a short while.",
      );
      expect(requests).toBe(2);
      await expect(talk(page).transcript).toContainText(GREETING);
      await expect(
        talk(page).section.getByRole('button', { name: 'Copy transcript' }),
      ).toBeVisible();
      const download = page.waitForEvent('download');
      await talk(page).section.getByRole('button', { name: 'Download transcript' }).click();
      const saved = await readFile((await (await download).path()) ?? '', 'utf8');
      expect(saved.split('\n')[0]).toBe(GREETING);
    });
  });

  test.describe('when a microphone cannot be opened @once', () => {
    test.use({ allowedProblems: /NotReadableError|Could not start audio source/i });

    test('it is refused with a reason, and the picker shows the one in use', async ({ page }) => {
      await open(page);
      await connect(page);
      const { microphone } = talk(page);
      const first = await microphone.inputValue();
      const broken = (await microphone.locator('option').nth(1).getAttribute('value')) ?? '';
      const firstLabel = (await microphone.locator('option').nth(0).textContent()) ?? '';
      await page.evaluate((id) => {
        window.__visitorRecord!.brokenMicrophone = id;
      }, broken);
      await microphone.selectOption(broken);
      await expect(talk(page).section.getByRole('alert')).toHaveText(
        `That microphone couldn't be opened, so Pepa still hears you through ${firstLabel}.`,
      );
      await expect(microphone).toHaveValue(first);
      expect((await callResources(page)).liveTracks).toBe(1);
      await expect(talk(page).status).toHaveText(CONNECTED);
      const toasts = (await toastHistory(page)).map((toast) => toast.title);
      expect(toasts).not.toContain('Failed to connect');
      expect(toasts).not.toContain('Error');
    });
  });

  test.describe('when the provider answers with something that is not a call @once', () => {
    test.use({ allowedProblems: /could not be read|malformed/i });

    const admitted = (call: unknown) => JSON.stringify({ status: 'admitted', call });
    for (const [name, body] of [
      ['a room URL that is a number', admitted({ id: 'call-1', webCallUrl: 42 })],
      [
        'a room URL that is an object',
        admitted({ id: 'call-1', webCallUrl: { href: 'https://pepa.daily.co/r' } }),
      ],
      ['a null body', 'null'],
    ] as const) {
      test(`${name}: its own reason, and the microphone is not blamed`, async ({ page }) => {
        await page.route('**/api/calls', (route) =>
          route.fulfill({ status: 201, contentType: 'application/json', body }),
        );
        await installCallProbe(page);
        await installVisitorRecorder(page);
        // Not scrolled near the section: nothing is prefetched before the press.
        await page.goto(`/?simScale=${FAST}`);
        await talk(page).start.click();
        await expect(talk(page).section.getByRole('alert')).toHaveText(
          "The voice service's answer couldn't be read, so no call was joined. Please try again in a moment.",
        );
        await expect(talk(page).status).toHaveText('Ready to chat');
        const toasts = (await toastHistory(page)).map((toast) => toast.title);
        expect(toasts).not.toContain('Failed to connect');
        // The microphone asked for at the tap is released at once: nothing was joined.
        await expect.poll(async () => (await callResources(page)).liveTracks).toBe(0);
      });
    }
  });
});
