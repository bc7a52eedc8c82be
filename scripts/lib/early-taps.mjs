// The inline script that keeps the taps a visitor makes before the app starts. The page paints
// from its HTML and starts the app after the first paint, so for a moment (half a second here,
// seconds on a slow phone) its buttons are drawn but nothing listens to them. This script, in the
// head, listens to clicks (a tap, and Enter or Space on a focused button, are clicks) on the
// controls marked `data-early`, before anything else on the page can (so a click React already
// listens to while it hydrates is not acted on twice): it shows the press at once
// (`data-pressed`), keeps each control once (a second tap on the same control is not a second
// press), and hands the list to the app through `window.__pepaEarlyTaps`, which also stops
// listening. The app replays what still makes sense (src/app/early-taps.ts); should the app fail
// to load, the script that starts it takes the list too, so no later tap is kept for nobody
// (scripts/lib/start-after-paint.mjs).
//
// A control that copies (`data-copy`, the text to copy) copies here, in the tap's own handler: a
// browser lets a page write to the clipboard during a tap, and WebKit does not count the app's
// replayed click as one. The app then shows how the copy went (`copied`, a promise of true when
// it was written). Its text does not change from one build to the next, so neither does the hash
// the Content-Security-Policy allows it by; it travels in every page, so it is written short and sent as one line (each line here ends a
// statement).
import { cspHash } from './inline-html.mjs';

export const EARLY_TAPS = [
  '(function () {',
  'var taps = [];',
  'function keep(event) {',
  'var control = event.target.closest && event.target.closest("[data-early]");',
  'if (!control) return;',
  'event.preventDefault();',
  'event.stopPropagation();',
  'control.setAttribute("data-pressed", "");',
  'for (var i = 0; i < taps.length; i++) if (taps[i].control === control) return;',
  'var tap = { control: control, label: control.textContent, at: performance.now() };',
  'var text = control.getAttribute("data-copy"), clipboard = navigator.clipboard;',
  'if (text && clipboard) tap.copied = clipboard.writeText(text).then(function () { return true; }, function () { return false; });',
  'taps.push(tap);',
  '}',
  'addEventListener("click", keep, true);',
  'window.__pepaEarlyTaps = function () {',
  'removeEventListener("click", keep, true);',
  'window.__pepaEarlyTaps = undefined;',
  'return taps;',
  '};',
  '})();',
].join('');

/** The CSP source that allows exactly this script, e.g. `'sha256-…'`. */
export const EARLY_TAPS_HASH = cspHash(EARLY_TAPS);

export function earlyTapsTag() {
  return `<script>${EARLY_TAPS}</script>`;
}
