import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  callResources,
  expectStatusesSeen,
  installCallProbe,
  statusHistory,
  toastHistory,
  waitPastDoubleTap,
} from './support/call-probe';
import { expect, test } from './support/fixtures';
import { holdRequests } from './support/held-requests';
import { talk } from './support/talk';

/** The simulated room, twice as fast. */
const FAST = 0.5;
const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;
const GREETING = "Pepa: Ribbit! Welcome to my court. I'm Pepa. What shall we talk about?";

declare global {
  interface Window {
    __visitorRecord?: {
      /** The status shown each time the keyboard focus fell to the page while it was watched. */
      focusFell: string[];
      /** The status shown each time the typing field left the page. */
      fieldLeft: string[];
      /** The microphone each getUserMedia call asked for ('default' when none in particular). */
      microphones: string[];
      /** Set by the test: from now on, focus on the page's body is a fall. */
      watchFocus: boolean;
      /** A microphone that cannot be opened (NotReadableError), set by the test. */
      brokenMicrophone: string | null;
      /**
       * Set by the test: every microphone opened from now on hears nothing, as for a visitor who
       * only types (the room's fake microphone beeps, and the room takes beeps for speech).
       */
      quietMicrophone: boolean;
    };
  }
}

/**
 * Records, as it happens: every time the keyboard focus falls to the page's body while watched,
 * every time the typing field leaves the page (with the status then), and every microphone the
 * page opens. A microphone the test names can be made impossible to open.
 */
async function installVisitorRecorder(page: Page) {
  await page.addInitScript(() => {
    const record = {
      focusFell: [] as string[],
      fieldLeft: [] as string[],
      microphones: [] as string[],
      watchFocus: false,
      brokenMicrophone: null as string | null,
      quietMicrophone: false,
    };
    window.__visitorRecord = record;
    const status = () =>
      document.querySelector('#talk [role="status"]')?.textContent?.trim() ?? '(none)';

    const media = navigator.mediaDevices;
    const original = media.getUserMedia.bind(media);
    media.getUserMedia = async (constraints) => {
      const audio = constraints?.audio;
      const wanted =
        typeof audio === 'object' && audio !== null && typeof audio.deviceId === 'object'
          ? String((audio.deviceId as { exact?: string }).exact ?? 'default')
          : 'default';
      record.microphones.push(wanted);
      if (record.brokenMicrophone !== null && wanted === record.brokenMicrophone) {
        throw new DOMException('Could not start audio source', 'NotReadableError');
      }
      const stream = await original(constraints);
      if (!record.quietMicrophone) return stream;
      // The page gets a silent track in place of the microphone's; stopping it stops the
      // microphone's, so the call's release of the microphone is still what ends it.
      const context = new AudioContext();
      const [silent] = context.createMediaStreamDestination().stream.getAudioTracks();
      if (!silent) return stream;
      const stopSilent = silent.stop.bind(silent);
      silent.stop = () => {
        stopSilent();
        for (const track of stream.getTracks()) track.stop();
        void context.close();
      };
      return new MediaStream([silent]);
    };

    const checkFocus = () => {
      if (!record.watchFocus) return;
      const active = document.activeElement;
      if (active === null || active === document.body) record.focusFell.push(status());
    };
    let hadField = false;
    const watch = () => {
      const hasField = document.querySelector('#talk input[type="text"]') !== null;
      if (hadField && !hasField) record.fieldLeft.push(status());
      hadField = hasField;
      checkFocus();
    };
    // Focus moving between two controls passes through the body between focusout and focusin:
    // only a focusout to nowhere counts, looked at once the task is over.
    document.addEventListener(
      'focusout',
      (event) => {
        if (event.relatedTarget === null) setTimeout(checkFocus, 0);
      },
      true,
    );
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(watch).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
  });
}

async function visitorRecord(page: Page) {
  return page.evaluate(() => window.__visitorRecord!);
}

async function open(page: Page, query = `simScale=${FAST}`) {
  await installCallProbe(page);
  await installVisitorRecorder(page);
  await page.goto(`/?${query}`);
  await talk(page).start.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

async function connect(page: Page) {
  await talk(page).start.click();
  await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
}

/** The finished caption lines, in order. */
function captionLines(page: Page) {
  return talk(page).captions.locator('p:not([aria-hidden])').allTextContents();
}

async function expectGreeted(page: Page) {
  await expect(
    talk(page).captions.locator('p:not([aria-hidden])').filter({ hasText: 'Ribbit! Welcome' }),
  ).toHaveCount(1, { timeout: 15_000 });
}

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

  test('Escape in the typing field clears it and never ends the call @once', async ({ page }) => {
    await open(page);
    await connect(page);
    const { typeField: field } = talk(page);
    await field.fill('Should I');
    const before = (await statusHistory(page)).length;
    await field.press('Escape');
    await expect(field).toHaveValue('');
    await expect(field).toBeFocused();
    await field.press('Escape');
    // The call is still on: Pepa answers the next line.
    await field.fill('Hello');
    await field.press('Enter');
    await expect
      .poll(
        async () => {
          const lines = await captionLines(page);
          return lines.slice(lines.indexOf('You: Hello') + 1).some((l) => l.startsWith('Pepa: '));
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const since = (await statusHistory(page)).slice(before);
    expect(since).not.toContain('Ending the call...');
    expect(since).not.toContain('Ready to chat');
    await expect(talk(page).end).toBeVisible();
    await talk(page).end.click();
    await expect(talk(page).status).toHaveText('Ready to chat');
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

  /** The most Tab stops a walk between the call's controls may take before it has failed. */
  const CALL_STOPS = 30;

  /** What has the focus, as a walk's record names it: its tag and its accessible text. */
  function focusedName(page: Page) {
    return page.evaluate(() => {
      const el = document.activeElement;
      if (!el) return 'nothing';
      const label = el.getAttribute('aria-label') ?? el.textContent ?? '';
      return `${el.tagName.toLowerCase()} "${label.trim().slice(0, 40)}"`;
    });
  }

  test('a walk through the call by keyboard only: the focus never falls to the page', async ({
    page,
  }) => {
    await open(page);
    const { start, end, typeField: field } = talk(page);
    // From the top of the page, Tab until Start Talking has the focus.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    for (
      let press = 0;
      press < 40 && !(await start.evaluate((el) => el === document.activeElement));
      press += 1
    ) {
      await page.keyboard.press('Tab');
    }
    await expect(start).toBeFocused();
    // A visitor who only types: with the room's beeping fake microphone, the room would hear
    // the demo's spoken turns at its own pace, and one of them asks Pepa to show the Pond, which
    // rightly takes the focus there (the visitor is not typing) in the middle of the walk.
    await page.evaluate(() => {
      window.__visitorRecord!.watchFocus = true;
      window.__visitorRecord!.quietMicrophone = true;
    });

    await page.keyboard.press('Enter');
    await expect(end).toBeFocused();
    await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
    await expect(end).toBeFocused();

    // Tab on to the typing field; every stop on the way is a control of the call (each of
    // Pepa's finished lines in the captions has its Share button).
    const walkedToField: string[] = [];
    for (
      let press = 0;
      press < CALL_STOPS && !(await field.evaluate((el) => el === document.activeElement));
      press += 1
    ) {
      await page.keyboard.press('Tab');
      walkedToField.push(await focusedName(page));
    }
    await expect(field, `Tab stops: ${walkedToField.join(', ')}`).toBeFocused();
    await page.keyboard.type('Hello Pepa');
    await page.keyboard.press('Enter');
    await expect(talk(page).captions.getByText('You: Hello Pepa', { exact: true })).toBeVisible();
    await expect(field).toBeFocused();
    // Tab to Send: it says it waits for Pepa, and keeps the focus while it does.
    await page.keyboard.press('Tab');
    const send = talk(page).section.getByRole('button', { name: /^(Send|Waiting for Pepa)$/ });
    await expect(send).toBeFocused();
    await expect
      .poll(
        async () => {
          const lines = await captionLines(page);
          return lines
            .slice(lines.indexOf('You: Hello Pepa') + 1)
            .some((l) => l.startsWith('Pepa: '));
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    await expect(
      talk(page).section.getByRole('button', { name: 'Send', exact: true }),
    ).toBeFocused();

    await page.keyboard.press('Shift+Tab');
    await expect(field).toBeFocused();
    await page.keyboard.type('never mind');
    await page.keyboard.press('Escape');
    await expect(field).toHaveValue('');
    await expect(end).toBeVisible();

    // Back to End Call, and the call ends by the one deliberate press.
    const walkedToEnd: string[] = [];
    for (
      let press = 0;
      press < CALL_STOPS && !(await end.evaluate((el) => el === document.activeElement));
      press += 1
    ) {
      await page.keyboard.press('Shift+Tab');
      walkedToEnd.push(await focusedName(page));
    }
    const fell = (await visitorRecord(page)).focusFell;
    await expect(
      end,
      `Shift+Tab stops: ${walkedToEnd.join(', ')}; the focus fell to the page during: ${fell.join(', ')}`,
    ).toBeFocused();
    // The room heard only what was typed.
    expect((await captionLines(page)).filter((l) => l.startsWith('You: '))).toEqual([
      'You: Hello Pepa',
    ]);
    await page.keyboard.press('Enter');
    await expect(talk(page).status).toHaveText('Ready to chat');
    await expect(start).toBeFocused();
    expect((await visitorRecord(page)).focusFell).toEqual([]);
    // The microphone behind the silence was released with the call.
    await expect.poll(async () => (await callResources(page)).liveTracks).toBe(0);
  });

  test("a press before the voice chat's code has arrived moves the focus to End Call, never to the page", async ({
    page,
  }) => {
    const release = await holdRequests(page, /\/assets\/voice-chat-[^/]+\.js$/);
    await open(page);
    const { start, end, status } = talk(page);
    await start.focus();
    await page.evaluate(() => {
      window.__visitorRecord!.watchFocus = true;
    });
    await page.keyboard.press('Enter');
    await expect(status).not.toHaveText('Ready to chat');
    release();

    await expect(status).toHaveText(CONNECTED, { timeout: 20_000 });
    await expect(end).toBeFocused();
    expect((await visitorRecord(page)).focusFell).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(status).toHaveText('Ready to chat');
  });

  test.describe('when Pepa ends the call while the visitor types @once', () => {
    test('the focus lands on Start Talking, not on the page', async ({ page }) => {
      await open(page, `simScale=${FAST}&sim=server-end`);
      await connect(page);
      await talk(page).typeField.fill('One more thing');
      await page.evaluate(() => {
        window.__visitorRecord!.watchFocus = true;
      });
      await expect(talk(page).status).toHaveText('Ready to chat', { timeout: 15_000 });
      await expect(talk(page).start).toBeFocused();
      expect((await visitorRecord(page)).focusFell).toEqual([]);
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

  test('a flood of typed sends makes one message until Pepa answers @once', async ({ page }) => {
    await open(page);
    await connect(page);
    await expectGreeted(page);
    // 300 lines typed and sent in one go, as a script (or a stuck key) would.
    await page.evaluate(() => {
      const input = document.querySelector<HTMLInputElement>('#talk input[type="text"]');
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      for (let line = 0; line < 300; line += 1) {
        setValue?.call(input, `Line ${line}`);
        input?.dispatchEvent(new Event('input', { bubbles: true }));
        input?.form?.requestSubmit();
      }
    });
    await expect(
      talk(page).section.getByRole('button', { name: 'Waiting for Pepa' }),
    ).toBeVisible();
    // Pepa answers the one line that went out; only then may the next go.
    await expect
      .poll(
        async () => {
          const lines = await captionLines(page);
          return lines.slice(lines.indexOf('You: Line 0') + 1).some((l) => l.startsWith('Pepa: '));
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const typed = (await captionLines(page)).filter((line) => line.startsWith('You: Line'));
    expect(typed).toEqual(['You: Line 0']);
    await expect(
      talk(page).section.getByRole('button', { name: 'Send', exact: true }),
    ).toBeVisible();
    await talk(page).end.click();
    await expect(talk(page).status).toHaveText('Ready to chat');
  });
});
