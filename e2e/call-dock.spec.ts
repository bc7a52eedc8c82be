import type { Locator, Page, TestInfo } from '@playwright/test';
import { expectStatusesSeen, installCallProbe } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';

/**
 * The call stays on screen, at both widths: the call's status, captions and field are in view when
 * it connects; scrolled away, or taken to another section by Pepa, the call docks into a bar with
 * the status, her latest words, Mute and End Call; tapping the bar returns to the call; End Call
 * from the bar ends it, and the bar leaves with it.
 */
const FAST = 0.5;
const CONNECTED = /Listening\.\.\.|Pepa is speaking\.\.\./;

function dock(page: Page) {
  const bar = page.getByRole('region', { name: 'Your call with Pepa' });
  return {
    bar,
    back: bar.getByRole('button', { name: /^Back to the call/ }),
    mute: bar.getByRole('button', { name: /^(Mute|Unmute)$/ }),
    end: bar.getByRole('button', { name: 'End Call' }),
    words: bar.getByTestId('dock-words'),
  };
}

/** The bar and `other` share no pixel. */
async function expectApart(bar: Locator, other: Locator) {
  const a = await bar.boundingBox();
  const b = await other.boundingBox();
  if (!a || !b) throw new Error('not laid out');
  const overlap =
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap, 'the bar covers it').toBe(false);
}

/** Scroll has come to rest: the same position twice in a row. */
async function settled(page: Page) {
  let last = Number.NaN;
  await expect
    .poll(async () => {
      const y = await page.evaluate(() => window.scrollY);
      const still = y === last;
      last = y;
      return still;
    })
    .toBe(true);
}

function shot(page: Page, testInfo: TestInfo, name: string) {
  return page.screenshot({
    path: `test-results/screenshots/dock-${name}-${testInfo.project.name}.png`,
    animations: 'disabled',
  });
}

test.describe('the call stays on screen', () => {
  test('in view at the start, docked when away, back with a tap, ended from the bar', async ({
    page,
  }, testInfo) => {
    await installCallProbe(page);
    await page.goto(`/?simScale=${FAST}`);
    const { section, status, start, end, captions, typeField } = talk(page);
    await section.scrollIntoViewIfNeeded();
    await expect(status).toHaveText('Ready to chat');
    await expect(dock(page).bar).toHaveCount(0);

    // The call starts: the status, the captions and the field come into view together.
    await start.click();
    await expectStatusesSeen(page, ['Connecting to Pepa...', 'Listening...']);
    await expect(typeField).toBeVisible();
    await settled(page);
    await expect(status).toBeInViewport();
    await expect(captions).toBeInViewport();
    await expect(typeField).toBeInViewport({ ratio: 1 });
    await expect(dock(page).bar).toHaveCount(0);
    await shot(page, testInfo, 'connected');

    // Scrolled away: the call docks, with End Call in view and her latest words.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    const bar = dock(page);
    await expect(bar.bar).toBeInViewport({ ratio: 1 });
    await expect(bar.end).toBeInViewport({ ratio: 1 });
    // Mute from the bar is the section's Mute (and the room's beeping microphone stops taking
    // turns, so the typed line below is the only question).
    await bar.mute.click();
    await expect(bar.back).toContainText(CONNECTED);
    await expect(bar.words).toHaveText(/^Pepa: \S/);
    await expect(bar.mute).toHaveAccessibleName('Unmute');
    // The bar says what the section says: muted, Pepa can't hear (never 'Listening...' alone).
    await expect(bar.bar).toContainText("Muted: Pepa can't hear you");
    await expect(section.getByTestId('muted-indicator')).toHaveText("Muted: Pepa can't hear you");
    await expect(section.getByRole('button', { name: 'Unmute' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await shot(page, testInfo, 'docked');

    // Tapping the bar returns to the call, the focus on its End Call; the bar leaves.
    await bar.back.click();
    await settled(page);
    await expect(end).toBeFocused();
    await expect(end).toBeInViewport();
    await expect(typeField).toBeInViewport();
    await expect(bar.bar).toHaveCount(0);

    // Pepa shows the Pond: the page goes there, and the bar with the call comes along, clear of
    // the Pond's heading.
    await typeField.fill('Where do I stake?');
    await section.getByRole('button', { name: 'Send' }).click();
    const pond = page.locator('#pond');
    await expect(pond).toBeFocused({ timeout: 20_000 });
    await settled(page);
    await expect(pond.getByRole('heading').first()).toBeInViewport({ ratio: 1 });
    await expect(bar.bar).toBeInViewport({ ratio: 1 });
    await expect(bar.end).toBeInViewport({ ratio: 1 });
    await expectApart(bar.bar, pond.getByRole('heading').first());
    await shot(page, testInfo, 'tour');

    // End Call from the bar: the call ends, the bar leaves, the visitor is back at the section.
    await bar.end.click();
    await expect(status).toHaveText('Ready to chat', { timeout: 15_000 });
    await expect(bar.bar).toHaveCount(0);
    await settled(page);
    // Back at the section, where the call's transcript and rating follow it.
    await expect(section).toBeInViewport();
    await expect(talk(page).start).toBeFocused();
    await shot(page, testInfo, 'ended');
  });
});
