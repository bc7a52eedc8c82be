import type { Locator } from '@playwright/test';
import { expectStatusesSeen, installCallProbe } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { callDock, talk } from './support/talk';

/**
 * The call stays on screen, at both widths, by layout: at the visitor's press the call comes into
 * view once, its status clear of the navigation bar; scrolled away, or taken to another section by
 * Pepa, the call is kept by a bar fixed to the bottom of the screen (the status, Mute, End Call);
 * a tap on it returns to the call; End Call from it ends the call where its section is.
 */
const FAST = 0.5;
const CONNECTED = /Listening\.\.\.|Pepa is speaking\.\.\./;
const NAV_HEIGHT_PX = 64;

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
}

/** `a` and `b` share no pixel. */
async function expectApart(a: Locator, b: Locator) {
  const [one, two] = [await box(a), await box(b)];
  const overlap =
    one.x < two.x + two.width &&
    two.x < one.x + one.width &&
    one.y < two.y + two.height &&
    two.y < one.y + one.height;
  expect(overlap, 'the two overlap').toBe(false);
}

test.describe('the call stays on screen', () => {
  test('in view at the press, docked when away, back with a tap, ended from the bar', async ({
    page,
  }) => {
    await installCallProbe(page);
    await page.goto(`/?simScale=${FAST}`);
    const { section, status, start, end, captions, typeField } = talk(page);
    await section.scrollIntoViewIfNeeded();
    await expect(status).toHaveText('Ready to chat');
    const bar = callDock(page);
    await expect(bar.bar).toHaveCount(0);

    // The press brings the call into view: the status under the navigation bar, and below it the
    // captions and, once connected, the field, all on one screen.
    await start.click();
    await expectStatusesSeen(page, ['Connecting to Pepa...', 'Listening...']);
    await expect(typeField).toBeInViewport({ ratio: 1 });
    expect((await box(status)).y).toBeGreaterThanOrEqual(NAV_HEIGHT_PX);
    await expect(status).toBeInViewport({ ratio: 1 });
    await expect(captions).toBeInViewport({ ratio: 1 });
    await expect(bar.bar).toHaveCount(0);

    // Scrolled away: the call docks, End Call in view, with the section's own status.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await expect(bar.bar).toBeInViewport({ ratio: 1 });
    await expect(bar.end).toBeInViewport({ ratio: 1 });
    await expect(bar.back).toHaveAccessibleName(CONNECTED);
    // Mute from the bar is the section's Mute, and the bar says so as the section does.
    await bar.mute.click();
    await expect(bar.mute).toHaveAccessibleName('Unmute');
    await expect(section.getByRole('button', { name: 'Unmute' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(bar.back).toHaveAccessibleName(/Muted: Pepa can't hear you/);

    // A tap on the bar returns to the call, the focus on its End Call; the bar leaves.
    await bar.back.click();
    await expect(end).toBeFocused();
    await expect(end).toBeInViewport({ ratio: 1 });
    await expect(status).toBeInViewport({ ratio: 1 });
    await expect(bar.bar).toHaveCount(0);

    // Pepa shows the Pond: the page goes there, and the bar keeps the call, clear of its heading.
    await typeField.fill('Where do I stake?');
    await section.getByRole('button', { name: 'Send' }).click();
    const pond = page.locator('#pond');
    await expect(pond).toBeFocused({ timeout: 20_000 });
    const heading = pond.getByRole('heading').first();
    await expect(heading).toBeInViewport({ ratio: 1 });
    await expect(bar.end).toBeInViewport({ ratio: 1 });
    await expectApart(bar.bar, heading);

    // End Call from the bar: the call ends where its section is, and what follows the call shows
    // in the controls' place, in view, the focus on the section's button.
    await bar.end.click();
    await expect(status).toHaveText('Ready to chat', { timeout: 15_000 });
    await expect(bar.bar).toHaveCount(0);
    await expect(start).toBeFocused();
    await expect(start).toBeInViewport({ ratio: 1 });
    await expect(section.getByRole('region', { name: /How was your audience/ })).toBeInViewport();
  });

  test('the bar never shows while the call is in view, nor outside a call', async ({ page }) => {
    await installCallProbe(page);
    // Every bar that ever appears is recorded with where End Call was at that moment.
    await page.addInitScript(() => {
      const seen: Array<{ endTop: number | null }> = [];
      (window as unknown as { docksSeen: typeof seen }).docksSeen = seen;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (
              node instanceof Element &&
              node.matches('[data-call-dock], :has([data-call-dock])')
            ) {
              const end = document.querySelector('#talk button[data-early]');
              seen.push({ endTop: end ? end.getBoundingClientRect().top : null });
            }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`/?simScale=${FAST}`);
    const { section, start, end, typeField } = talk(page);
    await section.scrollIntoViewIfNeeded();
    await start.click();
    await expect(typeField).toBeVisible();
    await expect(end).toBeInViewport({ ratio: 1 });
    await end.click();
    await expect(start).toBeVisible();
    const seen = await page.evaluate(
      () => (window as unknown as { docksSeen: Array<{ endTop: number | null }> }).docksSeen,
    );
    expect(seen).toEqual([]);
  });
});
