import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { appStarted } from './app-started';
import { cpuSlowdown } from '../../scripts/lib/cpu-slowdown.mjs';

/** Hosts the page may talk to: the site itself and the local mock, never the outside world. */
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

interface PageGuardOptions {
  /**
   * Problems a spec expects (a failure it provokes on purpose): any console error or failed
   * response whose report matches is let through.
   */
  allowedProblems: RegExp | null;
}

interface PageProblems {
  /** Everything that went wrong in the page during the test, for specs that want to look. */
  pageProblems: string[];
}

declare global {
  interface Window {
    __reportCspViolation?: (text: string) => void;
  }
}

/**
 * `test` for every browser spec: it fails the test on any console error, uncaught page error,
 * Content-Security-Policy violation, hydration warning, failed subresource (HTTP 4xx/5xx), or
 * request to a host other than 127.0.0.1/localhost. Let expected ones through with
 * `test.use({ allowedProblems: /pattern/ })`.
 */
/** Within the test's own timeout, so a page whose app never starts says why it did not. */
const HYDRATION_TIMEOUT_MS = 45_000;

/**
 * Resolves once React has hydrated the prerendered page (the root carries React's marker). A page
 * that does not start fails with what it was doing: whether it was shown, whether the app's script
 * was added, and how the request for it went.
 */
export async function waitForHydration(page: Page) {
  try {
    await page.waitForFunction(appStarted, undefined, { timeout: HYDRATION_TIMEOUT_MS });
  } catch (error) {
    const state = await page
      .evaluate(() => ({
        visibilityState: document.visibilityState,
        readyState: document.readyState,
        appScript: document.querySelector('script[type="module"]')?.getAttribute('src') ?? null,
        appRequests: performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('/assets/index-'))
          .map((entry) => {
            const { name, responseStatus, duration } = entry as PerformanceResourceTiming;
            return `${name} (${responseStatus}, ${Math.round(duration)} ms)`;
          }),
      }))
      .catch((reason: unknown) => `not readable: ${String(reason)}`);
    throw new Error(
      `The app did not start within ${HYDRATION_TIMEOUT_MS} ms; the page: ${JSON.stringify(state)}`,
      { cause: error },
    );
  }
}

/**
 * Slows each page's CPU by `rate` in Chromium (the DevTools protocol's CPU throttling), before it
 * loads anything: the page fixture's and every page the test opens itself.
 */
const slowed = new WeakSet<Page>();
async function slowPage(context: BrowserContext, page: Page, rate: number): Promise<void> {
  if (slowed.has(page)) return;
  slowed.add(page);
  const session = await context.newCDPSession(page);
  await session.send('Emulation.setCPUThrottlingRate', { rate });
}

/** `slowPage` for the context's pages, and for each page it opens from now on. */
async function slowEveryPage(context: BrowserContext, rate: number): Promise<void> {
  const slow = (page: Page) => slowPage(context, page, rate);
  await Promise.all(context.pages().map(slow));
  const newPage = context.newPage.bind(context);
  Object.assign(context, {
    newPage: async () => {
      const page = await newPage();
      await slow(page);
      return page;
    },
  });
}

export const test = base.extend<PageGuardOptions & PageProblems>({
  allowedProblems: [null, { option: true }],

  // E2E_CPU_SLOWDOWN=4: every page runs as on a CPU four times slower (a cheap phone, a loaded
  // machine), where frames come late; what a visitor sees must still hold.
  context: async ({ context, browserName }, use) => {
    const rate = cpuSlowdown(process.env.E2E_CPU_SLOWDOWN);
    if (rate > 1 && browserName === 'chromium') await slowEveryPage(context, rate);
    await use(context);
    // Each page is closed as a visitor closes a tab, so it says goodbye (pagehide): a call still
    // under way ends and gives its place back. A context closed with its pages open fires no
    // pagehide in the headless shell, and the demo's court then held each such call to its limit
    // (ten minutes): enough of them filled its places and later tests met the line.
    await Promise.all(context.pages().map((page) => page.close()));
  },

  // The built page starts its app after the first paint, which can come after the load event that
  // `goto` waits for; a test's first press must reach the hydrated page, as a visitor's does a
  // moment later. A `goto` with its own `waitUntil` is left as asked.
  page: async ({ page, context, browserName }, use) => {
    const rate = cpuSlowdown(process.env.E2E_CPU_SLOWDOWN);
    if (rate > 1 && browserName === 'chromium') await slowPage(context, page, rate);
    const goto = page.goto.bind(page);
    const hydratingGoto: typeof page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil === undefined || options.waitUntil === 'load') {
        await waitForHydration(page);
      }
      return response;
    };
    Object.assign(page, { goto: hydratingGoto });
    await use(page);
  },

  pageProblems: [
    async ({ context, allowedProblems }, use) => {
      const problems: string[] = [];

      // A binding survives navigations and is not subject to the page's CSP.
      await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
        problems.push(`CSP violation: ${text}`);
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          window.__reportCspViolation?.(
            `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'}`,
          );
        });
      });

      context.on('request', (request) => {
        const url = new URL(request.url());
        if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return;
        if (!LOCAL_HOSTS.has(url.hostname)) problems.push(`request to another host: ${url.href}`);
      });

      // An error status on a page itself is the test's to assert (the 404 page is one); on
      // anything the page loads (a script, a font, an image) it is a problem.
      const failedDocuments = new Set<string>();
      // A problem+json answer (the gate's) is reported with its code and Retry-After, which tell
      // its causes apart (a 503 is a closed or full court, or a gate that could not check).
      const readings: Promise<void>[] = [];
      context.on('response', (response) => {
        if (response.status() < 400) return;
        if (response.request().resourceType() === 'document') {
          failedDocuments.add(response.url());
          return;
        }
        const index = problems.push(`HTTP ${response.status()} for ${response.url()}`) - 1;
        const headers = response.headers();
        if (!headers['content-type']?.includes('problem+json')) return;
        readings.push(
          response
            .json()
            .then((body: { code?: unknown }) => {
              const retry = headers['retry-after']
                ? `, retry after ${headers['retry-after']} s`
                : '';
              problems[index] =
                `HTTP ${response.status()} for ${response.url()} (${String(body.code)}${retry})`;
            })
            .catch(() => undefined),
        );
      });

      context.on('console', (message) => {
        const text = message.text();
        if (/^Failed to load resource/.test(text) && failedDocuments.has(message.location().url)) {
          return;
        }
        const isHydrationWarning =
          message.type() === 'warning' && /hydrat|did not match/i.test(text);
        if (message.type() !== 'error' && !isHydrationWarning) return;
        problems.push(`console ${message.type()}: ${text}`);
      });

      context.on('weberror', (error) => {
        problems.push(`page error: ${error.error().message}`);
      });

      await use(problems);
      await Promise.all(readings);

      const unexpected = allowedProblems
        ? problems.filter((problem) => !allowedProblems.test(problem))
        : problems;
      expect(unexpected, 'the page reported problems').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
