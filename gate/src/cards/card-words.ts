/**
 * What may be printed on a card: Pepa's words, checked before anything is published and cut at a
 * sentence to fit. Pure: the words come in, a refusal with its reason or the card's words go out.
 *
 * Every check runs on the words as written and on each way a reader could read them
 * (card-fold.ts: invisible characters gone, look-alike letters as Latin, no diacritics, words
 * spelt out joined, digits read as letters inside words and letters as digits inside numbers), so
 * a disguise that changes nothing a reader sees changes nothing the checks see. It catches what a
 * pattern can: a recovery phrase, key-like runs, e-mail addresses and phone numbers, the usual
 * words of a financial promise in thirteen languages, and the blocklist. It cannot catch a promise
 * or a slur put in words no pattern foresaw; the owner's takedown and blocklist are for those.
 */
import { cleanWords, eachReading, foldForMatch, readingsOf, speltOutRuns } from './card-fold';
import { holdsContact } from './card-contacts';
import { holdsPromise } from './card-promises';
import { drawableWords } from './card-script';
import { holdsBytes, holdsKey, holdsPhrase } from './card-secrets';

/** The longest words a card prints: about four lines at its smallest size. */
export const CARD_MAX_CHARS = 220;

/** Words the site never prints, whatever the owner adds (`GATE_CARD_BLOCKLIST`). */
export const DEFAULT_BLOCKLIST: readonly string[] = [
  'fuck',
  'shit',
  'cunt',
  'rugpull',
  'rug pull',
  'drainer',
  'honeypot',
];

export type CardRefusal =
  'secret' | 'personal-data' | 'financial-promise' | 'blocked-word' | 'script' | 'nothing-to-print';

/** The reason a visitor is shown, for each refusal. */
export const REFUSAL_REASONS: Record<CardRefusal, string> = {
  secret: 'These words hold something like a recovery phrase or a key, which is never published.',
  'personal-data': 'These words hold personal data (an e-mail address or a phone number).',
  'financial-promise':
    'These words could read as a financial promise, and $PEPA never promises returns.',
  'blocked-word': 'These words hold a word the court does not print.',
  script:
    'These words are in a script the card cannot draw yet (it draws Latin and Cyrillic letters).',
  'nothing-to-print': 'There are no words in that line to print.',
};

/** The owner's words (comma or newline separated) with the site's own, lower case. */
export function blocklistFrom(setting: string | undefined): string[] {
  const own = (setting ?? '')
    .split(/[,\n]/)
    .map((word) => word.trim().toLowerCase())
    .filter(Boolean);
  return [...DEFAULT_BLOCKLIST, ...own];
}

/** What may stand for a letter of a word someone means to print anyway (`f*ck`, `sh#t`). */
const MASK = '[*#%!?_@$.]';

/** `word` with any letter after its first masked, as long as two of its letters stay. */
function maskedPattern(word: string): RegExp | null {
  if (!/^\p{L}{3,}$/u.test(word)) return null;
  const [first, ...rest] = [...word];
  const escaped = (char: string) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const tail = rest.map((char) => `(?:${escaped(char)}|${MASK})`).join('');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped(first ?? '')}${tail}(?![\\p{L}\\p{N}])`, 'u');
}

function holdsBlockedWord(readings: readonly string[], blocklist: readonly string[]): boolean {
  const lowered = readings.map((reading) => reading.toLowerCase());
  const spaced = lowered.map((reading) => ` ${reading.replace(/[^\p{L}\p{N}$]+/gu, ' ')} `);
  const spelt = lowered.flatMap(speltOutRuns);
  return blocklist.some((entry) => {
    const wanted = foldForMatch(entry);
    if (!wanted) return false;
    const joined = wanted.replaceAll(' ', '');
    if (spaced.some((text) => text.includes(` ${wanted} `) || text.includes(` ${joined} `))) {
      return true;
    }
    // A blocked word spelt out beside a word of one letter (`a f u c k`) is joined with it.
    if (joined.length >= 3 && spelt.some((run) => run.includes(joined))) return true;
    const masked = maskedPattern(joined);
    if (!masked) return false;
    return lowered.some((text) => {
      const found = masked.exec(text)?.[0];
      return found !== undefined && [...found].filter((char) => /\p{L}/u.test(char)).length >= 2;
    });
  });
}

/** Why `words` may not be printed, or null. */
export function refusalOf(words: string, blocklist: readonly string[]): CardRefusal | null {
  const readings = readingsOf(words);
  const drawn = drawableWords(readings.drawn);
  if (!readings.drawn || drawn === '') return 'nothing-to-print';
  const every = eachReading(readings, words);
  if (every.some((text) => holdsPhrase(text) || holdsKey(text) || holdsBytes(text))) {
    return 'secret';
  }
  if (every.some(holdsContact)) return 'personal-data';
  if (every.some(holdsPromise)) return 'financial-promise';
  if (holdsBlockedWord(every, blocklist)) return 'blocked-word';
  if (drawn === null) return 'script';
  return null;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest start of `text` of whole characters (graphemes) within `max` UTF-16 units. */
function wholeCharacters(text: string, max: number): string {
  let kept = '';
  for (const { segment } of graphemes.segment(text)) {
    if (kept.length + segment.length > max) break;
    kept += segment;
  }
  return kept;
}

/**
 * The words as the card prints them: cleaned (no invisible or direction-changing characters,
 * whitespace made single), then, when too long, the whole sentences that fit; a first sentence
 * longer than the card is cut at a word, with an ellipsis, never inside a character.
 */
export function fitToCard(words: string, max = CARD_MAX_CHARS): string {
  const text = cleanWords(words);
  if (text.length <= max) return text;
  const sentences = text.match(/[^.!?…]+(?:[.!?…]+["'”’)]*|$)\s*/g) ?? [text];
  let kept = '';
  for (const sentence of sentences) {
    if ((kept + sentence).trimEnd().length > max) break;
    kept += sentence;
  }
  if (kept.trim()) return kept.trim();
  const cut = wholeCharacters(text, max - 1);
  const space = cut.lastIndexOf(' ');
  const atWord =
    space >= Math.floor(max / 2) ? cut.slice(0, space) : wholeCharacters(cut, Math.floor(max / 2));
  return `${atWord.replace(/[\s,;:–-]+$/, '')}…`;
}

/** The card's words, or why there is no card: every check runs on the whole line, then it is cut. */
export function cardWords(
  words: string,
  blocklist: readonly string[],
): { ok: true; words: string } | { ok: false; refusal: CardRefusal } {
  const refusal = refusalOf(words, blocklist);
  if (refusal) return { ok: false, refusal };
  return { ok: true, words: fitToCard(drawableWords(cleanWords(words)) ?? '') };
}

/** The day she said it, as the card prints it (UTC, so every card of a day reads alike). */
export function cardDate(date: Date): string {
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
