// Chromium (Debian's, scripts/lib/chromium.mjs) over the DevTools protocol through puppeteer-core,
// for the arrival matrix; the rest of the browser suite runs in it through Playwright (e2e/).
import puppeteer from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, MEDIA_ARGS } from '../../scripts/lib/chromium.mjs';
import { COMMAND_TIMEOUT_MS, type EngineOptions, type EngineSession } from './engine';
import { PuppeteerSession } from './puppeteer';

export async function openChromiumSession(options: EngineOptions): Promise<EngineSession> {
  const args = CHROMIUM_ARGS.filter((flag) => flag !== '--headless');
  if (options.microphone) args.push(...MEDIA_ARGS);
  if (options.backForwardCache === false) args.push('--disable-features=BackForwardCache');
  // Pages prefer reduced motion, as in the Chromium suite (playwright.config.ts): no test here
  // tests motion, and an idle page's animations would keep a GPU-less browser busy.
  args.push('--force-prefers-reduced-motion');
  const browser = await puppeteer.launch({
    browser: 'chrome',
    protocolTimeout: COMMAND_TIMEOUT_MS,
    executablePath: CHROMIUM_PATH,
    headless: true,
    args,
  });
  // The clipboard as a visitor's browser offers it to a page they tap in, and the microphone as
  // one allowed it (a grant denies what it does not name, and the page asks the permission first).
  return new PuppeteerSession('chromium', browser, (context, origin) =>
    context.overridePermissions(origin, [
      'clipboard-read',
      'clipboard-sanitized-write',
      ...(options.microphone ? (['microphone'] as const) : []),
    ]),
  );
}
