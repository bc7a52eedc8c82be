// @ts-check
// The two fonts the page ships, each cut down to the characters the site's copy is written in:
// shared by the script that writes them (scripts/subset-fonts.mjs), the stylesheet's @font-face
// rules (kept equal by a unit test), the build that carries the display face inside the page, and
// the browser test that checks the page's text fits them.

/**
 * The characters both subsets keep: printable ASCII, and the typographic marks the copy uses
 * (no-break space, ©, ·, ×, en and em dashes, curly quotes, ellipsis, ›). A character outside
 * these falls back to the next font of the stack, so a new one belongs here first.
 */
export const SUBSET_RANGES = [
  'U+0020-007E',
  'U+00A0',
  'U+00A9',
  'U+00B7',
  'U+00D7',
  'U+2013-2014',
  'U+2018-2019',
  'U+201C-201D',
  'U+2026',
  'U+203A',
];

/**
 * @typedef {{
 *   family: string,
 *   file: string,
 *   source: string,
 *   axes?: Record<string, [number, number]>,
 *   inPage: boolean,
 * }} FontSubset
 */

/**
 * Each subset: the CSS family it is declared as, the committed file (relative to the repository
 * root), the @fontsource file it is cut from, the range it keeps of a variable font's axes, and
 * whether the built page carries it (`inPage`, installed from the page's own bytes before the
 * first layout: scripts/lib/install-fonts.mjs) or the browser fetches its file.
 *
 * The display face comes with the page: the hero's title is the first screen's largest paint, and
 * a title that waited for a fetched face would paint a round trip later. The text face is fetched
 * as a file (`font-display: swap`): the first screen's text paints at once in its metric-matched
 * fallback, and the page stays within the two round trips a new connection delivers.
 * @type {FontSubset[]}
 */
export const FONT_SUBSETS = [
  {
    family: 'Cinzel',
    file: 'src/assets/fonts/cinzel-700-display.woff2',
    source: '@fontsource/cinzel/files/cinzel-latin-700-normal.woff2',
    inPage: true,
  },
  {
    family: 'Inter Variable',
    file: 'src/assets/fonts/inter-text.woff2',
    source: '@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
    // The weights the page sets text in: normal (400) to bold (700).
    axes: { wght: [400, 700] },
    inPage: false,
  },
];

/**
 * Whether a code point is in the subsets.
 * @param {number} codePoint
 */
export function inSubsetRanges(codePoint) {
  return SUBSET_RANGES.some((range) => {
    // A range is one code point or two joined by '-', so the split has a first part.
    const [from, to = from] = /** @type {[string, string?]} */ (range.replace('U+', '').split('-'));
    return codePoint >= parseInt(from, 16) && codePoint <= parseInt(to, 16);
  });
}

/** The families the built page carries inside itself. */
export const IN_PAGE_FAMILIES = FONT_SUBSETS.filter((font) => font.inPage).map(
  (font) => font.family,
);
