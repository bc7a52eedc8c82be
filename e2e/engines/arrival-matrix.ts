// The arrival matrix's shared part: what every arrival ends with, and the matrix that runs a list
// of arrivals in Chromium, Firefox ESR and WebKitGTK. Every arrival must leave a live page: the app
// started, Copy copies, the menu opens at phone width, a demo call reaches 'Listening...', and
// nothing went wrong in the console. Each arrival is a fresh page load in a fresh browsing context.
// One served site for the whole matrix (e2e/engines/site-server.ts); a small proxy in front of it,
// one per arrival (so each arrival has an origin, storage and cache of its own), makes the arrivals
// that need a path late or failing (./arrival-proxy.ts).
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { appStarted } from '../support/app-started';
import { startArrivalProxy, type ArrivalProxy, type ArrivalRules } from './arrival-proxy';
import { ENGINE_NAMES, type EngineName, type EnginePage, type EngineSession } from './engine';
import { openEngineSession } from './launch';
import { toastGone } from './toast-checks';

const ENGINES = (process.env.ENGINES ?? 'chromium,firefox,webkit')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is EngineName => (ENGINE_NAMES as readonly string[]).includes(name));

/** The simulated room, twice as fast. */
export const HOME = '/?simScale=0.5';
const PHONE = { width: 390, height: 844 };
export const LISTENING = 'Listening...';
export const COPIED = 'Contract address copied';
/**
 * The most one arrival in one engine may take, with the machine busy: its slowest waits for the
 * page (45 s each) fail well within it, so a case that hangs fails with what it waited for.
 */
const CASE_TIMEOUT_MS = 150_000;

export const talk = (name: string) => ({ role: 'button' as const, name, within: '#talk' });
export const copyButton = {
  role: 'button' as const,
  name: 'Copy contract address',
  within: '#home',
};
export const menuButton = { role: 'button' as const, name: 'Menu' };

// --- What the page is asked (each runs in the page, so it closes over nothing) ---------------

/**
 * Records what the page shows, in order, from now on: the Talk panel's statuses, the copy
 * announcements, the toasts, whether the menu was open and whether the copy field appeared. Kept
 * on the window, so a page restored from the back/forward cache keeps its record.
 */
export function startRecording() {
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

/** Starts a fresh list of what `kind` shows (what came before, a call earlier, is forgotten). */
function forget(kind: 'statuses' | 'announced') {
  const record = (window as unknown as { __record?: Record<string, unknown> }).__record;
  if (record) record[kind] = [];
}

export function recorded() {
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

export function saw(kind: 'statuses' | 'announced', value: string) {
  const record = (window as unknown as { __record?: Record<string, unknown> }).__record;
  const list = record?.[kind];
  return Array.isArray(list) && list.includes(value);
}

function menuOpen() {
  return document.getElementById('mobile-menu')?.hidden === false;
}

export function menuClosed() {
  return document.getElementById('mobile-menu')?.hidden === true;
}

export function talkStatusIs(status: string) {
  return document.querySelector('#talk [role="status"]')?.textContent?.trim() === status;
}

export function contractAddress() {
  return document.querySelector('#home code .sr-only')?.textContent?.trim() ?? '';
}

export function scrollToTalk() {
  document
    .querySelector('#talk [role="status"]')
    ?.scrollIntoView({ block: 'center', behavior: 'instant' });
}

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

export async function expectCallListens(page: EnginePage) {
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
export async function expectStarted(page: EnginePage) {
  await page.waitFor('the app to start', appStarted, [], 45_000).catch(async (error) => {
    const state = await page.evaluate(startState).catch((reason: unknown) => String(reason));
    throw new Error(`${String(error)}; the page: ${JSON.stringify(state)}`);
  });
}

/** The page is live: the app started, and Copy, the menu and a call all work. */
export async function expectLive(page: EnginePage, allowed?: RegExp) {
  await expectStarted(page);
  await page.watch();
  await page.evaluate(startRecording);
  await expectCopies(page);
  await expectMenuOpens(page);
  await expectCallListens(page);
  await expectNoProblems(page, allowed);
}

// --- The matrix ------------------------------------------------------------------------------

export interface Arrival {
  name: string;
  rules?: ArrivalRules;
  backForwardCache?: boolean;
  /** Console lines the arrival causes on purpose (a chunk the proxy failed). */
  allowed?: RegExp;
  /** Brings the visitor in and checks the page. */
  run(page: EnginePage, proxy: ArrivalProxy): Promise<void>;
}

/** What an engine logs about a visit to the 404 page, which is served with its status. */
export const PAGE_NOT_FOUND = /the server responded with a status of 404/;

/**
 * The arrival matrix for `arrivals`: each one in every engine asked for (ENGINES), at phone width.
 * `part` names the arrivals in the time the run reports.
 */
export function describeArrivals(part: string, arrivals: readonly Arrival[]) {
  describe('the arrival matrix', () => {
    const site = inject('siteUrl');
    const started = Date.now();

    afterAll(() => {
      console.log(
        `The arrival matrix (${part}) took ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
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

      it.for(arrivals.map((arrival) => [arrival.name, arrival] as const))(
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
}
