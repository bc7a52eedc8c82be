// @ts-check
// `npm run screenshots`: refreshes the README's pictures from a demo build. Builds into a
// temporary folder, serves it, and writes to docs/screenshots/:
//   phone.png, desktop.png            the first screen at 390 × 844 and 1440 × 900 (inlined in the
//                                      README; each must stay within 300 KB)
//   phone-full.png, desktop-full.png  the whole page (linked from the README, not inlined)
// Each is a first visit (fresh browser context, empty cache), after the web fonts have loaded.
// The callbacks given to page.evaluate run in the browser.
/* global window */
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { buildSite } from './build.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/chromium.mjs';
import { startStaticServer } from './lib/static-server.mjs';

const root = resolve(import.meta.dirname, '..');
const outDir = join(root, 'docs', 'screenshots');
/** The README inlines the first-screen pictures; beyond this they slow the page that shows it. */
export const FIRST_SCREEN_MAX_BYTES = 300 * 1024;

const SHOTS = [
  { name: 'phone', viewport: { width: 390, height: 844 }, scale: 1, mobile: true },
  { name: 'desktop', viewport: { width: 1440, height: 900 }, scale: 0.5, mobile: false },
];

const work = await mkdtemp(join(tmpdir(), 'pepa-screenshots-'));
let site;
let browser;
try {
  console.log('Building the demo into a temporary folder…');
  const siteDir = await buildSite({ demo: true, quiet: true, outDir: join(work, 'site') });
  site = await startStaticServer({ root: siteDir, port: 0 });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  await mkdir(outDir, { recursive: true });
  for (const shot of SHOTS) {
    const context = await browser.newContext({
      viewport: shot.viewport,
      deviceScaleFactor: shot.scale,
      isMobile: shot.mobile,
      hasTouch: shot.mobile,
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    await page.goto(`${site.url}/`, { waitUntil: 'networkidle' });
    await page.evaluate(() => window.document.fonts.ready);
    const first = join(outDir, `${shot.name}.png`);
    await page.screenshot({ path: first });
    // The whole page at 1×, so the linked capture stays a reasonable download.
    const full = join(outDir, `${shot.name}-full.png`);
    const fullContext = await browser.newContext({
      viewport: shot.viewport,
      deviceScaleFactor: 1,
      isMobile: shot.mobile,
      hasTouch: shot.mobile,
      reducedMotion: 'reduce',
    });
    const fullPage = await fullContext.newPage();
    await fullPage.goto(`${site.url}/`, { waitUntil: 'networkidle' });
    await fullPage.evaluate(() => window.document.fonts.ready);
    // A full-page capture does not scroll, so sections rendered as they come near the viewport
    // (`render-near-view`) would stay unrendered below the first screens; render them all.
    await fullPage.addStyleTag({ content: '.render-near-view { content-visibility: visible; }' });
    await fullPage.screenshot({ path: full, fullPage: true });
    await Promise.all([context.close(), fullContext.close()]);

    const bytes = (await stat(first)).size;
    const kb = (bytes / 1024).toFixed(0);
    console.log(
      `${shot.name}.png ${kb} KB, ${shot.name}-full.png ${((await stat(full)).size / 1024).toFixed(0)} KB`,
    );
    if (bytes > FIRST_SCREEN_MAX_BYTES) {
      throw new Error(
        `${shot.name}.png is ${kb} KB, over the README's ${FIRST_SCREEN_MAX_BYTES / 1024} KB`,
      );
    }
  }
} catch (error) {
  console.error(`screenshots: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await browser?.close();
  await site?.close();
  await rm(work, { recursive: true, force: true });
}
