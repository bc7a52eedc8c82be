/**
 * Words read the way a reader reads them. A card's checks and a takedown match on these readings,
 * never only on the string as it came: a character nobody sees (a zero-width space, a soft hyphen,
 * a direction override) is not there for a reader, a Cyrillic `о` is an `o`, a fullwidth `＠` is an
 * `@`, `fück` is `fuck`, `m00n` is `moon`, `f u c k` is one word and `1OO x` is a number.
 */
import { latinSkeleton } from './card-confusables';
import { drawing } from './card-script';

/**
 * What is never drawn, so never kept: format characters (`\p{Cf}`: zero-widths, bidi controls
 * and overrides such as U+202E, the BOM, tags), every default-ignorable code point (soft hyphen,
 * variation selectors, Hangul fillers, Mongolian vowel separator…), controls (but tabs and line
 * breaks, which are spaces), private-use, unassigned and lone surrogates, and the blank braille
 * pattern that draws as a space.
 */
const INVISIBLE =
  /(?![\t\n])[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Co}\p{Cn}\p{Cs}\u2800\u3164\uFFA0]/gu;

/** A line break of any kind: kept as a break, one `\n`. */
const BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/gu;

/** Whitespace of any kind, tabs and line breaks among it. */
const SPACE = /[\s\u2028\u2029]+/gu;

/** Whitespace within a line. */
const INLINE_SPACE = /[^\S\n]+/gu;

/** What separates the letters of a word spelt out (`f u c k`, `f.u.c.k`, `1-0-0-x`). */
const SPELT_OUT =
  /(?<![\p{L}\p{N}])[\p{L}\p{N}](?![\p{L}\p{N}])(?:[\s.\-_*·/|,+~:]{1,3}[\p{L}\p{N}](?![\p{L}\p{N}])){2,}/gu;

/** What may stand inside a word without ending it for a reader (`guaran-teed`, `f*ck`). */
const INSIDE_WORD = /(?<=[\p{L}\p{N}])[-_.*·'’]+(?=[\p{L}\p{N}])/gu;

/** Digits that stand for letters inside a word (`m00n`, `gu4r4nt33d`, `5h1t`). */
const DIGIT_AS_LETTER: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
  '!': 'i',
};

/** Letters that stand for digits inside a number (`1OOx`, a phone number's `O` and `l`). */
const LETTER_AS_DIGIT: Readonly<Record<string, string>> = { o: '0', l: '1', i: '1' };

/**
 * `text` as it is stored, drawn and put into the share page: no invisible or direction-changing
 * character, composed (NFC), whitespace within a line made single, and each line break (or run of
 * them) one `\n`: a break stays a break, never gluing the words on either side.
 */
export function cleanWords(text: string): string {
  return text
    .replace(BREAK, '\n')
    .replace(INVISIBLE, '')
    .normalize('NFC')
    .replace(INLINE_SPACE, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

/** `text` cleaned, its line breaks read as spaces: how the checks read across a break. */
function oneLine(text: string): string {
  return cleanWords(text).replace(SPACE, ' ');
}

/** Latin letters drawn with a stroke through them, which no decomposition takes apart. */
const STROKED: Readonly<Record<string, string>> = {
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
  ƀ: 'b',
  ɨ: 'i',
};
const STROKED_LETTER = new RegExp(`[${Object.keys(STROKED).join('')}]`, 'gu');

/** `text` without its diacritics or strokes: `fück` → `fuck`, `été` → `ete`, `й` → `и`, `ø` → `o`. */
export function withoutMarks(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(STROKED_LETTER, (letter) => STROKED[letter] ?? letter)
    .normalize('NFC');
}

/**
 * Each run of letters spelt out one by one in `text`, written as one word: `a f u c k` → `afuck`,
 * where a reader also sees the word inside it.
 */
export function speltOutRuns(text: string): string[] {
  return [...text.matchAll(SPELT_OUT)].map(([run]) => run.replace(/[^\p{L}\p{N}]+/gu, ''));
}

/** The letters of a word spelt out with separators, written as one word. */
function joinSpeltOut(text: string): string {
  return text.replace(SPELT_OUT, (run) => run.replace(/[^\p{L}\p{N}]+/gu, ''));
}

/**
 * Each word that `mixed` picks read with `map` (`m00n` → `moon`); a sign (`@`, `$`, `!`) is read
 * only before a letter or digit, so `$PEPA` and `moon!` stay as they are.
 */
function readMixedWords(text: string, map: Readonly<Record<string, string>>, mixed: RegExp) {
  return text.replace(/[\p{L}\p{N}@$!]+/gu, (word) => {
    if (!mixed.test(word)) return word;
    return word.replace(/\d|[@$!](?=[\p{L}\p{N}])|\p{L}/gu, (char) => map[char] ?? char);
  });
}

/** A word with a letter and a digit (`m00n`), or a sign inside it (`sh!t`, `b@by`). */
const LETTERS_AND_DIGITS = /^(?=.*\p{L})(?:.*\d|.*[\p{L}\p{N}][@$!]+[\p{L}\p{N}])/u;
/** A number with a look-alike letter in it (`1OO`, `O958`, `2O`), or `1OOx`. */
const DIGITS_AND_LOOK_ALIKES = /^(?=.*\d)[\doli]+x?$/u;

/** What every check reads, each a different way a reader could take the same line. */
export interface Readings {
  /** As the card draws it (cleaned, breaks kept), case kept: key-like runs are case-sensitive. */
  drawn: string;
  /** Compatibility-normalised (NFKC), invisible characters gone, lower case: any script. */
  plain: string;
  /** The Latin skeleton: look-alike letters mapped, diacritics gone, case kept. */
  skeleton: string;
  /** The skeleton in lower case, words spelt out joined, digits inside words read as letters. */
  letters: string;
  /** The skeleton in lower case, words spelt out joined, look-alike letters in numbers as digits. */
  digits: string;
}

/** Every reading of `text` the checks run on. */
export function readingsOf(text: string): Readings {
  const drawn = cleanWords(text);
  const compatible = oneLine(text.normalize('NFKC'));
  const skeleton = latinSkeleton(withoutMarks(compatible));
  const lower = joinSpeltOut(skeleton.toLowerCase());
  return {
    drawn,
    plain: compatible.toLowerCase(),
    skeleton,
    letters: readMixedWords(lower.replace(INSIDE_WORD, ''), DIGIT_AS_LETTER, LETTERS_AND_DIGITS),
    digits: readMixedWords(lower, LETTER_AS_DIGIT, DIGITS_AND_LOOK_ALIKES),
  };
}

/** The distinct readings, for checks that look at each the same way. */
export function eachReading(readings: Readings, written: string): string[] {
  return [...new Set([written, ...Object.values(readings)])];
}

/**
 * `text` in its folded form, the one a takedown matches on: the words as the card would draw them
 * (signs without a glyph left out), then the letters reading (NFKC, invisible characters gone,
 * look-alikes as Latin, no diacritics, lower case, words spelt out joined, digits inside words as
 * letters), its punctuation and line breaks made single spaces.
 */
export function foldForMatch(text: string): string {
  return readingsOf(drawing(cleanWords(text)).words)
    .letters.replace(/[^\p{L}\p{N}$%]+/gu, ' ')
    .trim();
}
