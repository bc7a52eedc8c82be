// @ts-check
// The lines of state a visitor reads in the Talk section (its status, hints, notes, the docked
// bar's status, the toasts), as they are on screen, and the rules by which two of them disagree:
// Pepa both hearing and not, hearing with no call, the idle invitation over an open chat. Used by
// the journey (scripts/lib/journey.mjs), its browser tests and `npm run screenshots`. The
// functions marked "runs in the page" close over nothing, so they can be sent to one.
/* global window, document, getComputedStyle */

/** @typedef {import('playwright-core').Page} Page */

/**
 * Runs in the page: every line that says what state the Talk section is in (its status, hints,
 * notes and alerts, the docked bar's status, the toasts), each with whether it is in the viewport,
 * and what is open. Words of the conversation (logs, the bar's quote of Pepa) are not lines of
 * state and are left out.
 */
export function statusLinesNow() {
  /** @param {Element} element */
  const rendered = (element) => {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const style = getComputedStyle(element);
    return style.visibility !== 'hidden' && style.display !== 'none' && style.opacity !== '0';
  };
  /** @param {Element} element */
  const inView = (element) => {
    const box = element.getBoundingClientRect();
    return (
      box.bottom > 0 &&
      box.top < window.innerHeight &&
      box.right > 0 &&
      box.left < window.innerWidth
    );
  };
  const squash = (/** @type {string | null | undefined} */ text) =>
    (text ?? '').replace(/\s+/g, ' ').trim();
  /** @type {{ where: string, text: string, inView: boolean }[]} */
  const lines = [];
  const talk = document.getElementById('talk');
  const words =
    '[role="log"], [data-thread-line], [aria-labelledby="rating-title"], [aria-hidden="true"]';
  if (talk) {
    for (const element of talk.querySelectorAll(
      'p, [role="status"], [role="alert"], [role="note"]',
    )) {
      if (element.closest(words) || !rendered(element)) continue;
      // A line holding a line is read once, as the innermost.
      if (element.querySelector('p, [role="status"], [role="alert"], [role="note"]')) continue;
      const text = squash(element.textContent);
      if (text) lines.push({ where: 'talk', text, inView: inView(element) });
    }
  }
  const dock = document.querySelector('[data-call-dock]');
  const back = dock?.querySelector('button');
  if (back && rendered(back)) {
    const copy = /** @type {HTMLElement} */ (back.cloneNode(true));
    for (const drop of copy.querySelectorAll('[data-testid="dock-words"], .sr-only')) drop.remove();
    lines.push({ where: 'dock', text: squash(copy.textContent), inView: inView(back) });
  }
  for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
    if (!rendered(toast)) continue;
    lines.push({ where: 'toast', text: squash(toast.textContent), inView: inView(toast) });
  }
  /** @param {string} name */
  const control = (name) =>
    [...document.querySelectorAll('button, textarea, input')].some(
      (element) =>
        rendered(element) &&
        (element.getAttribute('aria-label') === name || squash(element.textContent) === name),
    );
  const field = [...(talk?.querySelectorAll(/** @type {'textarea'} */ ('textarea')) ?? [])].some(
    (element) =>
      rendered(element) &&
      (element.getAttribute('aria-label') === 'Message to Pepa' ||
        [...(element.labels ?? [])].some(
          (label) => squash(label.textContent) === 'Message to Pepa',
        )),
  );
  return {
    lines,
    status: squash(talk?.querySelector('[role="status"]')?.textContent),
    open: {
      field,
      call: control('End Call'),
      line: control('Leave the line'),
    },
  };
}

/** @typedef {ReturnType<typeof statusLinesNow>} StatusLines */

/** Runs in the page: what has the keyboard's focus, by role and name ('the page': nothing). */
export function focusNow() {
  const element = document.activeElement;
  if (!element || element === document.body) return 'the page';
  const tag = element.tagName.toLowerCase();
  /** @type {Record<string, string>} */
  const roles = { button: 'button', a: 'link', textarea: 'textbox', input: 'textbox' };
  const role = element.getAttribute('role') ?? roles[tag] ?? tag;
  const labelledBy = element.getAttribute('aria-labelledby');
  const labels = /** @type {HTMLInputElement} */ (element).labels;
  const name =
    element.getAttribute('aria-label') ??
    (labelledBy ? document.getElementById(labelledBy)?.textContent : null) ??
    (labels && labels.length > 0
      ? [...labels].map((label) => label.textContent).join(' ')
      : element.textContent);
  const id = element.id ? ` #${element.id}` : '';
  return `${role} "${(name ?? '').replace(/\s+/g, ' ').trim().slice(0, 60)}"${id}`;
}

/**
 * Records every distinct set of status lines the page shows, as it shows them (once a frame at
 * most), in `window.__journeyLines`: a line that came and went between two steps is still seen.
 * @param {Page} page
 */
export async function recordStatusLines(page) {
  await page.addInitScript(`(() => {
    const now = ${statusLinesNow.toString()};
    const record = [];
    window.__journeyLines = record;
    let last = '';
    let queued = false;
    const note = () => {
      queued = false;
      const seen = now();
      const key = JSON.stringify([seen.status, seen.open, seen.lines.map((line) => line.text)]);
      if (key !== last) { last = key; record.push(seen); }
    };
    document.addEventListener('DOMContentLoaded', () => {
      note();
      new MutationObserver(() => {
        if (queued) return;
        queued = true;
        requestAnimationFrame(note);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
  })()`);
}

/** The record `recordStatusLines` kept. @param {Page} page @returns {Promise<StatusLines[]>} */
export async function recordedStatusLines(page) {
  return page.evaluate(() => /** @type {any} */ (window).__journeyLines ?? []);
}

/** Lines that say Pepa hears the visitor now (not "only while you hold", not "once you take"). */
const HEARS = /\bPepa (hears you(?! only while| once)|can hear you)|Speak naturally|all ears/i;
/** Lines that say she cannot. */
const CANNOT = /can['’]t hear you|cannot hear you|hears nothing|\bMuted\b/i;
const IDLE_INVITE = 'Click the button below to start talking';

/**
 * What in one set of lines contradicts another line or what is open: Pepa both hearing and not;
 * hearing with no call; the idle invitation while a chat, the line or a call is open; "Ready to
 * chat" over a call or the line; the bar's status not the section's.
 * @param {StatusLines} seen
 * @returns {string[]}
 */
export function contradictions(seen) {
  const texts = seen.lines.map((line) => line.text);
  const hears = texts.filter((text) => HEARS.test(text));
  const cannot = texts.filter((text) => CANNOT.test(text));
  /** @type {string[]} */
  const found = [];
  const shown = `[${texts.join(' · ')}]`;
  if (hears.length > 0 && cannot.length > 0) found.push(`hears and cannot hear: ${shown}`);
  if (hears.length > 0 && !seen.open.call) found.push(`hears you with no call: ${shown}`);
  if (texts.includes(IDLE_INVITE) && (seen.open.field || seen.open.call || seen.open.line)) {
    found.push(`the idle invitation over an open chat, line or call: ${shown}`);
  }
  if (seen.status === 'Ready to chat' && (seen.open.call || seen.open.line)) {
    found.push(`'Ready to chat' over a call or the line: ${shown}`);
  }
  const dock = seen.lines.find((line) => line.where === 'dock');
  if (dock && seen.status && !dock.text.startsWith(seen.status)) {
    found.push(`the bar says '${dock.text}', the section '${seen.status}'`);
  }
  return found;
}
