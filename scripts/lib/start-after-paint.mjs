// The inline script that starts the app. A built page carries its text, styles and fonts (those
// installed by scripts/lib/install-fonts.mjs), so it can paint from the HTML alone; this starts the
// app (and asks for the web app manifest) once the page has been parsed and painted, so neither
// request nor the script's evaluation stands between a visitor and the first screen.
//
// Painted means two animation frames have begun since the page was parsed: a frame is painted
// before the next one begins. Frames, not paint timing: Firefox reports no first contentful paint
// for a page that first paints scrolled (an address with a section, a reload after scrolling, a
// return to a page loaded again), and old browsers report none at all; every engine draws frames.
// A page opened in a background tab draws none until it is shown, so it starts when it is first
// shown. As a bound for an engine that draws no frame for a page it says is shown, the app starts
// once the page has been parsed and shown for a second.
//
// Should the app's script fail to load, the taps kept for it (scripts/lib/early-taps.mjs) are let
// go, so no later tap is kept for nobody. The app's URL is the script element's `data-entry`, so
// this text, and the hash the Content-Security-Policy allows it by, do not change from one build
// to the next. It travels in every page, so it is written short and sent as one line (each line
// here ends a statement), with nothing newer than 2017.
import { cspHash } from './inline-html.mjs';

/** How long a parsed, shown page waits for a frame before the app starts anyway. */
export const START_BOUND_MS = 1000;

export const START_AFTER_PAINT = [
  '(function () {',
  'var tag = document.currentScript, entry = tag.getAttribute("data-entry"), manifest = tag.getAttribute("data-manifest"), started;',
  'function start() {',
  'if (started) return;',
  'started = true;',
  'var app = document.createElement("script");',
  'app.type = "module";',
  'app.src = entry;',
  'app.onerror = function () {',
  'var taps = window.__pepaEarlyTaps ? window.__pepaEarlyTaps() : [];',
  'for (var i = 0; i < taps.length; i++) taps[i].control.removeAttribute("data-pressed");',
  '};',
  'document.head.appendChild(app);',
  'if (manifest) {',
  'var link = document.createElement("link");',
  'link.rel = "manifest";',
  'link.href = manifest;',
  'document.head.appendChild(link);',
  '}',
  '}',
  'function shown() {',
  'if (started) return;',
  // Added once however often: the same listener is not added twice.
  'if (document.visibilityState == "hidden") return document.addEventListener("visibilitychange", shown);',
  'requestAnimationFrame(function () {',
  'requestAnimationFrame(start);',
  '});',
  'setTimeout(function () {',
  'document.visibilityState == "hidden" ? shown() : start();',
  `}, ${START_BOUND_MS});`,
  '}',
  'document.readyState == "loading" ? document.addEventListener("DOMContentLoaded", shown) : shown();',
  '})();',
].join('');

/** The CSP source that allows exactly this script, e.g. `'sha256-…'`. */
export const START_AFTER_PAINT_HASH = cspHash(START_AFTER_PAINT);

/**
 * The script element that starts the app at `entry` and adds the manifest link at `manifest`.
 * @param {{ entry: string, manifest?: string }} urls
 */
export function startAfterPaintTag({ entry, manifest }) {
  const attributes = [
    `data-entry="${entry}"`,
    ...(manifest ? [`data-manifest="${manifest}"`] : []),
  ];
  return `<script ${attributes.join(' ')}>${START_AFTER_PAINT}</script>`;
}
