import type { Page } from '@playwright/test';
import { installCallProbe, toastHistory } from './support/call-probe';
import { expect, test } from './support/fixtures';

test.describe('the browser tests’ own records @once', () => {
  test('toasts shown in one busy moment are recorded in the order the page showed them', async ({
    page,
  }) => {
    await installCallProbe(page);
    await page.goto('/');
    // What the toaster holds after 'Connected' and then 'Call ended' landed in one frame (a
    // loaded machine): newest first, each with its place in the toaster's list.
    await page.evaluate(() => {
      const list = document.createElement('ol');
      list.setAttribute('data-sonner-toaster', '');
      for (const [index, title] of ['Call ended', 'Connected'].entries()) {
        const toast = document.createElement('li');
        toast.setAttribute('data-sonner-toast', '');
        toast.dataset.index = String(index);
        toast.innerHTML = `<div data-title>${title}</div><div data-description></div>`;
        list.append(toast);
      }
      document.body.append(list);
    });
    await expect
      .poll(async () => (await toastHistory(page)).map((toast) => toast.title))
      .toEqual(['Connected', 'Call ended']);
  });
});

test.describe('the browser tests’ own settings @once', () => {
  /** The page's animations that are running now, by the name of their keyframes. */
  const runningAnimations = (page: Page) =>
    page.evaluate(() =>
      document
        .getAnimations()
        .filter((animation) => animation.playState === 'running')
        .map((animation) => (animation as CSSAnimation).animationName ?? 'a transition'),
    );

  test('a page prefers reduced motion, so the landing page holds still, and a test of motion can ask for it back', async ({
    page,
  }) => {
    await page.goto('/');
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(
      true,
    );
    expect(await runningAnimations(page)).toEqual([]);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect.poll(() => runningAnimations(page)).toContain('float');
  });
});
