import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

/**
 * In-page links land where they point: the target's heading at the top, just below the fixed bar,
 * on a phone and a desktop, although the sections below the Talk section are drawn only as they
 * come near the viewport (and change height when they are).
 */

/** Where the target's heading rests once the page has stopped scrolling. */
async function restingPlace(page: Page, id: string) {
  return page.evaluate(async (targetId) => {
    // Two frames after the last scroll: whatever the sections drawn near view changed is in.
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    await frame();
    await frame();
    const target = document.getElementById(targetId);
    const heading = target?.querySelector('h2, h1') ?? target;
    const navBottom = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    return {
      targetTop: Math.round(target?.getBoundingClientRect().top ?? NaN),
      headingTop: Math.round(heading?.getBoundingClientRect().top ?? NaN),
      headingBottom: Math.round(heading?.getBoundingClientRect().bottom ?? NaN),
      navBottom: Math.round(navBottom),
      viewportHeight: window.innerHeight,
      atPageEnd: window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1,
    };
  }, id);
}

/**
 * Scrolls the page at once, to the privacy link in the middle of the screen or to the very end,
 * and resolves once the page is still: sections drawn as they come near view change the page's
 * height, and the scroll is repeated until five frames in a row change nothing.
 */
async function jump(page: Page, to: 'privacy-link' | 'page-end') {
  await page.evaluate(
    (where) =>
      new Promise<void>((resolve) => {
        let still = 0;
        let last = '';
        const step = () => {
          if (where === 'page-end') {
            window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
          } else {
            document
              .querySelector('#talk a[href="#privacy"]')
              ?.scrollIntoView({ block: 'center', behavior: 'instant' });
          }
          const now = `${window.scrollY}:${document.documentElement.scrollHeight}`;
          still = now === last ? still + 1 : 0;
          last = now;
          if (still >= 5) resolve();
          else requestAnimationFrame(step);
        };
        step();
      }),
    to,
  );
}

/**
 * Clicks and resolves once the scroll it starts is over: the page has moved, then stayed still
 * for ten frames in a row (a smooth scroll moves on every frame until it ends).
 */
async function followAndSettle(page: Page, click: () => Promise<void>) {
  const before = await page.evaluate(() => window.scrollY);
  await click();
  await page.evaluate(
    (start) =>
      new Promise<void>((resolve) => {
        let still = 0;
        let last = window.scrollY;
        let moved = last !== start;
        const step = () => {
          const now = window.scrollY;
          moved ||= now !== start;
          still = now === last ? still + 1 : 0;
          last = now;
          if (moved && still >= 10) resolve();
          else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    before,
  );
}

function expectAtTop(place: Awaited<ReturnType<typeof restingPlace>>) {
  // The target starts at the bar's lower edge (the privacy section keeps a little air above it),
  // or, near the end of the page, as high as the page scrolls; its heading is in full view, in
  // the upper part of the screen.
  if (!place.atPageEnd) {
    expect(place.targetTop).toBeGreaterThanOrEqual(place.navBottom - 1);
    expect(place.targetTop).toBeLessThanOrEqual(place.navBottom + 20);
  }
  expect(place.headingTop).toBeGreaterThanOrEqual(place.navBottom);
  expect(place.headingBottom).toBeLessThanOrEqual(
    place.atPageEnd ? place.viewportHeight : place.viewportHeight / 2,
  );
}

test.describe('in-page links land where they point', () => {
  // A test of motion: the page glides to the target past sections drawn (and grown) on the way,
  // which is where a link would land wrong; the suite's pages otherwise prefer reduced motion.
  test.use({ reducedMotion: 'no-preference' });

  test('the privacy link beside Start Talking puts the Privacy heading at the top', async ({
    page,
  }) => {
    await page.goto('/');
    const link = page.locator('#talk').getByRole('link', { name: 'Privacy' });
    // The link in the middle of the screen, the way a reader comes upon it.
    await jump(page, 'privacy-link');
    await followAndSettle(page, () => link.click());
    await expect(page).toHaveURL(/#privacy$/);
    const place = await restingPlace(page, 'privacy');
    expectAtTop(place);
    await expect(page.getByRole('heading', { name: 'Privacy' })).toBeInViewport();
  });

  for (const [name, id] of [
    ['Secret Grotto', 'grotto'],
    ['Vanity Lounge', 'lounge'],
    ['Meme Stream', 'stream'],
  ] as const) {
    test(`the nav's ${name} link, from the top of a fresh page`, async ({ page }, testInfo) => {
      await page.goto('/');
      const phone = testInfo.project.name === 'phone';
      if (phone) await page.getByRole('button', { name: 'Menu' }).click();
      const nav = phone
        ? page.locator('#mobile-menu')
        : page.getByRole('navigation', { name: 'Main' });
      await followAndSettle(page, () => nav.getByRole('link', { name, exact: true }).click());
      expectAtTop(await restingPlace(page, id));
    });
  }

  test("the footer's quick link back up to Pepa's Pond", async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('navigation', { name: 'Quick Links' });
    // A fresh page, scrolled to the very end in one jump: the sections on the way are not drawn.
    await jump(page, 'page-end');
    await followAndSettle(page, () => footer.getByRole('link', { name: "Pepa's Pond" }).click());
    expectAtTop(await restingPlace(page, 'pond'));
  });
});
