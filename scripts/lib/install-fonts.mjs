// @ts-check
// The page's fonts, installed from the page itself before anything is laid out. The built page
// carries both font subsets as base64 in this script's `data-faces` attribute; the script turns
// each into a FontFace from its bytes and adds it to `document.fonts`. A face made from bytes is
// ready at once, so the first layout already sets the hero in Cinzel and the text in Inter: no
// invisible text while a font decodes, no second layout when it arrives, and the title paints in
// the same frame as the rest of the first screen.
//
// The stylesheet keeps its @font-face rules, pointing at the same files under /assets/. They are
// for a visitor without script. The script follows the page's <style> and removes the rules of
// each family it installed: an installed face wins the match, but WebKit still fetches the files
// of same-named stylesheet faces (two requests before the first paint). A family whose face could
// not be installed keeps its stylesheet face. The script's text does not change from one
// build to the next (the fonts are in the attribute), so neither does the hash the
// Content-Security-Policy allows it by.
import { cspHash, escapeAttribute } from './inline-html.mjs';

export const INSTALL_FONTS = [
  '(function () {',
  '  var tag = document.currentScript;',
  '  if (!tag || !window.FontFace || !document.fonts || !window.atob) return;',
  '  var faces;',
  '  try {',
  '    faces = JSON.parse(tag.getAttribute("data-faces") || "[]");',
  '  } catch (error) {',
  '    return;',
  '  }',
  '  var installed = {};',
  '  for (var i = 0; i < faces.length; i++) {',
  '    try {',
  '      var bytes;',
  '      if (Uint8Array.fromBase64) {',
  '        bytes = Uint8Array.fromBase64(faces[i].data);',
  '      } else {',
  '        var text = atob(faces[i].data);',
  '        bytes = new Uint8Array(text.length);',
  '        for (var j = 0; j < text.length; j++) bytes[j] = text.charCodeAt(j);',
  '      }',
  '      document.fonts.add(new FontFace(faces[i].family, bytes, faces[i].descriptors));',
  '      installed[faces[i].family] = true;',
  '    } catch (error) {',
  "      // A face that cannot be installed leaves the stylesheet's own face in charge.",
  '    }',
  '  }',
  '  var sheets = document.styleSheets || [];',
  '  for (var s = 0; s < sheets.length; s++) {',
  '    var rules = sheets[s].cssRules;',
  '    for (var r = rules.length - 1; r >= 0; r--) {',
  '      var rule = rules[r];',
  '      if (rule.type !== 5 || rule.cssText.indexOf("url(") < 0) continue;',
  '      var family = rule.style.getPropertyValue("font-family").replace(/^["\']|["\']$/g, "");',
  '      if (installed[family]) sheets[s].deleteRule(r);',
  '    }',
  '  }',
  '})();',
].join('\n');

/** The CSP source that allows exactly this script, e.g. `'sha256-…'`. */
export const INSTALL_FONTS_HASH = cspHash(INSTALL_FONTS);

/**
 * @typedef {{ family: string, url: string,
 *   descriptors: { weight?: string, style?: string, display?: string, unicodeRange?: string } }}
 *   FontFaceRule
 */

const DESCRIPTORS = /** @type {const} */ ([
  ['font-weight', 'weight'],
  ['font-style', 'style'],
  ['font-display', 'display'],
  ['unicode-range', 'unicodeRange'],
]);

/**
 * The @font-face rules of a stylesheet whose source is a woff2 file under /assets/, with the
 * descriptors a FontFace needs to match them exactly. Rules with `local()` sources are left out.
 * @param {string} css
 * @returns {FontFaceRule[]}
 */
export function fontFaceRules(css) {
  const rules = [];
  for (const [, body = ''] of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const url = /url\(\s*["']?(\/assets\/[^"')]+\.woff2)["']?\s*\)/.exec(body)?.[1];
    if (!url) continue;
    const family = /font-family:\s*([^;]+)/
      .exec(body)?.[1]
      ?.trim()
      .replace(/^["']|["']$/g, '');
    if (!family) throw new Error(`An @font-face for ${url} names no font-family`);
    /** @type {FontFaceRule['descriptors']} */
    const descriptors = {};
    for (const [property, key] of DESCRIPTORS) {
      const value = new RegExp(`(?:^|;)\\s*${property}:\\s*([^;]+)`).exec(body)?.[1]?.trim();
      if (value) descriptors[key] = value;
    }
    rules.push({ family, url, descriptors });
  }
  return rules;
}

/**
 * The script element that installs `faces`, each with its woff2 bytes.
 * @param {{ family: string, descriptors: FontFaceRule['descriptors'], bytes: Uint8Array }[]} faces
 */
export function installFontsTag(faces) {
  const json = JSON.stringify(
    faces.map(({ family, descriptors, bytes }) => ({
      family,
      descriptors,
      data: Buffer.from(bytes).toString('base64'),
    })),
  );
  return `<script data-faces="${escapeAttribute(json)}">${INSTALL_FONTS}</script>`;
}
