// Talk to Pepa in the field: its toasts cover no call control, at any width or place.
import { installCallProbe } from './support/call-probe';
import {
  CONNECTED,
  expectReleased,
  FAST,
  installFieldRecorder,
  open,
  recorded,
} from './support/field-call';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';

test.describe('Talk to Pepa in the field', () => {
  test.describe('toasts cover no call control', () => {
    test.use({ allowedProblems: /Permission denied|NotAllowedError|microphone/i });

    // Two places a visitor can be: at the section's top, where the nav's link puts them (the
    // controls low on the screen), and scrolled on until the controls sit under the bar.
    const places = {
      'from the link': () => document.getElementById('talk')?.scrollIntoView(),
      'scrolled down': () =>
        document
          .querySelector('#talk button')
          ?.scrollIntoView({ block: 'start', behavior: 'instant' }),
    };
    for (const width of [320, 390, 768, 1024, 1440]) {
      for (const [place, scroll] of Object.entries(places)) {
        // Each sets its own width: one project walks them all.
        test(`at ${width} px, ${place}: connected and ended @once`, async ({ page }) => {
          await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
          await open(page);
          await page.evaluate(scroll);
          // By keyboard, so no pointer action scrolls the page on its own.
          await talk(page).start.focus();
          await page.keyboard.press('Enter');
          await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
          await talk(page).end.focus();
          await page.keyboard.press('Enter');
          await expectReleased(page);
          await expect
            .poll(async () => (await recorded(page)).toasts.map((toast) => toast.title))
            .toEqual(['Connected', 'Call ended']);
          const toasts = (await recorded(page)).toasts;
          expect(toasts.filter((toast) => toast.overlaps.length > 0)).toEqual([]);
        });
      }
    }

    test('a failed start leaves the microphone help in view', async ({ page }) => {
      await installCallProbe(page, { denyMicrophone: true });
      await installFieldRecorder(page);
      await page.goto(`/?simScale=${FAST}`);
      await page.evaluate(() => document.getElementById('talk')?.scrollIntoView());
      await talk(page).start.focus();
      await page.keyboard.press('Enter');
      await expect(talk(page).section.getByRole('note')).toContainText('microphone is blocked');
      await expect
        .poll(async () => (await recorded(page)).toasts.map((toast) => toast.title))
        .toContain('Failed to connect');
      expect((await recorded(page)).toasts.filter((toast) => toast.overlaps.length > 0)).toEqual(
        [],
      );
    });
  });
});
