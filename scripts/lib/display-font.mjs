// The display font's subset: shared by the script that writes it, the stylesheet's @font-face
// (kept equal by a unit test) and the browser test that checks the page's display text fits it.

/** The committed subset of Cinzel 700, relative to the repository root. */
export const DISPLAY_FONT_FILE = 'src/assets/fonts/cinzel-700-display.woff2';

/**
 * The characters it keeps: printable ASCII, and the typographic marks the copy uses (no-break
 * space, ©, ·, ×, en and em dashes, curly quotes, ellipsis, ›). A character outside these falls
 * back to the serif stack, so a new one belongs here first.
 */
export const DISPLAY_RANGES = [
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
 * Whether a code point is in the subset.
 * @param {number} codePoint
 */
export function inDisplayRanges(codePoint) {
  return DISPLAY_RANGES.some((range) => {
    const [from, to = from] = range.replace('U+', '').split('-');
    return codePoint >= parseInt(from, 16) && codePoint <= parseInt(to, 16);
  });
}
