// @ts-check
// One visitor's whole conversation with Pepa, walked in a browser step by step: the browser
// suite's journey (e2e/journey.spec.ts) asserts each step, and `npm run screenshots` photographs
// each one (docs/screenshots/journey-<step>-<width>.png). One walk, so the pictures are of what the
// test checks. Every wait is for something the page shows; nothing sleeps.
//
// The journey, on a court with one voice place held by another page: first arrival → Talk to Pepa
// → Write to Pepa → in line while chatting → Escape in the line → the place offered → into voice
// (the chat comes along) → Escape in the call → Pepa shows a section (the call docked) → End Call
// from the bar → the transcript and the rating. And a visitor whose microphone is refused, who
// lands in the text chat.
/* global window, document, requestAnimationFrame, AudioContext, MediaStream */

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */

/**
 * What a step shows: what must be wholly in the viewport, what has the focus (`'page'`: nothing,
 * the document's body), and, for the call, the thread's lines as read then.
 * @typedef {{
 *   name: string,
 *   inView: Locator[],
 *   partlyInView?: Locator[],
 *   focused: Locator | 'page',
 *   axe: string[],
 *   thread?: string[],
 * }} JourneyStep
 */

/** @typedef {(step: JourneyStep) => Promise<void>} AtStep */

export {
  contradictions,
  focusNow,
  recordedStatusLines,
  recordStatusLines,
  statusLinesNow,
} from './journey-lines.mjs';

export const JOURNEY_STEPS = [
  'arrival',
  'talk',
  'chat',
  'line',
  'escape-line',
  'offered',
  'call',
  'escape-call',
  'section',
  'ended',
];

/** The call's question that finds its answer in the section Pepa shows (the Pond). */
export const STAKE_QUESTION = 'Where do I stake?';
/** What the visitor types while waiting in line. */
export const LINE_QUESTION = 'Who rules the pond?';
/** Long enough for a busy machine; a step waits for what it shows, never for a time. */
const STEP_TIMEOUT_MS = 30_000;
/** Escape's question stays this long (src/features/talk/status/use-escape-to-end.ts), and a bit. */
const QUESTION_GONE_MS = 15_000;

/** The page's controls, by role and name. @param {Page} page */
export function journeyControls(page) {
  const section = page.locator('#talk');
  const dock = page.getByRole('region', { name: 'Your call with Pepa' });
  return {
    section,
    heading: section.getByRole('heading', { name: 'Talk to Pepa' }),
    status: section.getByRole('status'),
    start: section.getByRole('button', { name: 'Start Talking' }),
    write: section.getByRole('button', { name: 'Write to Pepa' }),
    end: section.getByRole('button', { name: 'End Call' }),
    leave: section.getByRole('button', { name: 'Leave the line' }),
    take: section.getByRole('button', { name: 'Your turn: talk to Pepa' }),
    field: section.getByRole('textbox', { name: 'Message to Pepa' }),
    send: section.getByRole('button', { name: 'Send', exact: true }),
    openings: section.getByRole('group', { name: 'Ways to begin' }),
    chatLog: section.getByRole('log', { name: 'Your conversation with Pepa' }),
    captions: section.getByRole('log', { name: 'Captions' }),
    place: section.getByText(/^You're (next|\d+\w\w in line) — about \d+ (s|min)\.$/),
    askLeave: section.getByText('Leave the line? Press Escape again or Leave the line.'),
    askEnd: section.getByText('End the call? Press Escape again or End Call.'),
    rating: section.getByRole('region', { name: 'How was your audience with the Queen?' }),
    blockedNote: section.getByRole('note').filter({ hasText: 'microphone is blocked' }),
    dock,
    dockEnd: dock.getByRole('button', { name: 'End Call' }),
    pond: page.locator('#pond'),
  };
}

/**
 * Every microphone the page opens hears nothing, as for a visitor who only types: the demo's room
 * takes the fake microphone's beeps for speech. Stopping the silent track stops the microphone's.
 * @param {Page} page
 */
export async function quietMicrophone(page) {
  await page.addInitScript(() => {
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
  });
}

/** The browser refuses the microphone, as it does for a visitor who said no. @param {Page} page */
export async function refuseMicrophone(page) {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = async () => {
      throw new DOMException('Permission denied', 'NotAllowedError');
    };
  });
}

/** Scroll has come to rest: the same position in two frames in a row. @param {Page} page */
export async function scrollSettled(page) {
  await page.waitForFunction(
    () =>
      new Promise((resolve) => {
        const y = window.scrollY;
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY === y)));
      }),
    undefined,
    { timeout: STEP_TIMEOUT_MS },
  );
}

/** The app has hydrated the prerendered page. @param {Page} page */
async function hydrated(page) {
  await page.waitForFunction(
    () => {
      const root = document.getElementById('root');
      return root !== null && Object.keys(root).some((key) => key.startsWith('__reactContainer'));
    },
    undefined,
    { timeout: STEP_TIMEOUT_MS },
  );
}

/** Each line of a thread as "<typed|spoken> <the line>", oldest first. @param {Locator} log */
export async function threadLines(log) {
  return log
    .locator('[data-thread-line]:not([aria-hidden])')
    .evaluateAll((lines) =>
      lines.map(
        (line) =>
          `${line.querySelector('[data-via]')?.getAttribute('aria-label') ?? '?'} ${(line.textContent ?? '').replace(/\s+/g, ' ').trim()}`,
      ),
    );
}

/**
 * Reads the thread once a frame until `until` holds for it, and returns it.
 * @param {Page} page
 * @param {Locator} log
 * @param {(lines: string[]) => boolean} until
 * @param {string} what
 */
async function threadUntil(page, log, until, what) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const lines = await threadLines(log).catch(() => /** @type {string[]} */ ([]));
    if (until(lines)) return lines;
    if (Date.now() > deadline) throw new Error(`No ${what} in: ${JSON.stringify(lines)}`);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
}

/** A tap on a touch screen, a click with a mouse. @param {Locator} control @param {boolean} touch */
async function press(control, touch) {
  if (touch) await control.tap();
  else await control.click();
}

/**
 * The whole journey. `visitor` and `holder` are pages of one browser, not yet opened; `url` is
 * the site (a court with one voice place). `at` is called at each step, once the step shows.
 * @param {{ visitor: Page, holder: Page, url: string, touch: boolean, at: AtStep }} options
 */
export async function walkJourney({ visitor, holder, url, touch, at }) {
  const v = journeyControls(visitor);
  const h = journeyControls(holder);
  const wait = { timeout: STEP_TIMEOUT_MS };

  // Another guest holds the only voice place.
  await holder.goto(url);
  await hydrated(holder);
  await h.start.click();
  await h.status.filter({ hasText: /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/ }).waitFor(wait);

  await visitor.goto(url);
  await hydrated(visitor);
  await visitor.evaluate(() => document.fonts.ready);
  const banner = visitor.getByRole('banner');
  const talkLink = banner.getByRole('link', { name: 'Talk to Pepa' }).filter({ visible: true });
  await at({
    name: 'arrival',
    inView: [visitor.getByRole('heading', { level: 1 }), talkLink.first()],
    focused: 'page',
    axe: ['header'],
  });

  await press(talkLink.first(), touch);
  await v.start.waitFor(wait);
  await scrollSettled(visitor);
  await at({
    name: 'talk',
    inView: [v.heading, v.status, v.start, v.write],
    // An in-page link moves where Tab goes next, not the focus.
    focused: 'page',
    axe: ['#talk'],
  });

  // Write to Pepa: the chat opens in view, the focus in its field, with her first line.
  await press(v.write, touch);
  await v.field.waitFor(wait);
  await v.chatLog.locator('[data-thread-line]').first().waitFor(wait);
  await scrollSettled(visitor);
  await at({
    name: 'chat',
    inView: [v.field, v.chatLog.locator('[data-thread-line]').first(), v.openings],
    focused: v.field,
    axe: ['#talk'],
  });

  // Into the line, still chatting.
  await press(v.start, touch);
  await v.place.waitFor(wait);
  await v.field.fill(LINE_QUESTION);
  await v.field.press('Enter');
  const inLine = await threadUntil(
    visitor,
    v.chatLog,
    (lines) => {
      const asked = lines.findIndex((line) => line.endsWith(`You: ${LINE_QUESTION}`));
      return asked >= 0 && lines.slice(asked + 1).some((line) => / Pepa: \S/.test(line));
    },
    'answer to the line question',
  );
  await scrollSettled(visitor);
  await at({
    name: 'line',
    inView: [v.status, v.place, v.field, v.chatLog.locator('[data-thread-line]').last()],
    focused: v.field,
    axe: ['#talk'],
    thread: inLine,
  });

  // Escape in the line asks first; unanswered, the place is kept.
  await v.leave.focus();
  await visitor.keyboard.press('Escape');
  await v.askLeave.waitFor(wait);
  await scrollSettled(visitor);
  await at({
    name: 'escape-line',
    inView: [v.askLeave, v.leave],
    focused: v.leave,
    axe: ['#talk'],
  });
  await v.askLeave.waitFor({ state: 'hidden', timeout: QUESTION_GONE_MS });

  // The other guest hangs up: the place is offered to the visitor.
  await h.end.click();
  await v.take.waitFor(wait);
  await scrollSettled(visitor);
  // The focus stays where the visitor left it; the offer is announced, not forced on them.
  await at({ name: 'offered', inView: [v.take, v.status], focused: v.leave, axe: ['#talk'] });

  // One tap into voice: the chat comes along, and Pepa picks up from it.
  await press(v.take, touch);
  await v.end.waitFor(wait);
  const inCall = await threadUntil(
    visitor,
    v.captions,
    (lines) => lines.some((line) => line.startsWith('spoken Pepa: ')),
    'spoken line of Pepa',
  );
  await scrollSettled(visitor);
  await at({
    name: 'call',
    inView: [v.status, v.field, v.end],
    partlyInView: [v.captions],
    // The tapped offer gone, the focus is on the call's own button, not fallen to the page.
    focused: v.end,
    axe: ['#talk'],
    thread: inCall,
  });

  // Escape in the call asks first; unanswered, the call goes on.
  await v.end.focus();
  await visitor.keyboard.press('Escape');
  await v.askEnd.waitFor(wait);
  await at({ name: 'escape-call', inView: [v.askEnd, v.end], focused: v.end, axe: ['#talk'] });
  await v.askEnd.waitFor({ state: 'hidden', timeout: QUESTION_GONE_MS });

  // Pepa shows the Pond: the page goes there, and the call docks into the bar.
  await v.field.fill(STAKE_QUESTION);
  await v.send.click();
  await v.dock.waitFor(wait);
  await visitor.waitForFunction(() => document.activeElement?.id === 'pond', undefined, wait);
  await scrollSettled(visitor);
  await at({
    name: 'section',
    inView: [v.pond.getByRole('heading').first(), v.dock, v.dockEnd],
    focused: v.pond,
    axe: ['#pond', '[data-call-dock]'],
  });

  // End Call from the bar: the transcript and the rating.
  await v.dockEnd.click();
  await v.rating.waitFor(wait);
  await v.status.filter({ hasText: 'Ready to chat' }).waitFor(wait);
  await scrollSettled(visitor);
  await at({
    name: 'ended',
    inView: [v.rating],
    partlyInView: [v.chatLog],
    focused: v.start,
    axe: ['#talk'],
    thread: await threadLines(v.chatLog),
  });
}

/**
 * A visitor whose browser refuses the microphone presses Start Talking, and lands in the text
 * chat with the way to allow the microphone in view.
 * @param {{ visitor: Page, url: string, touch: boolean, at: AtStep }} options
 */
export async function walkRefusedMicrophone({ visitor, url, touch, at }) {
  const v = journeyControls(visitor);
  const wait = { timeout: STEP_TIMEOUT_MS };
  await visitor.goto(url);
  await hydrated(visitor);
  await visitor.evaluate(() => document.fonts.ready);
  await v.start.scrollIntoViewIfNeeded();
  await press(v.start, touch);
  await v.blockedNote.waitFor(wait);
  await v.field.waitFor(wait);
  await scrollSettled(visitor);
  await at({
    name: 'blocked',
    inView: [v.status, v.blockedNote, v.field],
    focused: v.field,
    axe: ['#talk'],
  });
}
