// The screenshots the suite saves for a person to look at (what is in view, where the focus is,
// whether two lines disagree); no test compares them. Each is taken at one image pixel per CSS
// pixel (Playwright's `scale: 'css'`): the phone project draws three device pixels per CSS pixel,
// and at that density a screenshot of the same layout cost five to nine times the CPU
// (docs/testing.md has the figures).
import type { Locator, Page, TestInfo } from '@playwright/test';

export interface ScreenshotOptions {
  /** The whole page rather than the viewport (a page only). */
  fullPage?: boolean;
  /** 'disabled' ends finite CSS animations and stops endless ones first (Playwright's option). */
  animations?: 'allow' | 'disabled';
}

/** Saves a screenshot of `target` (a page's viewport or one element) at `path`. */
export async function saveScreenshot(
  target: Page | Locator,
  path: string,
  { fullPage = false, animations = 'allow' }: ScreenshotOptions = {},
): Promise<void> {
  const options = { path, scale: 'css', animations } as const;
  if ('goto' in target) await target.screenshot({ ...options, fullPage });
  else await target.screenshot(options);
}

/** Where the review screenshot `name` of the running test's project is kept. */
export function reviewShotPath(testInfo: TestInfo, name: string): string {
  return `test-results/screenshots/${name}-${testInfo.project.name}.png`;
}

/**
 * One spec file's review screenshots: `shot(target, testInfo, name)` saves
 * test-results/screenshots/<prefix>-<name>-<project>.png, taken with `defaults` unless the call
 * says otherwise.
 */
export function reviewShots(prefix: string, defaults: ScreenshotOptions = {}) {
  return (
    target: Page | Locator,
    testInfo: TestInfo,
    name: string,
    options: ScreenshotOptions = {},
  ): Promise<void> =>
    saveScreenshot(target, reviewShotPath(testInfo, `${prefix}-${name}`), {
      ...defaults,
      ...options,
    });
}
