// Drives Debian's engines, all offline: Gecko (firefox-esr, over WebDriver BiDi through
// puppeteer-core, which downloads nothing), WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver,
// classic WebDriver over HTTP, under Xvfb since MiniBrowser has no headless mode) and, for the
// arrival matrix, Chromium (over the DevTools protocol through puppeteer-core). All get the same
// small interface, so a test is written once.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import puppeteer, {
  type Browser,
  type BrowserContext,
  type ElementHandle,
  type Page,
} from 'puppeteer-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, MEDIA_ARGS } from '../../scripts/lib/chromium.mjs';
import { findControl, type ControlQuery } from './controls';

export type EngineName = 'chromium' | 'firefox' | 'webkit';

export interface EngineOptions {
  /** Feed a synthetic microphone (true) or leave the engine with no microphone at all (false). */
  microphone: boolean;
  /**
   * Whether a page left may be kept in the back/forward cache (each engine's default: kept). False
   * makes every return to a page load it again.
   */
  backForwardCache?: boolean;
}

export interface EnginePage {
  readonly engine: EngineName;
  /** Opens `path` on the site and waits until the app has hydrated the prerendered page. */
  goto(path: string, options?: { hydrated?: boolean }): Promise<void>;
  /** Runs `fn` in the page with JSON arguments and returns its (awaited, JSON) result. */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R>;
  /** Polls `fn` in the page until it returns something truthy; fails after `timeoutMs`. */
  waitFor<A extends unknown[], R>(
    what: string,
    fn: (...args: A) => R | Promise<R>,
    args: A,
    timeoutMs?: number,
  ): Promise<R>;
  /** Runs a whole script (a library's source) in the page, outside the page's CSP. */
  inject(source: string): Promise<void>;
  /** A real pointer click on the control found by role and accessible name. */
  click(query: ControlQuery): Promise<void>;
  /** Types `text` into the field found by role and name, then presses Enter when asked. */
  type(query: ControlQuery, text: string, options?: { enter?: boolean }): Promise<void>;
  /** Sets the width and height of the page's viewport (WebKit: see `viewportWidth`). */
  resize(width: number, height: number): Promise<void>;
  /** The page's viewport width, which a MiniBrowser window cannot make narrower than its toolbar. */
  viewportWidth(): Promise<number>;
  screenshot(path: string): Promise<void>;
  /** What went wrong in the page (console errors, uncaught errors) since it was opened. */
  problems(): Promise<string[]>;
  /**
   * Starts loading `path` and returns at once, before the page has loaded: for arrivals whose
   * first moments the test acts in. The caller waits for what it needs.
   */
  navigate(path: string): Promise<void>;
  /** Reloads the page, and waits for its load event. */
  reload(): Promise<void>;
  /** Goes back in the session history, and returns at once. */
  back(): Promise<void>;
  /**
   * Opens `path` in a tab behind the current one (the page is hidden), and waits for its load
   * event there; `show` brings it to the front.
   */
  openHidden(path: string): Promise<void>;
  show(): Promise<void>;
  /**
   * Starts recording the page's uncaught errors in a document the driver did not open with `goto`
   * (a reload, a return, a page's own navigation); a no-op where the console is listened to.
   */
  watch(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One running browser, configured by `EngineOptions`, in which pages are opened one after another:
 * each in a browsing context of its own (Chromium and Gecko: a new browser context, with its own
 * storage and cache; WebKit: a new window), so it starts with no history. What a case shares with
 * the one before it is the browser's process and its configuration.
 */
export interface EngineSession {
  readonly engine: EngineName;
  /** A new page on the site at `baseUrl`, not yet navigated. */
  newPage(baseUrl: string): Promise<EnginePage>;
  close(): Promise<void>;
}

/** Resolves true once the prerendered root carries React's marker (the app has hydrated it). */
function isHydrated(): boolean {
  const root = document.getElementById('root');
  return root !== null && Object.keys(root).some((key) => key.startsWith('__reactContainer'));
}

/**
 * How long a control or a state is waited for: generous, since the machine running the suite may
 * be busy with other jobs; a test asserts on what appeared, never on how fast.
 */
const CONTROL_TIMEOUT_MS = 30_000;

/**
 * How long one command to a driver may take before it is given up as lost (a script in the page
 * may run this long). WebKitWebDriver holds a command until the page's navigation completes, and
 * a page restored from the back/forward cache may never tell it so: it would hold the command for
 * the whole page-load timeout, five minutes by default, so that is shortened to
 * `NAVIGATION_TIMEOUT_MS`. A lost command is an error, which a poll asks again.
 */
const COMMAND_TIMEOUT_MS = 30_000;
const NAVIGATION_TIMEOUT_MS = 20_000;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function pollUntil<R>(
  what: string,
  probe: () => Promise<R>,
  timeoutMs: number,
): Promise<NonNullable<R>> {
  const deadline = Date.now() + timeoutMs;
  let last: R | string | undefined;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<R>;
      last = value;
    } catch (error) {
      // A page between two documents (a reload, a return) cannot be asked: ask again.
      last = `error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`,
      );
    }
    await sleep(100);
  }
}

async function savePng(path: string, base64: string) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, Buffer.from(base64, 'base64'));
}

// --- Gecko ----------------------------------------------------------------------------------

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Firefox's preferences for a call without a person: a synthetic microphone and speaker, no
 * permission prompt, and audio that may play without a gesture it cannot see.
 */
export function firefoxPrefs({ microphone }: EngineOptions): Record<string, unknown> {
  return {
    'media.navigator.streams.fake': microphone,
    'media.navigator.permission.disabled': true,
    // The mock audio backend plays the call's sound, and offers capture devices of its own: a
    // machine with no microphone gets no audio backend at all (nothing here has a sound card).
    'media.cubeb.force_mock_context': microphone,
    'media.autoplay.default': 0,
    'media.autoplay.blocking_policy': 0,
    // No update checks, telemetry or remote settings: the page's own hosts only.
    'app.update.enabled': false,
    'browser.shell.checkDefaultBrowser': false,
    'datareporting.policy.dataSubmissionEnabled': false,
    'toolkit.telemetry.enabled': false,
    'network.captive-portal-service.enabled': false,
    'network.connectivity-service.enabled': false,
    'browser.safebrowsing.update.enabled': false,
  };
}

class PuppeteerPage implements EnginePage {
  private readonly seen: string[] = [];

  constructor(
    readonly engine: 'chromium' | 'firefox',
    private readonly context: BrowserContext,
    private page: Page,
    private readonly baseUrl: string,
    private readonly onClose: () => Promise<void>,
  ) {
    this.listen(page);
  }

  private listen(page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.seen.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => {
      this.seen.push(`page error: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async navigate(path: string) {
    const url = new URL(path, this.baseUrl).href;
    await this.page.evaluate((href: string) => window.location.assign(href), url);
  }

  async reload() {
    await this.page.reload({ waitUntil: 'load' });
  }

  async back() {
    await this.page.evaluate(() => window.history.back());
  }

  async openHidden(path: string) {
    const front = this.page;
    const hidden = await this.context.newPage({ background: true });
    const viewport = front.viewport();
    if (viewport) await hidden.setViewport(viewport);
    this.listen(hidden);
    this.page = hidden;
    await front.bringToFront();
    await hidden.goto(new URL(path, this.baseUrl).href, { waitUntil: 'load' });
  }

  async show() {
    await this.page.bringToFront();
  }

  watch() {
    return Promise.resolve();
  }

  async goto(path: string, { hydrated = true } = {}) {
    await this.page.goto(new URL(path, this.baseUrl).href, { waitUntil: 'load' });
    if (hydrated) await this.waitFor('hydration', isHydrated, [], 30_000);
  }

  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A) {
    return this.page.evaluate(fn as (...args: unknown[]) => R, ...args) as Promise<R>;
  }

  waitFor<A extends unknown[], R>(
    what: string,
    fn: (...args: A) => R | Promise<R>,
    args: A,
    timeoutMs = 45_000,
  ) {
    return pollUntil(what, () => this.evaluate(fn, ...args), timeoutMs);
  }

  async inject(source: string) {
    await this.page.evaluate(`${source};undefined`);
  }

  private async control(query: ControlQuery): Promise<ElementHandle<Element>> {
    return pollUntil(
      `the control ${JSON.stringify(query)}`,
      async () => {
        const handle = await this.page.evaluateHandle(findControl, query);
        const element = handle.asElement() as ElementHandle<Element> | null;
        if (!element) await handle.dispose();
        return element;
      },
      CONTROL_TIMEOUT_MS,
    );
  }

  /**
   * Found and clicked as one step, asked again while it fails: the page may draw the control anew
   * between the two (a status change, a reload), and Puppeteer refuses a node no longer drawn
   * before it sends any input, so a retry never presses twice.
   */
  async click(query: ControlQuery) {
    await pollUntil(
      `a click on ${JSON.stringify(query)}`,
      async () => {
        const element = await this.control(query);
        try {
          await element.evaluate((node) =>
            node.scrollIntoView({ block: 'center', behavior: 'instant' }),
          );
          await element.click();
        } finally {
          await element.dispose().catch(() => undefined);
        }
        return true;
      },
      CONTROL_TIMEOUT_MS,
    );
  }

  async type(query: ControlQuery, text: string, { enter = false } = {}) {
    const element = await this.control(query);
    await element.type(text);
    if (enter) await element.press('Enter');
    await element.dispose();
  }

  async resize(width: number, height: number) {
    await this.page.setViewport({ width, height });
  }

  viewportWidth() {
    return this.evaluate(() => window.innerWidth);
  }

  async screenshot(path: string) {
    await savePng(path, await this.page.screenshot({ encoding: 'base64' }));
  }

  problems() {
    return Promise.resolve([...this.seen]);
  }

  close() {
    return this.onClose();
  }
}

/** A Puppeteer browser whose pages each open in a browser context of their own. */
class PuppeteerSession implements EngineSession {
  constructor(
    readonly engine: 'chromium' | 'firefox',
    private readonly browser: Browser,
  ) {}

  async newPage(baseUrl: string): Promise<EnginePage> {
    const context = await this.browser.createBrowserContext();
    try {
      if (this.engine === 'chromium') {
        // The clipboard as a visitor's browser offers it to a page they tap in.
        await context.overridePermissions(new URL(baseUrl).origin, [
          'clipboard-read',
          'clipboard-sanitized-write',
        ]);
      }
      const page = await context.newPage();
      // The page in front and focused, as the one a visitor is looking at: the browser's other
      // pages (its first blank one, pages of cases before) are not.
      await page.bringToFront();
      return new PuppeteerPage(this.engine, context, page, baseUrl, () =>
        context.close().catch(() => undefined),
      );
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  async close() {
    await this.browser.close();
  }
}

export async function openFirefoxSession(options: EngineOptions): Promise<EngineSession> {
  const prefs = firefoxPrefs(options);
  // No page is kept for a return: every back or forward loads the page again.
  if (options.backForwardCache === false) prefs['browser.sessionhistory.max_total_viewers'] = 0;
  const browser = await puppeteer.launch({
    browser: 'firefox',
    protocolTimeout: COMMAND_TIMEOUT_MS,
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: prefs,
  });
  return new PuppeteerSession('firefox', browser);
}

// --- Chromium -------------------------------------------------------------------------------

export async function openChromiumSession(options: EngineOptions): Promise<EngineSession> {
  const args = CHROMIUM_ARGS.filter((flag) => flag !== '--headless');
  if (options.microphone) args.push(...MEDIA_ARGS);
  if (options.backForwardCache === false) args.push('--disable-features=BackForwardCache');
  const browser = await puppeteer.launch({
    browser: 'chrome',
    protocolTimeout: COMMAND_TIMEOUT_MS,
    executablePath: CHROMIUM_PATH,
    headless: true,
    args,
  });
  return new PuppeteerSession('chromium', browser);
}

// --- WebKit ---------------------------------------------------------------------------------

export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';

/** Debian installs MiniBrowser beside WebKitGTK, under the machine's multiarch folder. */
export function miniBrowserPath(): string {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  for (const arch of readdirSync('/usr/lib').filter((name) => name.includes('-linux-'))) {
    for (const api of ['webkit2gtk-4.1', 'webkit2gtk-4.0', 'webkitgtk-6.0']) {
      const candidate = `/usr/lib/${arch}/${api}/MiniBrowser`;
      if (existsSync(candidate)) return candidate;
    }
  }
  throw new Error('MiniBrowser is missing: install webkit2gtk-driver (scripts/ensure-engines.sh)');
}

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** Starts a process and resolves the first line it writes on file descriptor 3. */
function spawnWithReadyFd(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, {
    env,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${command} did not start`)), 20_000);
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) {
        clearTimeout(timer);
        resolve(output.trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}) before it was ready`));
    });
  });
  child.stderr?.resume();
  return { child, ready };
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((done) => child.once('exit', done));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Sends one WebDriver command of a session and returns its value. */
async function webDriverCommand<T>(
  driverUrl: string,
  session: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${driverUrl}/session/${session}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS + 10_000),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).catch((error: unknown) => {
    throw new Error(`WebDriver ${method} ${path} got no answer: ${String(error)}`);
  });
  const json = (await response.json()) as { value: T & { error?: string; message?: string } };
  if (!response.ok) {
    throw new Error(`WebDriver ${method} ${path}: ${json.value.error} ${json.value.message}`);
  }
  return json.value;
}

class WebKitPage implements EnginePage {
  readonly engine = 'webkit' as const;
  /** The tab in front of a page opened hidden, until it is shown. */
  private front: string | undefined;

  constructor(
    private readonly driverUrl: string,
    private readonly session: string,
    private readonly baseUrl: string,
    private readonly onClose: () => Promise<void>,
  ) {}

  private command<T>(method: string, path: string, body?: unknown): Promise<T> {
    return webDriverCommand<T>(this.driverUrl, this.session, method, path, body);
  }

  async goto(path: string, { hydrated = true } = {}) {
    await this.command('POST', '/url', { url: new URL(path, this.baseUrl).href });
    await this.watch();
    if (hydrated) await this.waitFor('hydration', isHydrated, [], 30_000);
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
    // The script returns before the navigation it starts; WebDriver's own waits for its load.
    await this.evaluate((href: string) => void setTimeout(() => window.location.assign(href)), url);
  }

  async reload() {
    await this.command('POST', '/refresh', {});
  }

  async back() {
    await this.evaluate(() => void setTimeout(() => window.history.back()));
  }

  /**
   * A tab WebDriver opens in MiniBrowser stays behind the one in front, even once WebDriver has
   * switched to it: the page loads hidden there. It is shown when the tab in front is closed.
   */
  async openHidden(path: string) {
    const front = await this.command<string>('GET', '/window');
    const tab = await this.command<{ handle: string }>('POST', '/window/new', { type: 'tab' });
    await this.command('POST', '/window', { handle: tab.handle });
    this.front = front;
    await this.command('POST', '/url', { url: new URL(path, this.baseUrl).href });
    await this.watch();
  }

  async show() {
    if (this.front === undefined) return;
    const tab = await this.command<string>('GET', '/window');
    await this.command('POST', '/window', { handle: this.front });
    await this.command('DELETE', '/window');
    await this.command('POST', '/window', { handle: tab });
    this.front = undefined;
  }

  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<R> {
    return this.command<R>('POST', '/execute/sync', {
      script: `return (${fn.toString()}).apply(null, arguments);`,
      args,
    });
  }

  waitFor<A extends unknown[], R>(
    what: string,
    fn: (...args: A) => R | Promise<R>,
    args: A,
    timeoutMs = 45_000,
  ) {
    return pollUntil(what, () => this.evaluate(fn, ...args), timeoutMs);
  }

  async inject(source: string) {
    await this.command('POST', '/execute/sync', { script: `${source};\nreturn null;`, args: [] });
  }

  private async control(query: ControlQuery): Promise<string> {
    return pollUntil(
      `the control ${JSON.stringify(query)}`,
      async () => {
        const element = await this.command<Record<string, string> | null>('POST', '/execute/sync', {
          script: `return (${findControl.toString()}).apply(null, arguments);`,
          args: [query],
        });
        return element?.[ELEMENT] ?? null;
      },
      CONTROL_TIMEOUT_MS,
    );
  }

  /**
   * Brings the element to the middle of the viewport at once: the page scrolls smoothly, and
   * WebKitWebDriver checks that an element is in view before its smooth scroll has moved it.
   */
  private async bringIntoView(id: string) {
    await this.command('POST', '/execute/sync', {
      script: 'arguments[0].scrollIntoView({ block: "center", behavior: "instant" });',
      args: [{ [ELEMENT]: id }],
    });
  }

  async click(query: ControlQuery) {
    const id = await this.control(query);
    await this.bringIntoView(id);
    await this.command('POST', `/element/${id}/click`, {});
  }

  async type(query: ControlQuery, text: string, { enter = false } = {}) {
    const id = await this.control(query);
    await this.bringIntoView(id);
    await this.command('POST', `/element/${id}/value`, { text: enter ? `${text}\uE007` : text });
  }

  async resize(width: number, height: number) {
    // The window's outer size: the toolbar takes the top, and the window is at least as wide as
    // its toolbar (447 px), so a phone width is approached, not reached; tests read the result.
    const outer = await this.evaluate(() => [
      window.outerWidth - window.innerWidth,
      window.outerHeight - window.innerHeight,
    ]);
    await this.command('POST', '/window/rect', {
      width: width + (outer[0] ?? 0),
      height: height + (outer[1] ?? 0),
    });
  }

  viewportWidth() {
    return this.evaluate(() => window.innerWidth);
  }

  async screenshot(path: string) {
    await savePng(path, await this.command<string>('GET', '/screenshot'));
  }

  problems() {
    return this.evaluate(() => (window as unknown as { __problems?: string[] }).__problems ?? []);
  }

  close() {
    return this.onClose();
  }
}

/**
 * A MiniBrowser driven by WebKitWebDriver, under its own Xvfb. Each page is a window of its own: a
 * page closed leaves a new, blank window behind it as the session's current one, so a session
 * never runs out of windows, and the next page starts with no history.
 */
class WebKitSession implements EngineSession {
  readonly engine = 'webkit' as const;

  constructor(
    private readonly driverUrl: string,
    private readonly session: string,
    private readonly processes: ChildProcess[],
  ) {}

  private command<T>(method: string, path: string, body?: unknown): Promise<T> {
    return webDriverCommand<T>(this.driverUrl, this.session, method, path, body);
  }

  newPage(baseUrl: string): Promise<EnginePage> {
    return Promise.resolve(
      new WebKitPage(this.driverUrl, this.session, baseUrl, () => this.replaceWindow()),
    );
  }

  private async replaceWindow() {
    const fresh = await this.command<{ handle: string }>('POST', '/window/new', { type: 'window' });
    await this.command('DELETE', '/window');
    await this.command('POST', '/window', { handle: fresh.handle });
    // The next page arrives in a window in front, as a visitor's does: one not yet shown would
    // load its page hidden.
    await pollUntil(
      'the new window to be shown',
      () =>
        this.command<boolean>('POST', '/execute/sync', {
          script: 'return document.visibilityState === "visible";',
          args: [],
        }),
      CONTROL_TIMEOUT_MS,
    );
  }

  async close() {
    await this.command('DELETE', '').catch(() => undefined);
    for (const child of this.processes) await stopProcess(child);
  }
}

export async function openWebKitSession(options: EngineOptions): Promise<EngineSession> {
  const processes: ChildProcess[] = [];
  try {
    // Xvfb picks a free display itself and names it on file descriptor 3.
    const xvfb = spawnWithReadyFd(
      'Xvfb',
      ['-displayfd', '3', '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'],
      process.env,
    );
    processes.push(xvfb.child);
    const display = `:${await xvfb.ready}`;

    const port = await freePort();
    const driver = spawn(WEBKIT_DRIVER_PATH, [`--port=${port}`], {
      env: { ...process.env, DISPLAY: display },
      detached: true,
      stdio: 'ignore',
    });
    processes.push(driver);
    const driverUrl = `http://127.0.0.1:${port}`;
    await pollUntil(
      'WebKitWebDriver',
      () =>
        fetch(`${driverUrl}/status`)
          .then((response) => response.ok)
          .catch(() => false),
      20_000,
    );

    const args = ['--automation', '--autoplay-policy=allow'];
    if (options.microphone) args.push('--enable-mock-capture-devices=true');
    // MiniBrowser takes WebKitSettings as options: the page cache is WebKit's back/forward cache.
    if (options.backForwardCache === false) args.push('--enable-page-cache=false');
    const response = await fetch(`${driverUrl}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        capabilities: {
          alwaysMatch: { 'webkitgtk:browserOptions': { binary: miniBrowserPath(), args } },
        },
      }),
    });
    const json = (await response.json()) as { value: { sessionId?: string; message?: string } };
    if (!response.ok || !json.value.sessionId) {
      throw new Error(`WebKitWebDriver refused a session: ${json.value.message}`);
    }
    await webDriverCommand(driverUrl, json.value.sessionId, 'POST', '/timeouts', {
      pageLoad: NAVIGATION_TIMEOUT_MS,
      script: COMMAND_TIMEOUT_MS,
    });
    return new WebKitSession(driverUrl, json.value.sessionId, processes);
  } catch (error) {
    for (const child of processes) await stopProcess(child);
    throw error;
  }
}

export function openEngineSession(engine: EngineName, options: EngineOptions) {
  if (engine === 'chromium') return openChromiumSession(options);
  return engine === 'firefox' ? openFirefoxSession(options) : openWebKitSession(options);
}

/** A page in a browser of its own: closing the page closes the browser. */
export async function openEngine(
  engine: EngineName,
  baseUrl: string,
  options: EngineOptions,
): Promise<EnginePage> {
  const session = await openEngineSession(engine, options);
  try {
    const page = await session.newPage(baseUrl);
    return Object.assign(page, { close: () => session.close() });
  } catch (error) {
    await session.close();
    throw error;
  }
}
