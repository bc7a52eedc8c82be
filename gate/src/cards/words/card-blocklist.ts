/**
 * Words the court never prints: the site's own and the owner's (`GATE_CARD_BLOCKLIST`), matched on
 * every reading of a remark, spelt out, masked (`f*ck`) or written whole.
 */
import { foldForMatch, speltOutRuns } from '../fold/card-fold';

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

/**
 * `word` with any letter after its first masked, as long as two of its letters stay, at the start
 * of a word (`f*cking`).
 */
function maskedPattern(word: string): RegExp | null {
  if (!/^\p{L}{3,}$/u.test(word)) return null;
  const [first, ...rest] = [...word];
  const escaped = (char: string) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const tail = rest.map((char) => `(?:${escaped(char)}|${MASK})`).join('');
  return new RegExp(
    `(?<![\\p{L}\\p{N}])${escaped(first ?? '')}${tail}(?=\\p{L}*(?![\\p{L}\\p{N}]))`,
    'u',
  );
}

/** A blocked word this long is found inside other words too (`fucking`, `rugpulled`). */
const INSIDE_LETTERS = 4;

/**
 * Whether any reading holds a blocked word: whole, inside a word when it is long enough, a
 * phrase's last word with an ending (`rug pulled`), spelt out, or masked.
 */
export function holdsBlockedWord(
  readings: readonly string[],
  blocklist: readonly string[],
): boolean {
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
    if (joined.length >= INSIDE_LETTERS) {
      const inside = (text: string) => text.includes(joined) || text.includes(` ${wanted}`);
      if (spaced.some(inside)) return true;
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
