// The arrival matrix: every way a visitor reaches the page (a plain address, each section's
// address, a reload at a section or after scrolling, a return in and out of the back/forward
// cache, a tab opened in the background, the app's script arriving late under early taps, the voice
// chat's first chunk failing, the 404 page's way home) in Chromium, Firefox ESR and WebKitGTK.
// Every arrival must leave a live page: the app started, Copy copies, the menu opens at phone
// width, a demo call reaches 'Listening...', and nothing went wrong in the console. Each arrival is
// a fresh page load in a fresh browsing context. One served site for the whole matrix
// (e2e/engines/site-server.ts); a small proxy in front of it, one per arrival (so each arrival has
// an origin, storage and cache of its own), makes the arrivals that need a path late or failing
// (./arrival-proxy.ts).
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { HIDDEN_START_BOUND_MS } from '../../scripts/lib/start-after-paint.mjs';
import { DOUBLE_TAP_MS } from '../../src/features/talk/section/double-tap';
import { appStarted } from '../support/app-started';
import { startArrivalProxy, type ArrivalProxy, type ArrivalRules } from './arrival-proxy';
import { ENGINE_NAMES, type EngineName, type EnginePage, type EngineSession } from './engine';
import { openEngineSession } from './launch';
import { toastGone, toastRecorded } from './toast-checks';

const ENGINES = (process.env.ENGINES ?? 'chromium,firefox,webkit')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is EngineName => (ENGINE_NAMES as readonly string[]).includes(name));

/** The simulated room, twice as fast. */
const HOME = '/?simScale=0.5';
const PHONE = { width: 390, height: 844 };
const LISTENING = 'Listening...';
const COPIED = 'Contract address copied';
const LOAD_FAILED = "The voice chat didn't load.";
/** The app's entry script, and the voice chat's chunk. */
const APP_SCRIPT = /^\/assets\/index-[^/]+\.js$/;
const VOICE_CHUNK = /^\/assets\/voice-chat-[^/]+\.js$/;
/** How late the app's script arrives in the late arrival. */
const LATE_MS = 3000;
/**
 * The most one arrival in one engine may take, with the machine busy: its slowest waits for the
 * page (45 s each) fail well within it, so a case that hangs fails with what it waited for.
 */
const CASE_TIMEOUT_MS = 150_000;
/**
 * Long enough hidden that a start which did not wait for the tab to be shown would have run, and
 * short of the bound after which a page never shown starts anyway.
 */
const HIDDEN_FOR_MS = 3000;

const talk = (name: string) => ({ role: 'button' as const, name, within: '#talk' });
const copyButton = { role: 'button' as const, name: 'Copy contract address', within: '#home' };
const menuButton = { role: 'button' as const, name: 'Menu' };

// --- What the page is asked (each runs in the page, so it closes over nothing) ---------------

/**
 * Records what the page shows, in order, from now on: the Talk panel's statuses, the copy
 * announcements, the toasts, whether the menu was open and whether the copy field appeared. Kept
 * on the window, so a page restored from the back/forward cache keeps its record.
 */
function startRecording() {
  type Record = {
    statuses: string[];
    announced: string[];
    toasts: string[];
    menuOpened: boolean;
    copyRefused: boolean;
  };
  const page = window as unknown as { __record?: Record };
  if (page.__record) return;
  const record: Record = (page.__record = {
    statuses: [],
    announced: [],
    toasts: [],
    menuOpened: false,
    copyRefused: false,
  });
  const text = (node: Element | null) => node?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  const note = (list: string[], value: string) => {
    if (value && list[list.length - 1] !== value) list.push(value);
  };
  const look = () => {
    note(record.statuses, text(document.querySelector('#talk [role="status"]')));
    note(record.announced, text(document.querySelector('#home [role="status"]')));
    for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
      if (!record.toasts.includes(text(toast))) record.toasts.push(text(toast));
    }
    if (document.getElementById('mobile-menu')?.hidden === false) record.menuOpened = true;
    if (document.querySelector('#home input[readonly]')) record.copyRefused = true;
  };
  // When the visitor last tapped, in the page's clock.
  addEventListener(
    'click',
    (event) => {
      if (event.isTrusted) (page as { __pressedAt?: number }).__pressedAt = performance.now();
    },
    true,
  );
  look();
  new MutationObserver(look).observe(document.documentElement, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
  });
}

/** When the page asked for the app's script, in the page's clock (-1: it did not). */
function appRequestedAt() {
  const entry = performance
    .getEntriesByType('resource')
    .find((resource) => /\/assets\/index-[^/]+\.js$/.test(new URL(resource.name).pathname));
  return entry ? entry.startTime : -1;
}

/** Starts a fresh list of what `kind` shows (what came before, a call earlier, is forgotten). */
function forget(kind: 'statuses' | 'announced') {
  const record = (window as unknown as { __record?: Record<string, unknown> }).__record;
  if (record) record[kind] = [];
}

function recorded() {
  return (
    (
      window as unknown as {
        __record?: {
          statuses: string[];
          announced: string[];
          toasts: string[];
          menuOpened: boolean;
          copyRefused: boolean;
        };
      }
    ).__record ?? { statuses: [], announced: [], toasts: [], menuOpened: false, copyRefused: false }
  );
}

function saw(kind: 'statuses' | 'announced', value: string) {
  const record = (window as unknown as { __record?: Record<string, unknown> }).__record;
  const list = record?.[kind];
  return Array.isArray(list) && list.includes(value);
}

/** The last tap in this document (recorded by `startRecording`) is older than `ms`. */
function pastDoubleTap(ms: number) {
  const at = (window as unknown as { __pressedAt?: number }).__pressedAt;
  return at === undefined || performance.now() - at > ms;
}

function menuOpen() {
  return document.getElementById('mobile-menu')?.hidden === false;
}

function menuClosed() {
  return document.getElementById('mobile-menu')?.hidden === true;
}

function talkStatusIs(status: string) {
  return document.querySelector('#talk [role="status"]')?.textContent?.trim() === status;
}

function contractAddress() {
  return document.querySelector('#home code .sr-only')?.textContent?.trim() ?? '';
}

function scrollToTalk() {
  document
    .querySelector('#talk [role="status"]')
    ?.scrollIntoView({ block: 'center', behavior: 'instant' });
}

/**
 * The page has scrolled to the section with this id: the address names it and the section's top is
 * where a scroll to it ends (below the header's scroll padding), or the page is at its very end.
 */
function scrolledTo(id: string) {
  const section = document.getElementById(id);
  if (!section || window.location.hash !== `#${id}`) return false;
  const margin =
    (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0) +
    (parseFloat(getComputedStyle(section).scrollMarginTop) || 0);
  const atEnd =
    window.scrollY > 0 &&
    window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
  return Math.abs(section.getBoundingClientRect().top - margin) < 2 || atEnd;
}

/** No toast shown with this title (with '', no toast at all). */
// --- The checks every arrival ends with -----------------------------------------------------

async function expectNoProblems(page: EnginePage, allowed?: RegExp) {
  const problems = (await page.problems()).filter((problem) => !allowed?.test(problem));
  expect(problems).toEqual([]);
}

/** Copy copies: the page says so, and where the driver may read the clipboard, it holds the address. */
async function expectCopies(page: EnginePage) {
  await page.evaluate(forget, 'announced');
  await page.click(copyButton);
  await page
    .waitFor('the copy to be announced', saw, ['announced', COPIED])
    .catch(async (error) => {
      const { announced, copyRefused } = await page.evaluate(recorded);
      const focused = await page.evaluate(() => document.hasFocus());
      throw new Error(
        `${String(error)}; announced: ${announced.join(' > ')}; copy field shown: ${copyRefused}; page focused: ${focused}`,
      );
    });
  expect((await page.evaluate(recorded)).copyRefused).toBe(false);
  if (page.engine === 'chromium') {
    const address = await page.evaluate(contractAddress);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
  }
}

async function expectMenuOpens(page: EnginePage) {
  expect(await page.viewportWidth()).toBeLessThan(768);
  // A toast from a call just ended covers the header's top until it leaves on its own.
  await page.waitFor('the toasts to leave', toastGone, ['']);
  await page.click(menuButton);
  await page.waitFor('the menu to open', menuOpen, []);
  await page.click(menuButton);
  await page.waitFor('the menu to close', menuClosed, []);
}

async function expectCallListens(page: EnginePage) {
  await page.evaluate(forget, 'statuses');
  await page.evaluate(scrollToTalk);
  await page.click(talk('Start Talking'));
  await page.waitFor('the call to listen', saw, ['statuses', LISTENING]).catch(async (error) => {
    const { statuses, toasts } = await page.evaluate(recorded);
    throw new Error(`${String(error)}; statuses seen: ${statuses.join(' > ')}; toasts: ${toasts}`);
  });
  const statuses = (await page.evaluate(recorded)).statuses;
  expect(statuses.indexOf('Connecting to Pepa...')).toBeLessThan(statuses.indexOf(LISTENING));
  await page.click(talk('End Call'));
  await page.waitFor('the call to end', talkStatusIs, ['Ready to chat']);
}

/** What the page was doing, for a failure that says why the app did not start. */
function startState() {
  return {
    address: window.location.href,
    visibilityState: document.visibilityState,
    readyState: document.readyState,
    scrollY: window.scrollY,
    appScript: document.querySelector('script[type="module"]')?.getAttribute('src') ?? null,
    appRequests: performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/assets/index-'))
      .map((entry) => `${entry.name} at ${Math.round(entry.startTime)} ms`),
    now: Math.round(performance.now()),
  };
}

/** Waits for the app to start; a page that does not says what it was doing. */
async function expectStarted(page: EnginePage) {
  await page.waitFor('the app to start', appStarted, [], 45_000).catch(async (error) => {
    const state = await page.evaluate(startState).catch((reason: unknown) => String(reason));
    throw new Error(`${String(error)}; the page: ${JSON.stringify(state)}`);
  });
}

/** The page is live: the app started, and Copy, the menu and a call all work. */
async function expectLive(page: EnginePage, allowed?: RegExp) {
  await expectStarted(page);
  await page.watch();
  await page.evaluate(startRecording);
  await expectCopies(page);
  await expectMenuOpens(page);
  await expectCallListens(page);
  await expectNoProblems(page, allowed);
}

// --- The arrivals ---------------------------------------------------------------------------

interface Arrival {
  name: string;
  rules?: ArrivalRules;
  backForwardCache?: boolean;
  /** Console lines the arrival causes on purpose (a chunk the proxy failed). */
  allowed?: RegExp;
  /** Brings the visitor in and checks the page. */
  run(page: EnginePage, proxy: ArrivalProxy): Promise<void>;
}

/** What an engine logs about a chunk the proxy failed. */
const CHUNK_FAILED =
  /503|Failed to load|dynamically imported module|Loading failed for the module|Importing a module script failed|error loading|voice-chat-[^/]+\.js.* disallowed MIME type/i;
/** What an engine logs about a visit to the 404 page, which is served with its status. */
const PAGE_NOT_FOUND = /the server responded with a status of 404/;

const SECTIONS = ['home', 'talk', 'pond', 'stream', 'lounge', 'grotto'];

/** Leaves after a call and comes back: the page must be live again, whichever way it returns. */
async function returnAfterCall(page: EnginePage, { kept }: { kept: boolean }) {
  await page.goto(HOME);
  await page.evaluate(startRecording);
  await page.evaluate(() => {
    const page = window as unknown as { __shown?: boolean[] };
    page.__shown = [];
    addEventListener('pageshow', (event) => page.__shown?.push(event.persisted));
  });
  await expectCallListens(page);
  // Within seconds of the call's end, while its toast is still up, the visitor leaves.
  await page.navigate('/elsewhere');
  await page.waitFor('the other page', () => window.location.pathname === '/elsewhere', []);
  await page.waitFor('the other page to load', () => document.readyState === 'complete', []);
  await page.back();
  await page.waitFor(
    'the return',
    () => window.location.pathname === '/' && document.readyState === 'complete',
    [],
  );
  const how = await page.waitFor(
    'the return to settle',
    () => {
      const shown = (window as unknown as { __shown?: boolean[] }).__shown;
      if (shown?.includes(true)) return 'restored';
      const navigation = performance.getEntriesByType('navigation')[0] as
        PerformanceNavigationTiming | undefined;
      return shown === undefined && navigation?.type === 'back_forward' ? 'loaded' : '';
    },
    [],
  );
  expect(how).toBe(kept ? 'restored' : 'loaded');
  await page.watch();
  if (kept) {
    // The call's goodbye shows (the lane shows it once 'Connected' has given way, which a visitor
    // who leaves at once may not wait for) and leaves on its own, as it would have without the
    // visit elsewhere.
    await page.waitFor("the call's goodbye", toastRecorded, ['Call ended']);
    await page.waitFor('the toast to leave', toastGone, ['Call ended']);
  }
}

const ARRIVALS: Arrival[] = [
  {
    name: 'a plain address',
    async run(page) {
      await page.goto(HOME, { hydrated: false });
      await expectLive(page);
    },
  },
  ...SECTIONS.map((id): Arrival => ({
    name: `a section's address, #${id}`,
    async run(page) {
      await page.goto(`${HOME}#${id}`, { hydrated: false });
      await expectLive(page);
    },
  })),
  {
    name: 'a nav link, then reload at its section',
    async run(page) {
      await page.goto(HOME);
      await page.click(menuButton);
      await page.click({ role: 'link', name: 'Secret Grotto', within: '#mobile-menu' });
      // The page scrolls there (gliding, with motion); the visitor reloads once they see it (a reload
      // mid-scroll would keep the position the scroll had reached, perhaps the very top).
      await page.waitFor('the scroll to the section', scrolledTo, ['grotto']);
      await page.reload();
      expect(await page.evaluate(() => window.location.hash)).toBe('#grotto');
      await page.waitFor('the page at its section', () => window.scrollY > 0, []);
      await expectLive(page);
    },
  },
  {
    name: 'scroll down, then reload (no section in the address)',
    async run(page) {
      await page.goto(HOME);
      await page.evaluate(() => window.scrollTo({ top: 2000, behavior: 'instant' }));
      await page.waitFor('the scroll', () => window.scrollY > 1000, []);
      await page.reload();
      await page.waitFor('the page where it was scrolled', () => window.scrollY > 0, []);
      await expectLive(page);
    },
  },
  {
    name: 'end a call, leave, come back: kept in the back/forward cache',
    backForwardCache: true,
    async run(page) {
      await returnAfterCall(page, { kept: true });
      await expectLive(page, PAGE_NOT_FOUND);
    },
  },
  {
    name: 'end a call, leave, come back: not kept in the back/forward cache',
    backForwardCache: false,
    async run(page) {
      await returnAfterCall(page, { kept: false });
      await expectLive(page, PAGE_NOT_FOUND);
    },
  },
  {
    name: 'a tab opened in the background, shown later',
    async run(page) {
      await page.openHidden(HOME);
      expect(await page.evaluate(() => document.visibilityState)).toBe('hidden');
      await page.waitFor('time hidden', (ms: number) => performance.now() > ms, [HIDDEN_FOR_MS]);
      // Hidden until now, in the page's clock (the page is shown after this).
      const hiddenUntil = await page.evaluate(() =>
        document.visibilityState === 'hidden' ? performance.now() : 0,
      );
      expect(hiddenUntil).toBeGreaterThan(HIDDEN_FOR_MS);
      await page.show();
      await expectLive(page);
      // Nothing started while nobody could see the page, unless it stayed hidden past the bound
      // (on a busy machine the load alone may take that long): the app was asked for after.
      const asked = await page.evaluate(appRequestedAt);
      expect(asked).toBeGreaterThanOrEqual(Math.min(hiddenUntil, HIDDEN_START_BOUND_MS));
    },
  },
  {
    name: "the app's script 3 s late; Menu, Copy and Start Talking tapped before it runs",
    rules: { late: { path: APP_SCRIPT, ms: LATE_MS } },
    async run(page, proxy) {
      await page.navigate(HOME);
      await page.waitFor(
        'the page to be drawn',
        () =>
          window.location.pathname === '/' &&
          document.readyState !== 'loading' &&
          typeof (window as unknown as { __pepaEarlyTaps?: unknown }).__pepaEarlyTaps ===
            'function',
        [],
      );
      await page.watch();
      await page.evaluate(startRecording);
      await page.click(menuButton);
      await page.click(copyButton);
      await page.click(talk('Start Talking'));
      // The taps came before the app: its script had not run (it may not even have been asked).
      expect(await page.evaluate(appStarted)).toBe(false);

      await expectStarted(page);
      expect(proxy.changed.some((change) => change.startsWith('late /assets/index-'))).toBe(true);
      await page.waitFor('the call to listen', saw, ['statuses', LISTENING]);
      await page.waitFor('the copy to be announced', saw, ['announced', COPIED]);
      const record = await page.evaluate(recorded);
      expect(record.menuOpened).toBe(true);
      expect(record.copyRefused).toBe(false);
      if (page.engine === 'chromium') {
        const address = await page.evaluate(contractAddress);
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
      }
      // The menu the early tap opened covers the Talk panel at phone width: closed first, once
      // no toast covers its button.
      await page.waitFor('the toasts to leave', toastGone, ['']);
      await page.click(menuButton);
      await page.waitFor('the menu to close', menuClosed, []);
      await page.click(talk('End Call'));
      await page.waitFor('the call to end', talkStatusIs, ['Ready to chat']);
      await expectLive(page);
    },
  },
  {
    name: "the voice chat's first chunk fails, then Start Talking until the call listens",
    rules: { fail: { path: VOICE_CHUNK, times: 1 } },
    allowed: CHUNK_FAILED,
    async run(page, proxy) {
      await page.goto(HOME);
      await page.evaluate(startRecording);
      let outcome = '';
      for (let press = 0; press < 4 && outcome !== 'listening'; press += 1) {
        // Past the double-tap window of the last press, so this press is a press of its own.
        await page.waitFor('a press of its own', pastDoubleTap, [DOUBLE_TAP_MS]);
        await page.evaluate(() => {
          (window as unknown as { __press?: boolean }).__press = true;
        });
        await page.evaluate(scrollToTalk);
        await page.click(talk('Start Talking'));
        outcome = await page.waitFor(
          'the outcome of Start Talking',
          (failed: string, listening: string) => {
            const here = window as unknown as { __press?: boolean };
            if (!here.__press) return document.readyState === 'complete' ? 'reloaded' : '';
            const status = document.querySelector('#talk [role="status"]')?.textContent ?? '';
            if (status.trim() === listening) return 'listening';
            return document.querySelector('#talk')?.textContent?.includes(failed) ? 'failed' : '';
          },
          [LOAD_FAILED, LISTENING],
        );
        if (outcome === 'reloaded') {
          // The page reloaded to load the chat again, and starts the call it was asked for.
          await page.waitFor('the app to start again', appStarted, [], 30_000);
          await page.watch();
          await page.evaluate(startRecording);
          await page.waitFor('the resumed call to listen', talkStatusIs, [LISTENING]);
          outcome = 'listening';
        }
      }
      expect(outcome).toBe('listening');
      expect(proxy.changed.some((change) => change.startsWith('failed /assets/voice-chat-'))).toBe(
        true,
      );
      await page.click(talk('End Call'));
      await page.waitFor('the call to end', talkStatusIs, ['Ready to chat']);
      await expectLive(page, CHUNK_FAILED);
    },
  },
  {
    name: "the 404 page's Return to Home",
    async run(page) {
      await page.goto('/no-such-page');
      await page.click({ role: 'link', name: 'Return to Home' });
      await page.waitFor('home', () => window.location.pathname === '/', []);
      await expectLive(page, PAGE_NOT_FOUND);
    },
  },
];

describe('the arrival matrix', () => {
  const site = inject('siteUrl');
  const started = Date.now();

  afterAll(() => {
    console.log(`The arrival matrix took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  });

  describe.each(ENGINES)('in %s', (engine) => {
    // One browser for the engine's arrivals, each in a fresh browsing context of its own, on an
    // origin of its own (its own proxy); a case about how the browser is configured (no
    // back/forward cache) gets a browser of its own, and a case that failed takes its browser
    // with it, so no case inherits a broken one.
    let shared: EngineSession | undefined;
    let own: EngineSession | undefined;
    let page: EnginePage | undefined;
    let proxy: ArrivalProxy | undefined;

    afterEach(async (context) => {
      await page?.close();
      await proxy?.close();
      await own?.close();
      if (context.task.result?.state === 'fail') {
        await shared?.close();
        shared = undefined;
      }
      page = undefined;
      proxy = undefined;
      own = undefined;
    });
    afterAll(async () => {
      await shared?.close();
      shared = undefined;
    });

    it.for(ARRIVALS.map((arrival) => [arrival.name, arrival] as const))(
      '%s',
      { timeout: CASE_TIMEOUT_MS },
      async ([, arrival]) => {
        proxy = await startArrivalProxy(site, arrival.rules ?? {});
        let session: EngineSession;
        if (arrival.backForwardCache === false) {
          session = own = await openEngineSession(engine, {
            microphone: true,
            backForwardCache: false,
          });
        } else {
          session = shared ??= await openEngineSession(engine, { microphone: true });
        }
        page = await session.newPage(proxy.url);
        await page.resize(PHONE.width, PHONE.height);
        await arrival.run(page, proxy);
      },
    );
  });
});
