/**
 * The way out when a chunk of the call view cannot be loaded twice in a row. An engine that
 * keeps a failed dynamic import (all before whatwg/html#10327, and every engine for a module that
 * arrived corrupt) answers every later import of it with that failure, without a request; only a
 * new document asks again. So the page reloads, scrolled to Talk to Pepa, and starts the call the
 * visitor asked for as soon as it can. It does so only when the site answers (a visitor who is
 * offline keeps the page and is told the chat didn't load), and at most once in
 * `RELOAD_GAP_MS`, so a chunk that is broken on the server cannot make the page reload in a loop.
 */

/** sessionStorage: when the page reloaded to start a call (ms since the epoch). */
export const RESUME_KEY = 'pepa:resume-call';
/** A request to start the call is honoured this long after the reload that carried it. */
export const RESUME_WITHIN_MS = 30_000;
/** At most one recovery reload in this long. */
export const RELOAD_GAP_MS = 10_000;
/** How long the site is given to answer before the page keeps its failure instead. */
const PROBE_TIMEOUT_MS = 5000;

function readNote(): number | null {
  try {
    const value = Number(sessionStorage.getItem(RESUME_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

async function siteAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'HEAD',
      cache: 'no-store',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Reloads the page to start the call there, and never settles (the page goes away); rejects with
 * `error` when a reload would not help (the site does not answer) or one just happened.
 */
export async function reloadToResume<T>(error: unknown): Promise<T> {
  const last = readNote();
  if (last !== null && Date.now() - last < RELOAD_GAP_MS) throw error;
  const page = new URL(window.location.href);
  page.hash = '';
  if (!(await siteAnswers(page.href))) throw error;
  try {
    sessionStorage.setItem(RESUME_KEY, String(Date.now()));
  } catch {
    // Without storage the reload still loads the chunk; the visitor presses Start once more.
  }
  window.history.replaceState(window.history.state, '', '#talk');
  window.location.reload();
  return new Promise<T>(() => undefined);
}

/**
 * True once after a recovery reload: the page should start the call. The note stays (for
 * `RELOAD_GAP_MS`) but is marked taken, so a second start of the app does not start another call.
 */
export function takeResumeRequest(now = Date.now()): boolean {
  const at = readNote();
  if (at === null) return false;
  try {
    if (sessionStorage.getItem(`${RESUME_KEY}:taken`) === String(at)) return false;
    sessionStorage.setItem(`${RESUME_KEY}:taken`, String(at));
  } catch {
    return false;
  }
  return now - at < RESUME_WITHIN_MS;
}
