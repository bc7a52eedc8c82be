// The inline script that starts the app. A built page carries its text, styles and fonts (those
// installed by scripts/lib/install-fonts.mjs), so it can paint from the HTML alone; this starts the
// app (and asks for the web app manifest) once that first paint has happened, so neither request
// nor the script's evaluation stands between a visitor and the first screen.
//
// The first paint is known two ways, whichever comes first: the browser reports the first
// contentful paint, or, once the page is parsed and shown, two animation frames have begun (the
// first frame is painted before the second begins). Paint timing alone is not enough: Firefox
// reports no first contentful paint when the page first paints scrolled (an address with a
// section, a reload after scrolling, a return to a page loaded again), and a browser without paint
// timing reports none at all. A page opened in a background tab draws no frame until it is
// shown, so it starts when it is first shown, as the paint would have it. And as a bound for an
// engine that draws no frame for a page it says is shown, the app starts once the page has been
// parsed and shown for a second.
//
// Should the app's script fail to load, the taps kept for it (scripts/lib/early-taps.mjs) are
// let go, so the page's links and buttons keep doing what they do without the app. The app's URL
// is the script element's `data-entry`, so this text, and the hash the Content-Security-Policy
// allows it by, do not change from one build to the next. Nothing here is newer than 2017's
// engines but paint timing, which is only used where it is reported.
import { cspHash } from './inline-html.mjs';

/** How long a parsed, shown page waits for a frame before the app starts anyway. */
export const START_BOUND_MS = 1000;

export const START_AFTER_PAINT = [
  '(function () {',
  '  var tag = document.currentScript;',
  '  var entry = tag.getAttribute("data-entry");',
  '  var manifest = tag.getAttribute("data-manifest");',
  '  var started = false;',
  '  var paints = null;',
  '  function start() {',
  '    if (started) return;',
  '    started = true;',
  '    if (paints) paints.disconnect();',
  '    var app = document.createElement("script");',
  '    app.type = "module";',
  '    app.src = entry;',
  '    app.onerror = function () {',
  '      var taps = window.__pepaEarlyTaps ? window.__pepaEarlyTaps() : [];',
  '      for (var i = 0; i < taps.length; i++) taps[i].control.removeAttribute("data-pressed");',
  '    };',
  '    document.head.appendChild(app);',
  '    if (manifest) {',
  '      var link = document.createElement("link");',
  '      link.rel = "manifest";',
  '      link.href = manifest;',
  '      document.head.appendChild(link);',
  '    }',
  '  }',
  '  function whenShown() {',
  '    if (started) return;',
  '    if (document.visibilityState === "hidden") {',
  '      document.addEventListener("visibilitychange", whenShown, { once: true });',
  '      return;',
  '    }',
  '    if (window.requestAnimationFrame) {',
  '      requestAnimationFrame(function () {',
  '        requestAnimationFrame(start);',
  '      });',
  '    }',
  `    setTimeout(function () {`,
  '      if (document.visibilityState === "hidden") whenShown();',
  '      else start();',
  `    }, ${START_BOUND_MS});`,
  '  }',
  '  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;',
  '  if (types && types.indexOf("paint") >= 0) {',
  '    paints = new PerformanceObserver(function (list) {',
  '      if (list.getEntriesByName("first-contentful-paint").length > 0) start();',
  '    });',
  '    paints.observe({ type: "paint", buffered: true });',
  '  }',
  '  if (document.readyState === "loading") {',
  '    document.addEventListener("DOMContentLoaded", whenShown, { once: true });',
  '  } else {',
  '    whenShown();',
  '  }',
  '})();',
].join('\n');

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
