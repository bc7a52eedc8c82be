// The inline script that starts the app. A built page carries its text, styles and fonts (those
// installed by scripts/lib/install-fonts.mjs), so it can paint from the HTML alone; this starts the
// app (and asks for the web app manifest) once the page has been parsed and painted, so neither
// request nor the script's evaluation stands between a visitor and the first screen.
//
// Painted means the engine has reported the first contentful paint, where it reports paint timing
// (a PerformanceObserver that knows the 'paint' entry type; `buffered` finds a paint that came
// before the observer). Frames are not a paint: a frame begun is not yet on the screen, and on a
// busy machine the first paint reaches it many frames later, so an app asked for two frames in
// raced it (and lost most loads). Where the engine reports no paint, frames stand in for it: an
// old engine without paint timing starts once two frames have begun (a frame is painted before the
// next one begins), and a page found scrolled once PAINT_WAIT_FRAMES frames have begun without a
// paint reported (Firefox reports none for a page that first paints scrolled: an address with a
// section, a reload after scrolling, a return to a page loaded again). A page at the top in an
// engine with paint timing waits for it, bounded by PAINT_START_BOUND_MS. A page opened in a
// background tab draws none until it is shown, so it starts when it is first shown, leaving the
// foreground tab the machine for its first seconds; a parsed page still hidden ten seconds after
// it was first found hidden starts anyway (a tab never shown, a prerendered page, a browser that
// never reports the page shown), so no page waits for nothing. As a bound for an engine without
// paint timing that draws no frame for a page it says is shown, the app starts once the page has
// been parsed and shown for a second.
//
// Should the app's script fail to load, the taps kept for it (scripts/lib/early-taps.mjs) are let
// go, so no later tap is kept for nobody. The app's URL is the script element's `data-entry`, so
// this text, and the hash the Content-Security-Policy allows it by, do not change from one build
// to the next. It travels in every page, so it is written short and sent as one line (each line
// here ends a statement), with nothing newer than 2017.
import { cspHash } from './inline-html.mjs';

/** How long a parsed, shown page waits for a frame before the app starts anyway. */
export const START_BOUND_MS = 1000;

/** How long a parsed page found hidden, and never shown, waits before the app starts anyway. */
export const HIDDEN_START_BOUND_MS = 10_000;

/**
 * Frames a parsed, shown page that is scrolled waits for a first contentful paint an engine with
 * paint timing has not reported (about a sixth of a second at 60 frames a second), before the app
 * starts anyway: Firefox sends none for a page that first paints scrolled.
 */
export const PAINT_WAIT_FRAMES = 10;

/**
 * How long a parsed, shown page at the top waits for the first contentful paint an engine with
 * paint timing has not reported, before the app starts anyway. Frames do not bound it: on a busy
 * machine the first paint reaches the screen many frames after they began (seen: 2.9 s after the
 * navigation began, the frames long past).
 */
export const PAINT_START_BOUND_MS = 5000;

export const START_AFTER_PAINT = [
  '(function () {',
  'var tag = document.currentScript, entry = tag.getAttribute("data-entry"), manifest = tag.getAttribute("data-manifest"), started, parsed, painted, P = window.PerformanceObserver, paints = P && P.supportedEntryTypes && P.supportedEntryTypes.indexOf("paint") >= 0;',
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
  // The first contentful paint, however early it came: a page parsed and painted starts.
  'if (paints) try {',
  'new P(function (list, observer) {',
  'if (list.getEntriesByName("first-contentful-paint").length) observer.disconnect(), painted = true, parsed && start();',
  '}).observe({ type: "paint", buffered: true });',
  '} catch (error) {',
  'paints = false;',
  '}',
  'function shown() {',
  'if (started) return;',
  // Added once however often: the same listener is not added twice, and the first bound set is
  // the one that counts.
  `if (document.visibilityState == "hidden") return document.addEventListener("visibilitychange", shown), setTimeout(start, ${HIDDEN_START_BOUND_MS});`,
  'var frames = 0;',
  'requestAnimationFrame(function frame() {',
  `if (++frames < (paints ? ${PAINT_WAIT_FRAMES} : 2)) requestAnimationFrame(frame);`,
  'else if (!paints || window.pageYOffset) start();',
  '});',
  'setTimeout(function () {',
  'document.visibilityState == "hidden" ? shown() : start();',
  `}, paints ? ${PAINT_START_BOUND_MS} : ${START_BOUND_MS});`,
  '}',
  'function ready() {',
  'parsed = true;',
  'painted ? start() : shown();',
  '}',
  'document.readyState == "loading" ? document.addEventListener("DOMContentLoaded", ready) : ready();',
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
