// The inline script that starts the app. A built page carries its text, styles and fonts (those
// installed by scripts/lib/install-fonts.mjs), so it can paint from the HTML alone; this starts the
// app (and asks for the web app manifest) once that first paint has happened, so neither request
// nor the script's evaluation stands between a visitor and the first screen. A browser without
// paint timing starts it on the load event instead; a page opened in a background tab paints, and
// so starts, when it is first shown. The app's URL is the script element's `data-entry`, so this
// text, and the hash the Content-Security-Policy allows it by, do not change from one build to
// the next.
import { cspHash } from './inline-html.mjs';

export const START_AFTER_PAINT = [
  '(function () {',
  '  var tag = document.currentScript;',
  '  var entry = tag.getAttribute("data-entry");',
  '  var manifest = tag.getAttribute("data-manifest");',
  '  var started = false;',
  '  function start() {',
  '    if (started) return;',
  '    started = true;',
  '    var app = document.createElement("script");',
  '    app.type = "module";',
  '    app.src = entry;',
  '    document.head.appendChild(app);',
  '    if (manifest) {',
  '      var link = document.createElement("link");',
  '      link.rel = "manifest";',
  '      link.href = manifest;',
  '      document.head.appendChild(link);',
  '    }',
  '  }',
  '  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;',
  '  if (!types || types.indexOf("paint") < 0) {',
  '    addEventListener("load", start, { once: true });',
  '    return;',
  '  }',
  '  var paints = new PerformanceObserver(function (list) {',
  '    if (list.getEntriesByName("first-contentful-paint").length === 0) return;',
  '    paints.disconnect();',
  '    start();',
  '  });',
  '  paints.observe({ type: "paint", buffered: true });',
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
