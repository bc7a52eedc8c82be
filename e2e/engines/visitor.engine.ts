// The visitor's part of the browser suite in Gecko and WebKit: the first screen, the court's
// token, the menu, a whole demo call with typed messages, one thread from the chat into the call,
// the call kept on screen by its docked bar, a machine with no microphone at all, writing to
// Pepa, and axe-core on each. Chromium runs the full suite through Playwright (e2e/).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { wordsUnderDemoBadge } from '../support/demo-badge';
import type { EngineName, EnginePage } from './engine';
import { openEngine } from './launch';

const ENGINES = (process.env.ENGINES ?? 'firefox,webkit')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is EngineName => name === 'firefox' || name === 'webkit');

/** The simulated room, twice as fast: every step, in order. */
const FAST = 'simScale=0.5';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const SHOTS = 'test-results/screenshots/engines';

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

const talk = (name: string) => ({ role: 'button' as const, name, within: '#talk' });
const typeField = { role: 'textbox' as const, name: 'Message to Pepa', within: '#talk' };

/** Records every status the Talk panel shows, in the order the page showed them. */
function recordStatuses() {
  const record: string[] = [];
  (window as unknown as { __statuses?: string[] }).__statuses = record;
  const note = () => {
    const text = document.querySelector('#talk [role="status"]')?.textContent?.trim() ?? '';
    if (text && record[record.length - 1] !== text) record.push(text);
  };
  note();
  new MutationObserver(note).observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
  });
}

function statusesSeen() {
  return (window as unknown as { __statuses?: string[] }).__statuses ?? [];
}

/** The captions, as the visitor reads them. */
function captionTexts() {
  return [...document.querySelectorAll('#talk [role="log"] p:not([aria-hidden])')].map(
    (entry) => entry.textContent ?? '',
  );
}

/** Pepa answered `message`: a remark of hers follows it. */
function answered(message: string) {
  const shown = [...document.querySelectorAll('#talk [role="log"] p:not([aria-hidden])')].map(
    (node) => node.textContent ?? '',
  );
  const asked = shown.indexOf(`You: ${message}`);
  return asked >= 0 && shown.slice(asked + 1).some((text) => text.startsWith('Pepa: '));
}

/** Pepa answered `message` by text: a finished entry of hers follows it in the chat's log. */
function answeredByText(message: string) {
  const shown = [
    ...document.querySelectorAll('#talk [role="log"][aria-label="Your conversation with Pepa"] li'),
  ].map((node) => node.textContent?.replace(/\s+/g, ' ').trim() ?? '');
  const asked = shown.indexOf(`You: ${message}`);
  return asked >= 0 && shown.slice(asked + 1).some((text) => /^Pepa: \S/.test(text));
}

function textIn(selector: string) {
  return document.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

function scrollToTalk() {
  document
    .querySelector('#talk [role="status"]')
    ?.scrollIntoView({ block: 'center', behavior: 'instant' });
}

/** Write to Pepa, and the chat open: its field there, its letter box opened. */
async function openChat(page: EnginePage) {
  await page.click(talk('Write to Pepa'));
  await page.waitFor(
    'the chat to open',
    () =>
      document.querySelector('#talk textarea') !== null &&
      !(document.querySelector('#talk')?.textContent ?? '').includes('Opening the letter box'),
    [],
  );
}

/** End Call in the section, and the call ended: the status back to Ready to chat. */
async function endCall(page: EnginePage) {
  await page.click(talk('End Call'));
  await page.waitFor(
    'the call to end',
    () => document.querySelector('#talk [role="status"]')?.textContent?.trim() === 'Ready to chat',
    [],
  );
}

async function axeViolations(page: EnginePage, selector: string) {
  // Injected by the engine's client, as the axe-core integrations do: outside the page's CSP.
  if (!(await page.evaluate(() => 'axe' in window))) await page.inject(axeSource);
  return page.evaluate(async (include: string) => {
    const { axe } = window as unknown as {
      axe: {
        run(
          context: unknown,
          options: unknown,
        ): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }>;
      };
    };
    const results = await axe.run({ include: [include] }, {});
    return results.violations.map(
      (violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((n) => n.target))}`,
    );
  }, selector);
}

/** Every image drawn in the viewport has decoded (the avatar is lazy). */
function imagesInViewReady() {
  return [...document.images].every((image) => {
    const box = image.getBoundingClientRect();
    const inView = box.bottom > 0 && box.top < window.innerHeight;
    return !inView || (image.complete && image.naturalWidth > 0);
  });
}

/**
 * A screenshot named by engine and the viewport's real width (a MiniBrowser window is at least
 * 447 px wide, so WebKit's phone captures are 447 px, not 390).
 */
async function capture(page: EnginePage, name: string) {
  await page.waitFor('the images in view', imagesInViewReady, []);
  const width = await page.viewportWidth();
  await page.screenshot(`${SHOTS}/${page.engine}-${name}-${width}.png`);
}

describe.each(ENGINES)('in %s', (engine) => {
  let page: EnginePage;
  const site = inject('siteUrl');
  const shot = (name: string) => capture(page, name);

  beforeAll(async () => {
    page = await openEngine(engine, site, { microphone: true });
    await page.resize(PHONE.width, PHONE.height);
  });
  afterAll(async () => {
    await page?.close();
  });

  it("paints the first screen from the page, fetches no font file but the text face's, and hydrates", async () => {
    for (const size of [DESKTOP, PHONE]) {
      await page.resize(size.width, size.height);
      await page.goto('/');
      const fonts = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => /\.(woff2?|ttf|otf)(\?|$)/.test(name)),
      );
      // Cinzel comes with the page; Inter is the stylesheet's file (scripts/lib/font-subsets.mjs).
      expect(fonts.filter((name) => !/\/assets\/inter-text-[\w-]+\.woff2$/.test(name))).toEqual([]);
      const faces = await page.evaluate(() =>
        [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family),
      );
      expect(faces.join(' ')).toMatch(/Cinzel/);
      expect(await page.evaluate(() => document.querySelector('h1')?.textContent ?? '')).toBe(
        '$PEPA',
      );
      const overflow = await page.evaluate(
        () => (document.scrollingElement?.scrollWidth ?? 0) - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await shot('first-screen');
      expect(await page.problems()).toEqual([]);
    }
  });

  it('copies the contract address, or selects it where the clipboard is refused', async () => {
    await page.goto('/');
    await page.click({ role: 'button', name: 'Copy contract address', within: '#home' });
    const said = await page.waitFor('the copy to be announced', textIn, ['#home [role="status"]']);
    expect(said).toMatch(/^(Contract address copied|.*select.*)$/i);
    expect(await page.problems()).toEqual([]);
  });

  it('the phone menu opens and lists Talk to Pepa', async () => {
    await page.resize(PHONE.width, PHONE.height);
    await page.goto('/');
    await page.click({ role: 'button', name: 'Menu' });
    await page.waitFor(
      'the menu to open',
      () => document.getElementById('mobile-menu')?.hidden === false,
      [],
    );
    expect(await page.evaluate(textIn, '#mobile-menu')).toContain('Talk to Pepa');
    expect(await axeViolations(page, 'header')).toEqual([]);
  });

  it('a whole demo call: statuses in order, the greeting, a typed message answered, the Demo badge over no words, End Call, the transcript kept', async () => {
    for (const size of [PHONE, DESKTOP]) {
      await page.resize(size.width, size.height);
      await page.goto(`/?${FAST}`);
      await page.evaluate(scrollToTalk);
      expect(await page.evaluate(wordsUnderDemoBadge)).toEqual([]);
      await page.evaluate(recordStatuses);
      await page.click(talk('Start Talking'));
      await page.waitFor(
        'the greeting',
        () =>
          [...document.querySelectorAll('#talk [role="log"] p:not([aria-hidden])')].some((entry) =>
            entry.textContent?.includes('Ribbit! Welcome to my court'),
          ),
        [],
      );
      expect(await page.evaluate(statusesSeen)).toEqual(
        expect.arrayContaining(['Ready to chat', 'Connecting to Pepa...', 'Listening...']),
      );
      const seen = await page.evaluate(statusesSeen);
      expect(seen.indexOf('Connecting to Pepa...')).toBeLessThan(seen.indexOf('Listening...'));

      await page.type(typeField, 'Should I buy?', { enter: true });
      await page.waitFor('an answer', answered, ['Should I buy?']);
      await page.evaluate(scrollToTalk);
      await shot('in-call');
      expect(await page.evaluate(wordsUnderDemoBadge)).toEqual([]);
      expect(await axeViolations(page, '#talk')).toEqual([]);

      await endCall(page);
      const transcript = await page.evaluate(
        textIn,
        '#talk [role="region"][aria-label="Transcript"]',
      );
      expect(transcript).toContain('You: Should I buy?');
      expect(transcript).toContain('Pepa: Ribbit! Welcome to my court.');
      expect(await page.evaluate(captionTexts)).toEqual([]);
      expect(await page.problems()).toEqual([]);
    }
  });

  it("one thread: written to Pepa, then Start Talking: the chat's turns above her first spoken remark, the field in view, one transcript after", async () => {
    for (const size of [PHONE, DESKTOP]) {
      await page.resize(size.width, size.height);
      await page.goto(`/?${FAST}`);
      await page.evaluate(scrollToTalk);
      await openChat(page);
      await page.type(typeField, 'Who rules the pond?', { enter: true });
      await page.waitFor('her reply by text', answeredByText, ['Who rules the pond?']);

      await page.click(talk('Start Talking'));
      await page.waitFor(
        'her first spoken remark',
        () =>
          [
            ...document.querySelectorAll(
              '#talk [role="log"][aria-label="Captions"] [data-thread-entry]:not([aria-hidden]) [data-via]',
            ),
          ].some((via) => via.getAttribute('aria-label') === 'spoken'),
        [],
      );
      const thread = await page.evaluate(captionThread);
      const firstSpoken = thread.findIndex((entry) => entry.startsWith('spoken '));
      expect(thread.slice(0, firstSpoken)).toEqual([
        expect.stringMatching(/^typed Pepa: Ribbit! Welcome to my court/),
        'typed You: Who rules the pond?',
        expect.stringMatching(/^typed Pepa: \S/),
      ]);
      expect(thread[firstSpoken]).toMatch(/^spoken Pepa: \S/);
      await page.waitFor('the call, in view', callInView, []);
      await capture(page, 'one-thread');

      await endCall(page);
      const transcript = await page.evaluate(
        textIn,
        '#talk [role="log"][aria-label="Your conversation with Pepa"]',
      );
      expect(transcript).toContain('You: Who rules the pond?');
      expect(await page.problems()).toEqual([]);
    }
  });
});

/** Each finished entry of the call's captions as "<how it was said> <the line>", oldest first. */
function captionThread() {
  return [
    ...document.querySelectorAll(
      '#talk [role="log"][aria-label="Captions"] [data-thread-entry]:not([aria-hidden])',
    ),
  ].map(
    (entry) =>
      `${entry.querySelector('[data-via]')?.getAttribute('aria-label') ?? '?'} ${entry.textContent?.replace(/\s+/g, ' ').trim() ?? ''}`,
  );
}

/** The call's status, and the section's field, each wholly on screen below the navigation bar. */
function callInView() {
  const inView = (selector: string) => {
    const box = document.querySelector(selector)?.getBoundingClientRect();
    return box !== undefined && box.top >= 64 && box.bottom <= window.innerHeight;
  };
  return (
    inView('#talk [role="status"][data-phase]') &&
    inView('#talk textarea, #talk input[type="text"]')
  );
}

/** The docked bar, wholly on screen, or null while there is none. */
function dockInView() {
  const bar = document.querySelector('[data-call-dock]');
  if (!bar) return null;
  const box = bar.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight ? true : null;
}

function dockGone() {
  return document.querySelector('[data-call-dock]') === null;
}

function dockReturnName() {
  return document.querySelector('[data-call-dock] button')?.getAttribute('aria-label') ?? '';
}

function focusedName() {
  return document.activeElement?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}

describe.each(ENGINES)('in %s, the call kept on screen', (engine) => {
  let page: EnginePage;
  const site = inject('siteUrl');

  beforeAll(async () => {
    page = await openEngine(engine, site, { microphone: true });
  });
  afterAll(async () => {
    await page?.close();
  });

  it('in view at the press, docked when scrolled away, back with a tap, ended from the bar', async () => {
    for (const size of [PHONE, DESKTOP]) {
      await page.resize(size.width, size.height);
      await page.goto(`/?${FAST}`);
      await page.evaluate(scrollToTalk);
      await page.click(talk('Start Talking'));
      await page.waitFor('the call, in view', callInView, []);
      expect(await page.evaluate(dockGone)).toBe(true);

      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await page.waitFor('the docked bar', dockInView, []);
      await capture(page, 'docked');
      expect(await page.evaluate(dockReturnName)).toMatch(
        /^Back to the call: (Listening|Pepa is speaking)\.\.\./,
      );
      await page.click({
        role: 'button',
        name: await page.evaluate(dockReturnName),
        within: '[data-call-dock]',
      });
      await page.waitFor(
        'the call back, the bar gone',
        () => document.querySelector('[data-call-dock]') === null,
        [],
      );
      expect(await page.evaluate(focusedName)).toBe('End Call');

      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await page.waitFor('the docked bar', dockInView, []);
      await page.click({ role: 'button', name: 'End Call', within: '[data-call-dock]' });
      await page.waitFor(
        'the call to end, in its section',
        () => {
          const status = document.querySelector('#talk [role="status"][data-phase]');
          const box = status?.getBoundingClientRect();
          return (
            status?.textContent?.trim() === 'Ready to chat' &&
            box !== undefined &&
            box.top >= 64 &&
            box.bottom <= window.innerHeight &&
            document.querySelector('[data-call-dock]') === null
          );
        },
        [],
      );
      expect(await page.evaluate(focusedName)).toBe('Start Talking');
      expect(await page.problems()).toEqual([]);
    }
  });
});

describe.each(ENGINES)('in %s with no microphone at all', (engine) => {
  let page: EnginePage;
  const site = inject('siteUrl');

  beforeAll(async () => {
    page = await openEngine(engine, site, { microphone: false });
    await page.resize(PHONE.width, PHONE.height);
  });
  afterAll(async () => {
    await page?.close();
  });

  it('says no microphone was found, blames no permission, and offers no call without it', async () => {
    await page.goto(`/?${FAST}`);
    await page.evaluate(scrollToTalk);
    await page.click(talk('Start Talking'));
    await page.waitFor(
      'the reason',
      () =>
        (document.querySelector('#talk')?.textContent ?? '').includes('No microphone was found'),
      [],
    );
    const panel = await page.evaluate(textIn, '#talk');
    expect(panel).not.toMatch(/microphone is blocked|permission/i);
    await page.evaluate(scrollToTalk);
    await capture(page, 'no-microphone');
    // No call joins without the microphone (no typing-only call): the text chat is the way.
    expect(await page.evaluate(textIn, '#talk')).not.toMatch(/instead|write back/i);
  });

  it('types with Pepa without a call: her reply streamed through the gate, the panel axe-clean', async () => {
    await page.goto(`/?${FAST}`);
    await page.evaluate(scrollToTalk);
    await openChat(page);
    await page.type(typeField, 'What is $PEPA?', { enter: true });
    await page.waitFor('her reply by text', answeredByText, ['What is $PEPA?']);
    expect(await axeViolations(page, '#talk')).toEqual([]);
    await page.evaluate(scrollToTalk);
    await capture(page, 'text-with-pepa');
    await page.click(talk('Close chat'));
    expect(await page.problems()).toEqual([]);
  });
});
