// The start under the field latency model, measured in the browser: on a phone and a desktop
// profile, a fresh page's tap → 'Listening...' and tap → Pepa's first audio.
// The probe and the page.evaluate callbacks run in the browser, hence these globals:
/* global window, document, Element, MutationObserver */
import {
  BUTTON_TIMEOUT_MS,
  PHONE,
  STEP_TIMEOUT_MS,
  messageOf,
  trackRequests,
} from './bench-page.mjs';

/** A desktop: the other end of the field. */
export const DESKTOP = {
  viewport: { width: 1440, height: 900 },
  deviceScaleFactor: 1,
  isMobile: false,
  hasTouch: false,
};

/**
 * The profiles a start is measured on: a phone (mobile user agent, 4× slower CPU, a mobile
 * network's round trip) and a desktop on a wired network. The round trip is added to every
 * request the page makes; the stand-in provider and the simulated room add the field model's own
 * delays behind it.
 */
export const START_PROFILES = {
  phone: { context: PHONE, cpuSlowdown: 4, rttMs: 150, downloadKbps: 9000, uploadKbps: 1500 },
  desktop: { context: DESKTOP, cpuSlowdown: 1, rttMs: 20, downloadKbps: 50000, uploadKbps: 20000 },
};

/**
 * A new page of `context` on `profile`'s CPU and network, with the errors it throws recorded.
 * @param {import('playwright-core').BrowserContext} context
 * @param {{ cpuSlowdown: number, rttMs: number, downloadKbps: number, uploadKbps: number }} profile
 */
export async function profiledPage(context, profile) {
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (error) => errors.push(messageOf(error)));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.rttMs,
    downloadThroughput: (profile.downloadKbps * 1000) / 8,
    uploadThroughput: (profile.uploadKbps * 1000) / 8,
  });
  return { page, errors };
}

/**
 * The probe as the page holds it (see `installStartProbe`).
 * @typedef {{ tapAt: number | null, listeningAt: number | null, audioAt: number | null }} StartProbe
 * @typedef {{ __pepaStart: StartProbe }} ProbedWindow
 */

/** How long the visitor looks at the section before tapping (reading Pepa's invitation). */
const LOOK_BEFORE_TAP_MS = 2500;

/**
 * Runs in the page: the tap, the first 'Listening...' after it and the first sound of Pepa
 * after it (the simulated room's performance mark as her voice starts), on the page's clock.
 */
function installStartProbe() {
  const probe = {
    tapAt: /** @type {number | null} */ (null),
    listeningAt: /** @type {number | null} */ (null),
    audioAt: /** @type {number | null} */ (null),
  };
  Object.defineProperty(window, '__pepaStart', { value: probe });
  window.addEventListener(
    'pointerdown',
    (event) => {
      if (probe.tapAt !== null) return;
      if (event.target instanceof Element && event.target.closest('#talk button')) {
        probe.tapAt = performance.now();
      }
    },
    { capture: true },
  );
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (probe.tapAt === null || probe.audioAt !== null) continue;
      if (entry.name === 'pepa:assistant-audio' && entry.startTime >= probe.tapAt) {
        probe.audioAt = entry.startTime;
      }
    }
  }).observe({ type: 'mark' });
  new MutationObserver(() => {
    if (probe.tapAt === null || probe.listeningAt !== null) return;
    const status = document.querySelector('#talk [role="status"]');
    if (status && /Listening(\.\.\.|…)/.test(status.textContent ?? '')) {
      probe.listeningAt = performance.now();
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/**
 * @typedef {{ listening: number, audio: number } | { problem: string }} StartSample
 */

/**
 * One fresh page on `profile`: intent, a visitor's look, the tap, and the probe's figures.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {(typeof START_PROFILES)[keyof typeof START_PROFILES]} profile
 * @returns {Promise<StartSample>}
 */
export async function startSample(browser, url, profile) {
  const context = await browser.newContext({ ...profile.context, permissions: ['microphone'] });
  try {
    const { page, errors } = await profiledPage(context, profile);
    await page.addInitScript(installStartProbe);
    const requests = trackRequests(page);
    await page.goto(url, { waitUntil: 'load' });
    const start = page.locator('#talk').getByRole('button', { name: 'Start Talking' });
    await start.waitFor({ timeout: BUTTON_TIMEOUT_MS });
    await start.scrollIntoViewIfNeeded();
    await start.focus();
    await requests.quiet();
    await page.waitForTimeout(LOOK_BEFORE_TAP_MS);
    if (profile.context.hasTouch) await start.tap({ timeout: STEP_TIMEOUT_MS });
    else await start.click({ timeout: STEP_TIMEOUT_MS });
    try {
      await page.waitForFunction(
        () =>
          /** @type {ProbedWindow} */ (/** @type {unknown} */ (window)).__pepaStart.audioAt !==
            null &&
          /** @type {ProbedWindow} */ (/** @type {unknown} */ (window)).__pepaStart.listeningAt !==
            null,
        null,
        { timeout: 20_000, polling: 50 },
      );
    } catch {
      return {
        problem: `no first audio within 20 s of the tap${errors.length ? `; ${errors[0]}` : ''}`,
      };
    }
    const { tapAt, listeningAt, audioAt } = await page.evaluate(() => ({
      .../** @type {ProbedWindow} */ (/** @type {unknown} */ (window)).__pepaStart,
    }));
    if (tapAt === null || listeningAt === null || audioAt === null) {
      return { problem: 'the tap never reached the page' };
    }
    return { listening: listeningAt - tapAt, audio: audioAt - tapAt };
  } finally {
    await context.close();
  }
}
