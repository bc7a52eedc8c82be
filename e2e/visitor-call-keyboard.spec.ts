// A call that respects the visitor, by keyboard: a walk through the call by keyboard only, a press
// before the call view's code has arrived, and Pepa ending the call while the visitor types; the
// focus never falls to the page.
import type { Page } from '@playwright/test';
import { callResources } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { holdRequests } from './support/held-requests';
import { talk } from './support/talk';
import {
  captionTexts,
  connect,
  CONNECTED,
  FAST,
  open,
  visitorRecord,
} from './support/visitor-call';

test.describe('a call that respects the visitor', () => {
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
    // Pepa's finished entries in the captions has its Share button).
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
          const shown = await captionTexts(page);
          return shown
            .slice(shown.indexOf('You: Hello Pepa') + 1)
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
    expect((await captionTexts(page)).filter((l) => l.startsWith('You: '))).toEqual([
      'You: Hello Pepa',
    ]);
    await page.keyboard.press('Enter');
    await expect(talk(page).status).toHaveText('Ready to chat');
    await expect(start).toBeFocused();
    expect((await visitorRecord(page)).focusFell).toEqual([]);
    // The microphone behind the silence was released with the call.
    await expect.poll(async () => (await callResources(page)).liveTracks).toBe(0);
  });

  test("a press before the call view's code has arrived moves the focus to End Call, never to the page", async ({
    page,
  }) => {
    const release = await holdRequests(page, /\/assets\/call-view-[^/]+\.js$/);
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
});
