/**
 * What the card can draw: the characters its quote font has glyphs for. The quote is set in Inter
 * (medium), loaded as three of @fontsource/inter's subsets; each range below is that subset's
 * `unicode-range` in its CSS (`@fontsource/inter/500.css`, one `@font-face` per subset),
 * and `card-script.test.ts` holds this list to those files. The card draws Latin (English,
 * Spanish, Portuguese, French, German, Italian, Turkish and most other Latin-script languages) and
 * Russian Cyrillic; Chinese, Japanese, Korean, Arabic, Devanagari, Greek… have no glyphs in it.
 * Adding a subset to `card-render.ts` and its range here is how the card learns a script.
 */

/** The subsets the quote is drawn with, and the code points each covers. */
export const QUOTE_FONT_SUBSETS: Readonly<Record<string, string>> = {
  latin:
    'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD',
  'latin-ext':
    'U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF',
  cyrillic: 'U+0301,U+0400-045F,U+0490-0491,U+04B0-04B1,U+2116',
};

type Range = readonly [number, number];

/** A CSS `unicode-range` as inclusive code point ranges. */
export function rangesOf(unicodeRange: string): Range[] {
  return unicodeRange.split(',').map((part) => {
    const [from = '', to = from] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(from, 16), parseInt(to, 16)] as const;
  });
}

const DRAWABLE: readonly Range[] = Object.values(QUOTE_FONT_SUBSETS)
  .flatMap(rangesOf)
  .sort((a, b) => a[0] - b[0]);

/** Whether the quote font has a glyph for `codePoint`. */
export function isDrawable(codePoint: number): boolean {
  let low = 0;
  let high = DRAWABLE.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const [from, to] = DRAWABLE[middle] ?? [0, -1];
    if (codePoint < from) high = middle - 1;
    else if (codePoint > to) low = middle + 1;
    else return true;
  }
  return false;
}

/** What the card makes of a remark: the words it draws, and what it could not draw in them. */
export interface Drawing {
  /**
   * The words with every sign the font has no glyph for (an emoji, `★`, a mark) left out, spaces
   * made single again. Letters and digits without a glyph stay, so the checks can still read them.
   */
  words: string;
  /** A letter or digit stands in them that the font has no glyph for. */
  undrawableLetter: boolean;
  /**
   * A sign the font cannot draw stood between two letters or digits (`guar🐸anteed`,
   * `9xQe★WvG8`): left out, it joins them into a word the remark did not show.
   */
  signInside: boolean;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const MARK = /^\p{M}$/u;

/** What the card draws of `words` (cleaned: one kind of space, breaks as `\n`). */
export function drawing(words: string): Drawing {
  let drawn = '';
  let undrawableLetter = false;
  let signInside = false;
  /** The last character kept was a letter or a digit the font draws (or a mark on one). */
  let afterLetter = false;
  /** A sign was left out since the last character kept. */
  let leftOut = false;
  for (const char of words.normalize('NFC')) {
    const letter = LETTER_OR_DIGIT.test(char);
    const drawable = isDrawable(char.codePointAt(0) ?? 0);
    if (drawable || letter) {
      if (!drawable) undrawableLetter = true;
      if (leftOut && afterLetter && letter && drawable) signInside = true;
      drawn += char;
      afterLetter = (letter && drawable) || (afterLetter && MARK.test(char));
      leftOut = false;
    } else if (!MARK.test(char)) {
      leftOut = true;
    }
  }
  return {
    words: drawn
      .replace(/[^\S\n]{2,}/g, ' ')
      .replace(/ ?\n ?/g, '\n')
      .replace(/\n{2,}/g, '\n')
      .trim(),
    undrawableLetter,
    signInside,
  };
}

/**
 * The words as the card can draw them, or null when it cannot draw them as they read: a letter or
 * digit in them has no glyph (such a remark is refused for its script rather than drawn as boxes),
 * or a sign without a glyph stands inside a word or a number. A sign or picture without a glyph
 * between words (an emoji, `★`) is left out of the drawing.
 */
export function drawableWords(words: string): string | null {
  const drawn = drawing(words);
  return drawn.undrawableLetter || drawn.signInside ? null : drawn.words;
}
