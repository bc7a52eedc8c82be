// WebKit: WebKitGTK's MiniBrowser through WebKitWebDriver (./webkit-driver.ts), driven with
// WebdriverIO's client over classic WebDriver. The client is only connected to the driver started
// here: it starts no driver and downloads nothing.
import { remote } from 'webdriverio';
import { appStarted } from '../support/app-started';
import { findControl, type ControlQuery } from './controls';
import {
  COMMAND_TIMEOUT_MS,
  CONTROL_TIMEOUT_MS,
  HYDRATION_TIMEOUT_MS,
  pollUntil,
  savePng,
  WAIT_TIMEOUT_MS,
  type EngineOptions,
  type EnginePage,
  type EngineSession,
} from './engine';
import { miniBrowserPath, startWebKitDriver, type WebKitDriver } from './webkit-driver';

type Browser = Awaited<ReturnType<typeof remote>>;

/** The WebDriver reference of an element, as a script in the page returns it. */
type ElementReference = Record<'element-6066-11e4-a52e-4f735466cecf', string>;

/**
 * How long a page opened, reloaded or shown may take to load. The session's page-load strategy is
 * "none": WebKitWebDriver holds no command for a navigation (with "normal" it holds each until the
 * page's load, which a page restored from the back/forward cache may never report, and which a
 * late script delays past a test's early taps), so the page's own methods wait for the new
 * document where they promise a load.
 */
const LOAD_TIMEOUT_MS = 45_000;
/** How long a probe of the page is waited for before it is asked again. */
const PROBE_TIMEOUT_MS = 5_000;

/** Marks the document in front, so that the one a navigation brings can be told from it. */
function markLeaving(): string {
  (window as unknown as { __pepaLeaving?: boolean }).__pepaLeaving = true;
  return window.location.href;
}

/**
 * A document other than the marked one (a new window, or the same initial window at a new
 * address) has loaded, at `href` when one is named.
 */
function newDocumentLoaded(left: string, href: string | null): boolean {
  const marked = (window as unknown as { __pepaLeaving?: boolean }).__pepaLeaving === true;
  const fresh = !marked || window.location.href !== left;
  const there = href === null || window.location.href.split('#')[0] === href.split('#')[0];
  return fresh && there && document.readyState === 'complete';
}

/** The WebDriver key code of Enter. */
const ENTER = '\uE007';

class WebKitPage implements EnginePage {
  readonly engine = 'webkit' as const;
  /** The tab in front of a page opened hidden, until it is shown. */
  private front: string | undefined;

  constructor(
    private readonly browser: Browser,
    private readonly driverUrl: string,
    private readonly baseUrl: string,
    private readonly onClose: () => Promise<void>,
  ) {}

  async goto(path: string, { hydrated = true } = {}) {
    const href = new URL(path, this.baseUrl).href;
    await this.load(() => this.browser.navigateTo(href), href);
    await this.watch();
    if (hydrated) await this.waitFor('hydration', appStarted, [], HYDRATION_TIMEOUT_MS);
  }

  /** Starts a navigation with `start`, and waits until the document it brings has loaded. */
  private async load(start: () => Promise<unknown>, href: string | null) {
    const left = await this.evaluate(markLeaving);
    await start();
    await this.waitFor(
      'the new document to load',
      newDocumentLoaded,
      [left, href],
      LOAD_TIMEOUT_MS,
    );
  }

  /**
   * Runs `fn` in the page as `evaluate` does, and gives up on it after PROBE_TIMEOUT_MS: a script
   * sent while a navigation moves the page to another web process (a new site, a return from the
   * back/forward cache) is sometimes never answered, and the client would wait out its whole
   * command timeout. For reads only, which may be asked again: every poll here asks through it.
   */
  private async probe<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, args: A) {
    const response = await fetch(
      `${this.driverUrl}/session/${this.browser.sessionId}/execute/sync`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ script: `return (${fn.toString()})(...arguments);`, args }),
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      },
    );
    const { value } = (await response.json()) as { value: R | { message?: string } };
    if (!response.ok) {
      throw new Error(`the driver answered ${response.status}: ${JSON.stringify(value)}`);
    }
    return value as R;
  }

  async watch() {
    await this.evaluate(() => {
      // Classic WebDriver cannot listen to the console: the page records its own errors from here.
      const page = window as unknown as { __problems?: string[] };
      if (page.__problems) return;
      const record: string[] = (page.__problems = []);
      addEventListener('error', (event) => record.push(`page error: ${event.message}`));
      addEventListener('unhandledrejection', (event) =>
        record.push(`page error: ${String(event.reason)}`),
      );
    });
  }

  async navigate(path: string) {
    const url = new URL(path, this.baseUrl).href;
    // The script returns before the navigation it starts, and the session waits for no load.
    await this.evaluate((href: string) => void setTimeout(() => window.location.assign(href)), url);
  }

  async reload() {
    await this.load(() => this.browser.refresh(), null);
  }

  async back() {
    await this.evaluate(() => void setTimeout(() => window.history.back()));
  }

  /**
   * A tab WebDriver opens in MiniBrowser stays behind the one in front, even once WebDriver has
   * switched to it: the page loads hidden there. It is shown when the tab in front is closed.
   */
  async openHidden(path: string) {
    const front = await this.browser.getWindowHandle();
    const tab = await this.browser.createWindow('tab');
    await this.browser.switchToWindow(tab.handle);
    this.front = front;
    const href = new URL(path, this.baseUrl).href;
    await this.load(() => this.browser.navigateTo(href), href);
    await this.watch();
  }

  async show() {
    if (this.front === undefined) return;
    const tab = await this.browser.getWindowHandle();
    await this.browser.switchToWindow(this.front);
    await this.browser.closeWindow();
    await this.browser.switchToWindow(tab);
    this.front = undefined;
  }

  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R> {
    return this.browser.execute(fn as (...args: unknown[]) => R, ...args) as Promise<R>;
  }

  waitFor<A extends unknown[], R>(
    what: string,
    fn: (...args: A) => R | Promise<R>,
    args: A,
    timeoutMs = WAIT_TIMEOUT_MS,
  ) {
    return pollUntil(what, () => this.probe(fn, args), timeoutMs);
  }

  async inject(source: string) {
    await this.browser.executeScript(`${source};\nreturn null;`, []);
  }

  /**
   * The control, brought to the middle of the viewport at once: the page scrolls smoothly, and
   * WebKitWebDriver checks that an element is in view before its smooth scroll has moved it.
   */
  private async control(query: ControlQuery) {
    const reference = await pollUntil(
      `the control ${JSON.stringify(query)}`,
      () => this.probe(findControl, [query]) as Promise<ElementReference | null>,
      CONTROL_TIMEOUT_MS,
    );
    const element = await this.browser.$(reference);
    await this.browser.execute(
      (node: HTMLElement) => node.scrollIntoView({ block: 'center', behavior: 'instant' }),
      element as unknown as HTMLElement,
    );
    return element;
  }

  async click(query: ControlQuery) {
    await (await this.control(query)).click();
  }

  async type(query: ControlQuery, text: string, { enter = false } = {}) {
    await (await this.control(query)).addValue(enter ? `${text}${ENTER}` : text);
  }

  async resize(width: number, height: number) {
    // The window's outer size: the toolbar takes the top, and the window is at least as wide as
    // its toolbar (447 px), so a phone width is approached, not reached; tests read the result.
    const outer = await this.evaluate(() => [
      window.outerWidth - window.innerWidth,
      window.outerHeight - window.innerHeight,
    ]);
    await this.browser.setWindowSize(width + (outer[0] ?? 0), height + (outer[1] ?? 0));
  }

  viewportWidth() {
    return this.evaluate(() => window.innerWidth);
  }

  async screenshot(path: string) {
    await savePng(path, await this.browser.takeScreenshot());
  }

  problems() {
    return this.evaluate(() => (window as unknown as { __problems?: string[] }).__problems ?? []);
  }

  close() {
    return this.onClose();
  }
}

/**
 * One MiniBrowser session. Each page is a window of its own: a page closed leaves a new, blank
 * window behind it as the session's current one, so a session never runs out of windows, and the
 * next page starts with no history.
 */
class WebKitSession implements EngineSession {
  readonly engine = 'webkit' as const;

  constructor(
    private readonly browser: Browser,
    private readonly driver: WebKitDriver,
  ) {}

  newPage(baseUrl: string): Promise<EnginePage> {
    return Promise.resolve(
      new WebKitPage(
        this.browser,
        `http://${this.driver.hostname}:${this.driver.port}`,
        baseUrl,
        () => this.replaceWindow(),
      ),
    );
  }

  private async replaceWindow() {
    const fresh = await this.browser.createWindow('window');
    await this.browser.closeWindow();
    await this.browser.switchToWindow(fresh.handle);
    // The next page arrives in a window in front, as a visitor's does: one not yet shown would
    // load its page hidden.
    await pollUntil(
      'the new window to be shown',
      () => this.browser.execute(() => document.visibilityState === 'visible'),
      CONTROL_TIMEOUT_MS,
    );
  }

  async close() {
    await this.browser.deleteSession().catch(() => undefined);
    await this.driver.stop();
  }
}

export async function openWebKitSession(options: EngineOptions): Promise<EngineSession> {
  const driver = await startWebKitDriver();
  try {
    const args = ['--automation', '--autoplay-policy=allow'];
    if (options.microphone) args.push('--enable-mock-capture-devices=true');
    // MiniBrowser takes WebKitSettings as options: the page cache is WebKit's back/forward cache.
    if (options.backForwardCache === false) args.push('--enable-page-cache=false');
    const browser = await remote({
      hostname: driver.hostname,
      port: driver.port,
      logLevel: 'error',
      // A command lost is given up once, never sent again: a click sent twice would press twice.
      connectionRetryTimeout: COMMAND_TIMEOUT_MS + 10_000,
      connectionRetryCount: 0,
      capabilities: {
        'wdio:enforceWebDriverClassic': true,
        pageLoadStrategy: 'none',
        'webkitgtk:browserOptions': { binary: miniBrowserPath(), args },
      },
    });
    await browser.setTimeout({ script: COMMAND_TIMEOUT_MS });
    return new WebKitSession(browser, driver);
  } catch (error) {
    await driver.stop();
    throw error;
  }
}
