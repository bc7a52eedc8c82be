// What a test in e2e/engines sees of a browser, whichever engine runs it: one small interface,
// so a test is written once. Each engine implements it in a module of its own (./chromium.ts,
// ./firefox.ts, ./webkit.ts), and ./launch.ts opens the one a test names.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ControlQuery } from './controls';

export type EngineName = 'chromium' | 'firefox' | 'webkit';

export const ENGINE_NAMES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

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

/**
 * How long a control or a state is waited for: generous, since the machine running the suite may
 * be busy with other jobs; a test asserts on what appeared, never on how fast.
 */
export const CONTROL_TIMEOUT_MS = 30_000;
/** How long `goto` waits for the app to hydrate the page it opened. */
export const HYDRATION_TIMEOUT_MS = 30_000;
/** How long `waitFor` polls when the test names no time. */
export const WAIT_TIMEOUT_MS = 45_000;

/**
 * How long one command to a browser may take before it is given up as lost (a script in the page
 * may run this long). A lost command is an error, which a poll asks again.
 */
export const COMMAND_TIMEOUT_MS = 30_000;

const POLL_INTERVAL_MS = 100;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Asks `probe` until it answers something truthy, and returns that; fails after `timeoutMs` with
 * what it last answered. A probe that throws is asked again: a page between two documents (a
 * reload, a return) cannot be asked.
 */
export async function pollUntil<R>(
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
      last = `error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)})`,
      );
    }
    await sleep(POLL_INTERVAL_MS);
  }
}

/** Writes a screenshot the engine returned as base64 PNG, making its folder first. */
export async function savePng(path: string, base64: string) {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, Buffer.from(base64, 'base64'));
}
