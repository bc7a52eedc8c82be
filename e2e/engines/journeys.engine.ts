// The visitor's journeys of issue 46 in Gecko and WebKit, as e2e/journey.spec.ts walks them in
// Chromium: the one thread (Write to Pepa, her first line, the chat carried into the call, Pepa
// picking up from it), the call docked into a bar when the section leaves the view (and Pepa's
// tour to the Pond with the bar in view, End Call from the bar), and a refused microphone landing
// in the text chat. At each step: what is in the viewport, where the focus is, and that no two
// visible lines of state disagree (the same rules as Chromium's, scripts/lib/journey.mjs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { HANDOVER_OPENING_LINE } from '../../gate/dev/stand-in-calls.mjs';
import { STAKE_QUESTION } from '../../scripts/lib/journey.mjs';
import {
  contradictions,
  focusNow,
  statusLinesNow,
  type StatusLines,
} from '../../scripts/lib/journey-lines.mjs';
import { PEPA_FIRST_MESSAGE } from '../../src/config/pepa-persona';
import { findControl, type ControlQuery } from './controls';
import type { EngineName, EnginePage } from './engine';
import { openEngine } from './launch';

const ENGINES = (process.env.ENGINES ?? 'firefox,webkit')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is EngineName => name === 'firefox' || name === 'webkit');

const FAST = 'simScale=0.5';
const SIZES = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
];
const SHOTS = 'test-results/screenshots/engines';
const QUESTION = 'Who rules the pond?';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

const inTalk = (role: ControlQuery['role'], name: string): ControlQuery => ({
  role,
  name,
  within: '#talk',
});
const FIELD = inTalk('textbox', 'Message to Pepa');
const WRITE = inTalk('button', 'Write to Pepa');
const START = inTalk('button', 'Start Talking');
const END = inTalk('button', 'End Call');
const DOCK = '[role="region"][aria-label="Your call with Pepa"]';
const DOCK_END: ControlQuery = { role: 'button', name: 'End Call', within: DOCK };

interface JourneyWindow {
  __journey: {
    find: typeof findControl;
    lines: typeof statusLinesNow;
    focus: typeof focusNow;
    thread: typeof threadOf;
  };
}

/**
 * The page's tools for a journey, set on `window` (outside its CSP, as axe is): the role-and-name
 * lookup, the lines of state, the focus. Set again after each navigation.
 */
async function tools(page: EnginePage) {
  if (await page.evaluate(() => '__journey' in window)) return;
  await page.inject(
    `window.__journey = { find: ${findControl.toString()}, lines: ${statusLinesNow.toString()}, focus: ${focusNow.toString()}, thread: ${threadOf.toString()} };`,
  );
}

/** Runs in the page: where an element is against the viewport. */
function placeOf(target: ControlQuery | string) {
  const { find } = (window as unknown as JourneyWindow).__journey;
  const element = typeof target === 'string' ? document.querySelector(target) : find(target);
  if (!element) return { found: false, whole: false, part: false };
  const box = element.getBoundingClientRect();
  const whole =
    box.top >= -1 &&
    box.left >= -1 &&
    box.bottom <= window.innerHeight + 1 &&
    box.right <= window.innerWidth + 1;
  const part = box.bottom > 0 && box.top < window.innerHeight && box.width > 0;
  return { found: true, whole, part, top: Math.round(box.top), bottom: Math.round(box.bottom) };
}

/** Runs in the page: the control has the keyboard's focus. */
function focusedOn(query: ControlQuery) {
  const { find } = (window as unknown as JourneyWindow).__journey;
  const element = find(query);
  return element !== null && document.activeElement === element;
}

function linesNow(): StatusLines {
  return (window as unknown as JourneyWindow).__journey.lines();
}

function focusedNow(): string {
  return (window as unknown as JourneyWindow).__journey.focus();
}

/** Runs in the page: the thread's lines in a log, as "<typed|spoken> <line>". */
function threadOf(logName: string) {
  const log = document.querySelector(`#talk [role="log"][aria-label="${logName}"]`);
  return [...(log?.querySelectorAll('[data-thread-line]:not([aria-hidden])') ?? [])].map(
    (line) =>
      `${line.querySelector('[data-via]')?.getAttribute('aria-label') ?? '?'} ${(line.textContent ?? '').replace(/\s+/g, ' ').trim()}`,
  );
}

/** Runs in the page: scroll has come to rest (the same position in two frames). */
function scrollStill() {
  return new Promise<boolean>((resolve) => {
    const y = window.scrollY;
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY === y)));
  });
}

/** Every microphone the page opens from now on hears nothing (the fake one beeps). */
function quietMicrophone() {
  const media = navigator.mediaDevices;
  const original = media.getUserMedia.bind(media);
  media.getUserMedia = async (constraints) => {
    const stream = await original(constraints);
    const [silent] = new AudioContext().createMediaStreamDestination().stream.getAudioTracks();
    if (!silent) return stream;
    const stopSilent = silent.stop.bind(silent);
    silent.stop = () => {
      stopSilent();
      for (const track of stream.getTracks()) track.stop();
    };
    return new MediaStream([silent]);
  };
}

/** The browser refuses the microphone, as it does for a visitor who said no. */
function refuseMicrophone() {
  navigator.mediaDevices.getUserMedia = async () => {
    throw new DOMException('Permission denied', 'NotAllowedError');
  };
}

async function axeViolations(page: EnginePage, selector: string) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.inject(axeSource);
  return page.evaluate(async (include: string) => {
    const { axe } = window as unknown as {
      axe: {
        run(c: unknown, o: unknown): Promise<{ violations: { id: string; nodes: unknown[] }[] }>;
      };
    };
    const results = await axe.run({ include: [include] }, {});
    return results.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
  }, selector);
}

/**
 * One step, checked as the visitor sees it: each target wholly (or, for a log, partly) in view,
 * the focus where it should be, no two lines of state in disagreement, axe clean; then a capture.
 */
async function step(
  page: EnginePage,
  name: string,
  check: {
    inView: (ControlQuery | string)[];
    partlyInView?: string[];
    focused: ControlQuery | null;
    axe: string;
  },
) {
  await page.waitFor('the scroll to rest', scrollStill, []);
  for (const target of check.inView) {
    const place = await page.evaluate(placeOf, target);
    expect(place, `${name}: ${JSON.stringify(target)} wholly in view`).toMatchObject({
      whole: true,
    });
  }
  for (const target of check.partlyInView ?? []) {
    const place = await page.evaluate(placeOf, target);
    expect(place, `${name}: ${target} in view`).toMatchObject({ part: true });
  }
  if (check.focused) {
    const focus = await page.evaluate(focusedNow);
    expect(await page.evaluate(focusedOn, check.focused), `${name}: focus on ${focus}`).toBe(true);
  }
  expect(contradictions(await page.evaluate(linesNow)), `${name}: lines that disagree`).toEqual([]);
  expect(await axeViolations(page, check.axe), `${name}: axe`).toEqual([]);
  const width = await page.viewportWidth();
  await page.screenshot(`${SHOTS}/${page.engine}-journey-${name}-${width}.png`);
}

async function open(page: EnginePage, size: { width: number; height: number }) {
  await page.resize(size.width, size.height);
  await page.goto(`/?${FAST}`);
  await tools(page);
}

describe.each(ENGINES)('journeys in %s', (engine) => {
  let page: EnginePage;
  const site = inject('siteUrl');

  beforeAll(async () => {
    page = await openEngine(engine, site, { microphone: true });
  });
  afterAll(async () => {
    await page?.close();
  });

  it.each(SIZES)(
    'one thread at $width px: Write to Pepa in view and focused with her first line, the chat carried into the call, Pepa picking up from it',
    async (size) => {
      await open(page, size);
      await page.evaluate(quietMicrophone);
      await page.click(WRITE);
      await page.waitFor('the chat', focusedOn, [FIELD]);
      await page.waitFor(
        'her first line',
        () =>
          (window as unknown as JourneyWindow).__journey.thread('Your conversation with Pepa')
            .length > 0,
        [],
      );
      await step(page, 'chat', {
        inView: [FIELD, '#talk [role="log"] [data-thread-line]'],
        focused: FIELD,
        axe: '#talk',
      });
      expect(await page.evaluate(threadOf, 'Your conversation with Pepa')).toEqual([
        `typed Pepa: ${PEPA_FIRST_MESSAGE}`,
      ]);

      await page.type(FIELD, QUESTION, { enter: true });
      await page.waitFor(
        'her answer',
        (name: string) =>
          (window as unknown as JourneyWindow).__journey.thread(name).length >= 3 &&
          !document.querySelector('[data-testid="chat-writing"]'),
        ['Your conversation with Pepa'],
      );
      const chat = await page.evaluate(threadOf, 'Your conversation with Pepa');

      await page.click(START);
      await page.waitFor(
        'her first spoken line',
        (name: string) =>
          (window as unknown as JourneyWindow).__journey
            .thread(name)
            .some((line) => line.startsWith('spoken Pepa: ')),
        ['Captions'],
      );
      const call = await page.evaluate(threadOf, 'Captions');
      const firstSpoken = call.findIndex((line) => line.startsWith('spoken '));
      expect(call.slice(0, firstSpoken)).toEqual(chat);
      expect(call[firstSpoken]).toBe(`spoken Pepa: ${HANDOVER_OPENING_LINE}`);
      await step(page, 'call', {
        inView: [FIELD, END],
        partlyInView: ['#talk [role="log"][aria-label="Captions"]'],
        focused: null,
        axe: '#talk',
      });
      await page.click(END);
      await page.waitFor(
        'the call to end',
        () =>
          !document.querySelector('[data-call-dock]') &&
          (window as unknown as JourneyWindow).__journey.lines().status === 'Ready to chat',
        [],
      );
      const after = await page.evaluate(threadOf, 'Your conversation with Pepa');
      expect(after.slice(0, firstSpoken + 1)).toEqual(call.slice(0, firstSpoken + 1));
      expect(await page.problems()).toEqual([]);
    },
  );

  it.each(SIZES)(
    'the docked bar at $width px: away from the section the call docks, Pepa tours to the Pond with the bar in view, End Call from the bar, then the rating in view',
    async (size) => {
      await open(page, size);
      await page.evaluate(quietMicrophone);
      await page.click(START);
      await page.waitFor(
        'the call',
        () =>
          /^(Listening|Pepa is speaking)/.test(
            (window as unknown as JourneyWindow).__journey.lines().status,
          ),
        [],
      );
      await step(page, 'in-call', { inView: [FIELD, END], focused: null, axe: '#talk' });

      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await page.waitFor('the bar', () => document.querySelector('[data-call-dock]') !== null, []);
      await step(page, 'docked', { inView: [DOCK, DOCK_END], focused: null, axe: DOCK });

      await page.click({
        role: 'button',
        name: `Back to the call: ${await page.evaluate(() => (window as unknown as JourneyWindow).__journey.lines().status)}`,
        within: DOCK,
      });
      await page.waitFor('the call in view', () => !document.querySelector('[data-call-dock]'), []);
      await page.type(FIELD, STAKE_QUESTION, { enter: true });
      await page.waitFor('the Pond', () => document.activeElement?.id === 'pond', []);
      await page.waitFor('the bar', () => document.querySelector('[data-call-dock]') !== null, []);
      await step(page, 'section', {
        inView: ['#pond h2', DOCK, DOCK_END],
        focused: null,
        axe: DOCK,
      });

      await page.click(DOCK_END);
      await page.waitFor(
        'the call to end',
        () => (window as unknown as JourneyWindow).__journey.lines().status === 'Ready to chat',
        [],
      );
      await page.waitFor(
        'the rating',
        () => document.querySelector('#talk [aria-labelledby="rating-title"]') !== null,
        [],
      );
      await step(page, 'ended', {
        inView: ['#talk [aria-labelledby="rating-title"]'],
        focused: START,
        axe: '#talk',
      });
      expect(await page.problems()).toEqual([]);
    },
  );

  it.each(SIZES)(
    'a refused microphone at $width px lands in the text chat, the way to allow it in view',
    async (size) => {
      await open(page, size);
      await page.evaluate(refuseMicrophone);
      await page.click(START);
      await page.waitFor(
        'the note',
        () =>
          (document.querySelector('#talk [role="note"]')?.textContent ?? '').includes(
            'microphone is blocked',
          ),
        [],
      );
      await page.waitFor('the chat', () => document.querySelector('#talk textarea') !== null, []);
      await step(page, 'blocked', {
        inView: ['#talk [role="note"]', FIELD],
        focused: FIELD,
        axe: '#talk',
      });
      const problems = await page.problems();
      expect(
        problems.filter(
          (problem) => !/Permission denied|NotAllowedError|microphone/i.test(problem),
        ),
      ).toEqual([]);
    },
  );
});
