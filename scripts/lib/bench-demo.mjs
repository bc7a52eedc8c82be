// Browser measurements on the demo build: how fast a tap turns into the POST /api/calls and into
// 'Listening...', and whether the JS heap grows over many start/end cycles in one page.
//
// The UI contract: in `#talk`, a button named 'Start Talking' that reads 'End Call' once
// connected, and a role=status element showing 'Ready to chat' / 'Listening...' /
// 'Pepa is speaking...'. Every wait is bounded; when the contract is not met the result carries a
// reason instead of a figure.
// The probe and the page.evaluate callbacks run in the browser, hence these globals:
/* global window, document, Element, MutationObserver */
import {
  BUTTON_TIMEOUT_MS,
  PHONE,
  STEP_TIMEOUT_MS,
  messageOf,
  trackRequests,
} from './bench-page.mjs';

/**
 * The probe as the page holds it (see `installProbe`).
 * @typedef {{ armed: boolean, tapAt: number | null, postAt: number | null,
 *   gateMs: number | null, listeningAt: number | null, arm(): void }} BenchProbe
 * @typedef {{ __pepaBench: BenchProbe }} ProbedWindow
 */

/** The button ignores a second press within 400 ms (a double tap); stay clear of that. */
const PRESS_GAP_MS = 450;

/**
 * Runs in the page before its own scripts. Once armed it records, on the page's clock: the first
 * pointerdown/click on a button in #talk, the start of the first POST /api/calls after it (the
 * court gate) and how long the gate took to answer it, and the moment the status first reads
 * 'Listening...'.
 */
function installProbe() {
  const probe = {
    armed: false,
    /** @type {number | null} */ tapAt: null,
    /** @type {number | null} */ postAt: null,
    /** @type {number | null} */ gateMs: null,
    /** @type {number | null} */ listeningAt: null,
    arm() {
      Object.assign(probe, {
        armed: true,
        tapAt: null,
        postAt: null,
        gateMs: null,
        listeningAt: null,
      });
    },
  };
  Object.defineProperty(window, '__pepaBench', { value: probe });

  const onTap = (/** @type {Event} */ event) => {
    if (!probe.armed || probe.tapAt !== null) return;
    if (event.target instanceof Element && event.target.closest('#talk button')) {
      probe.tapAt = performance.now();
    }
  };
  // Capture on window: the earliest point the page can see the tap.
  window.addEventListener('pointerdown', onTap, { capture: true });
  window.addEventListener('click', onTap, { capture: true });

  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!probe.armed || probe.tapAt === null || probe.postAt !== null) continue;
      if (entry.startTime < probe.tapAt) continue;
      if (new URL(entry.name).pathname.endsWith('/api/calls')) {
        probe.postAt = entry.startTime;
        probe.gateMs = entry.duration;
      }
    }
  }).observe({ type: 'resource' });

  new MutationObserver(() => {
    if (!probe.armed || probe.tapAt === null || probe.listeningAt !== null) return;
    const status = document.querySelector('#talk [role="status"]');
    if (status && /Listening(\.\.\.|…)/.test(status.textContent ?? '')) {
      probe.listeningAt = performance.now();
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 */
async function openPage(browser, url) {
  const context = await browser.newContext({ ...PHONE, permissions: ['microphone'] });
  const page = await context.newPage();
  /** @type {string[]} */
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(messageOf(error)));
  // An error the page logs counts too (React reports recoverable errors such as a hydration
  // mismatch this way in some builds).
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(`console: ${message.text()}`);
  });
  await page.addInitScript(installProbe);
  const requests = trackRequests(page);
  await page.goto(url, { waitUntil: 'load' });
  const talk = page.locator('#talk');
  return { context, page, talk, requests, pageErrors };
}

/**
 * Shows intent the way a visitor does on a phone (the Talk section scrolls into view, the button
 * gets focus), then waits for the network to settle so the on-demand chunks are warm.
 * @param {Awaited<ReturnType<typeof openPage>>} opened
 */
async function showIntent({ talk, requests }) {
  const start = talk.getByRole('button', { name: 'Start Talking' });
  await start.waitFor({ timeout: BUTTON_TIMEOUT_MS });
  requests.countScripts();
  await start.scrollIntoViewIfNeeded();
  await start.focus();
  await requests.quiet();
  return start;
}

/**
 * A figure, or the reason there is none.
 * @typedef {{ ms: number, problem: null } | { ms: null, problem: string }} Timing
 * @typedef {{ post: Timing, gate: Timing, listening: Timing, prefetched: string[], pageErrors: string[] }} TapSample
 */

/**
 * One fresh page load: warm the voice chunk by intent, tap, and read the probe.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @returns {Promise<TapSample>}
 */
async function tapSample(browser, url) {
  const opened = await openPage(browser, url);
  const { context, page, requests, pageErrors } = opened;
  /**
   * @param {string} text
   * @returns {Timing}
   */
  const missing = (text) => ({
    ms: null,
    problem: pageErrors.length ? `${text}; page error: ${pageErrors[0]}` : text,
  });
  try {
    let start;
    try {
      start = await showIntent(opened);
    } catch {
      const none = missing("no 'Start Talking' button in #talk");
      return { post: none, gate: none, listening: none, prefetched: [], pageErrors };
    }
    const prefetched = [...requests.scripts];
    await page.evaluate(() =>
      /** @type {ProbedWindow} */ (/** @type {unknown} */ (window)).__pepaBench.arm(),
    );
    await start.tap({ timeout: STEP_TIMEOUT_MS });

    /** @param {'postAt' | 'listeningAt'} field */
    const reached = async (field) => {
      try {
        await page.waitForFunction(
          (name) =>
            /** @type {ProbedWindow} */ (/** @type {unknown} */ (window)).__pepaBench[name] !==
            null,
          field,
          {
            timeout: STEP_TIMEOUT_MS,
            polling: 50,
          },
        );
        return true;
      } catch {
        return false;
      }
    };
    const [postSeen, listeningSeen] = await Promise.all([
      reached('postAt'),
      reached('listeningAt'),
    ]);
    const probe = await page.evaluate(() => ({
      .../** @type {ProbedWindow} */ (/** @type {unknown} */ (window)).__pepaBench,
    }));
    const within = `within ${STEP_TIMEOUT_MS / 1000} s of the tap`;
    /**
     * @param {boolean} seen
     * @param {number | null} at
     * @param {string} what
     * @returns {Timing}
     */
    const timing = (seen, at, what) => {
      if (probe.tapAt === null) return missing('the tap never reached the page');
      if (!seen || at === null) return missing(`no ${what} ${within}`);
      return { ms: at - probe.tapAt, problem: null };
    };
    return {
      post: timing(postSeen, probe.postAt, 'POST /api/calls'),
      gate:
        postSeen && probe.gateMs !== null
          ? { ms: probe.gateMs, problem: null }
          : missing(`no answer to POST /api/calls ${within}`),
      listening: timing(listeningSeen, probe.listeningAt, "'Listening...' status"),
      prefetched,
      pageErrors,
    };
  } finally {
    await context.close();
  }
}

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {{ samples: number, onSample?: (index: number, sample: TapSample) => void }} options
 * @returns {Promise<TapSample[]>}
 */
export async function measureTaps(browser, url, { samples, onSample }) {
  /** @type {TapSample[]} */
  const results = [];
  for (let index = 0; index < samples; index += 1) {
    const sample = await tapSample(browser, url);
    results.push(sample);
    onSample?.(index, sample);
    // A page that never answers the tap will not start answering on the next load.
    if (sample.post.ms === null && sample.listening.ms === null) break;
  }
  return results;
}

/**
 * @typedef {{ beforeBytes: number | null, afterBytes: number | null, cycles: number,
 *   elapsedMs: number, problem: string | null, pageErrors: string[] }} SoakResult
 */

/**
 * Start/end cycles in one page, with the JS heap measured after a forced garbage collection
 * before and after. One warm-up cycle runs first, so the voice code loading and compiling on the
 * first call does not count as growth.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {{ cycles: number, timeLimitMs: number, onProgress?: (done: number) => void }} options
 * @returns {Promise<SoakResult>}
 */
export async function measureHeapSoak(browser, url, { cycles, timeLimitMs, onProgress }) {
  const startedAt = Date.now();
  const opened = await openPage(browser, url);
  const { context, page, talk, pageErrors } = opened;
  /** @type {SoakResult} */
  const result = {
    beforeBytes: null,
    afterBytes: null,
    cycles: 0,
    elapsedMs: 0,
    problem: null,
    pageErrors,
  };
  const cdp = await context.newCDPSession(page);
  const heapUsed = async () => {
    // Twice: the first pass can leave objects that only the second finds unreachable.
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize;
  };
  const startButton = talk.getByRole('button', { name: 'Start Talking' });
  const endButton = talk.getByRole('button', { name: 'End Call' });
  // The probe, not a polled locator: with a fast simulator 'Listening...' can last under 100 ms.
  /** @param {number} timeout */
  const listening = (timeout) =>
    page.waitForFunction(
      () =>
        /** @type {ProbedWindow} */ (/** @type {unknown} */ (window)).__pepaBench.listeningAt !==
        null,
      null,
      {
        timeout,
        polling: 50,
      },
    );
  const within = `within ${STEP_TIMEOUT_MS / 1000} s`;
  /**
   * @param {() => Promise<unknown>} action
   * @param {string} failure
   */
  const step = async (action, failure) => {
    try {
      await action();
    } catch {
      throw new Error(failure);
    }
  };
  let lastPressAt = 0;
  /** @param {import('playwright-core').Locator} button */
  const press = async (button) => {
    const wait = lastPressAt + PRESS_GAP_MS - Date.now();
    if (wait > 0) await page.waitForTimeout(wait);
    await button.click({ timeout: STEP_TIMEOUT_MS });
    lastPressAt = Date.now();
  };
  const cycle = async () => {
    const timeout = STEP_TIMEOUT_MS;
    await page.evaluate(() =>
      /** @type {ProbedWindow} */ (/** @type {unknown} */ (window)).__pepaBench.arm(),
    );
    await step(() => press(startButton), `no 'Start Talking' button ${within}`);
    await step(() => listening(timeout), `no 'Listening...' status ${within} of Start Talking`);
    await step(() => press(endButton), `no 'End Call' button ${within}`);
    await step(
      () => startButton.waitFor({ timeout }),
      `no 'Start Talking' button ${within} of End Call`,
    );
  };

  try {
    try {
      await showIntent(opened);
      await cycle();
    } catch (error) {
      const errors = pageErrors.length ? `; page error: ${pageErrors[0]}` : '';
      result.problem = `first start/end cycle: ${messageOf(error)}${errors}`;
      return result;
    }
    result.beforeBytes = await heapUsed();
    const deadline = startedAt + timeLimitMs;
    while (result.cycles < cycles) {
      if (Date.now() > deadline) {
        result.problem = `stopped at the ${timeLimitMs / 1000} s limit`;
        break;
      }
      try {
        await cycle();
      } catch (error) {
        result.problem = `cycle ${result.cycles + 1} failed: ${messageOf(error)}`;
        break;
      }
      result.cycles += 1;
      onProgress?.(result.cycles);
    }
    result.afterBytes = await heapUsed();
    return result;
  } finally {
    result.elapsedMs = Date.now() - startedAt;
    await context.close();
  }
}
