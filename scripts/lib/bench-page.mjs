// What the bench's browser measurements share: the phone they are written for, the browser,
// bounded waits, and a page's requests in flight.
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, MEDIA_ARGS } from './chromium.mjs';

/** A phone: the visitors the budgets are written for. */
export const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
};

/** How long the page may take to show its button, and each step after a tap. */
export const BUTTON_TIMEOUT_MS = 10_000;
export const STEP_TIMEOUT_MS = 10_000;
const QUIET_FOR_MS = 500;
const QUIET_TIMEOUT_MS = 15_000;

/**
 * Counts requests in flight so we can wait for the network to settle after showing intent.
 * @param {import('playwright-core').Page} page
 */
export function trackRequests(page) {
  let inFlight = 0;
  let lastChange = Date.now();
  /** @type {string[]} */
  const scripts = [];
  let counting = false;
  page.on('request', (request) => {
    inFlight += 1;
    lastChange = Date.now();
    if (counting && request.resourceType() === 'script')
      scripts.push(new URL(request.url()).pathname);
  });
  const settle = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastChange = Date.now();
  };
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  return {
    /** Scripts requested since `countScripts()` was called. */
    scripts,
    countScripts() {
      counting = true;
    },
    /** Resolves once nothing has been in flight for a while; false if that never happened. */
    async quiet() {
      const deadline = Date.now() + QUIET_TIMEOUT_MS;
      while (Date.now() < deadline) {
        if (inFlight === 0 && Date.now() - lastChange >= QUIET_FOR_MS) return true;
        await page.waitForTimeout(100);
      }
      return false;
    },
  };
}

/** @param {unknown} error */
export const messageOf = (error) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/**
 * Launches the browser the measurements share.
 * @returns {Promise<import('playwright-core').Browser>}
 */
export function launchBenchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...MEDIA_ARGS],
  });
}
