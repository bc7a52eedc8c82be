/**
 * What may be printed on a card: Pepa's words, checked before anything is published and cut at a
 * sentence to fit. Pure: the words come in, a refusal with its reason or the card's words go out.
 *
 * It catches what a pattern can: a recovery phrase, key-like strings, e-mail addresses and phone
 * numbers, the usual words of a financial promise, and the owner's blocklist. It cannot catch a
 * promise or a slur spelt in a way no pattern foresaw; the owner's takedown is for those.
 */
import { wordlist } from '@scure/bip39/wordlists/english.js';

/** The longest words a card prints: about four lines at its smallest size. */
export const CARD_MAX_CHARS = 220;

/** A wallet's recovery phrase has at least 12 words of the BIP-39 list. */
const PHRASE_WORDS = 12;

const PHRASE_LIST: ReadonlySet<string> = new Set(wordlist);

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
  'secret' | 'personal-data' | 'financial-promise' | 'blocked-word' | 'nothing-to-print';

/** The reason a visitor is shown, for each refusal. */
export const REFUSAL_REASONS: Record<CardRefusal, string> = {
  secret: 'These words hold something like a recovery phrase or a key, which is never published.',
  'personal-data': 'These words hold personal data (an e-mail address or a phone number).',
  'financial-promise':
    'These words could read as a financial promise, and $PEPA never promises returns.',
  'blocked-word': 'These words hold a word the court does not print.',
  'nothing-to-print': 'There are no words in that line to print.',
};

/** Key-like: long base58 runs (keys, and addresses a stranger could swap), hex keys, byte arrays. */
const KEY_LIKE = [
  /[1-9A-HJ-NP-Za-km-z]{32,}/,
  /\b(?:0x)?[0-9a-fA-F]{40,}\b/,
  /\[\s*\d{1,3}(?:\s*,\s*\d{1,3}){15,}\s*\]/,
];

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
/** Nine digits or more, with the separators phone numbers are written with. */
const PHONE = /\+?\(?\d(?:[\s().-]{0,2}\d){8,}/;

/** The usual words of a price prediction or a promised return. */
const PROMISES = [
  /\bguarantee(?:d|s)?\b/i,
  /\b\d{1,5}(?:[.,]\d+)?\s?x\b/i,
  /\b(?:ten|hundred|thousand)[- ]?x\b/i,
  /\bto the moon\b/i,
  /\bmoon(?:ing|shot)?\b/i,
  /\brisk[- ]?free\b/i,
  /\b(?:can(?:no|')t|won'?t|never) lose\b/i,
  /\bget rich\b/i,
  /\beasy money\b/i,
  /\bpassive income\b/i,
  /\bsure thing\b/i,
  /\b\d+\s?%\s*(?:returns?|profits?|gains?|apy|apr)\b/i,
  /\b(?:returns?|profits?|gains?) of \d/i,
  /\bprice (?:will|is going to|prediction|target)\b/i,
  /\bwill (?:be worth|reach|hit|pump|double|triple|skyrocket|explode|go up|rise)\b/i,
  /\b(?:going to|gonna) (?:pump|double|triple|skyrocket|explode|moon)\b/i,
  /\b(?:buy|ape in) (?:now|before)\b/i,
  /\bnot financial advice\b/i,
];

/** Whether a run of `PHRASE_WORDS` list words stands in the text, counting across punctuation. */
function holdsPhrase(text: string): boolean {
  let run = 0;
  for (const token of text.toLowerCase().split(/[^a-z]+/)) {
    if (!token) continue;
    run = PHRASE_LIST.has(token) ? run + 1 : 0;
    if (run >= PHRASE_WORDS) return true;
  }
  return false;
}

/** The owner's words (comma or newline separated) with the site's own, lower case. */
export function blocklistFrom(setting: string | undefined): string[] {
  const own = (setting ?? '')
    .split(/[,\n]/)
    .map((word) => word.trim().toLowerCase())
    .filter(Boolean);
  return [...DEFAULT_BLOCKLIST, ...own];
}

function holdsBlockedWord(text: string, blocklist: readonly string[]): boolean {
  const spaced = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}$]+/gu, ' ')} `;
  return blocklist.some((word) => {
    const wanted = word.replace(/[^\p{L}\p{N}$]+/gu, ' ').trim();
    return wanted.length > 0 && spaced.includes(` ${wanted} `);
  });
}

/** Why `words` may not be printed, or null. */
export function refusalOf(words: string, blocklist: readonly string[]): CardRefusal | null {
  if (!words.trim()) return 'nothing-to-print';
  if (holdsPhrase(words) || KEY_LIKE.some((pattern) => pattern.test(words))) return 'secret';
  if (EMAIL.test(words) || PHONE.test(words)) return 'personal-data';
  if (PROMISES.some((pattern) => pattern.test(words))) return 'financial-promise';
  if (holdsBlockedWord(words, blocklist)) return 'blocked-word';
  return null;
}

/**
 * The words as the card prints them: whitespace made single, then, when too long, the whole
 * sentences that fit; a first sentence longer than the card is cut at a word, with an ellipsis.
 */
export function fitToCard(words: string, max = CARD_MAX_CHARS): string {
  const text = words.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const sentences = text.match(/[^.!?…]+(?:[.!?…]+["'”’)]*|$)\s*/g) ?? [text];
  let kept = '';
  for (const sentence of sentences) {
    if ((kept + sentence).trimEnd().length > max) break;
    kept += sentence;
  }
  if (kept.trim()) return kept.trim();
  const cut = text.slice(0, max - 1);
  const atWord = cut.slice(0, Math.max(cut.lastIndexOf(' '), Math.floor(max / 2)));
  return `${atWord.replace(/[\s,;:–-]+$/, '')}…`;
}

/** The card's words, or why there is no card: every check runs on the whole line, then it is cut. */
export function cardWords(
  words: string,
  blocklist: readonly string[],
): { ok: true; words: string } | { ok: false; refusal: CardRefusal } {
  const refusal = refusalOf(words, blocklist);
  return refusal ? { ok: false, refusal } : { ok: true, words: fitToCard(words) };
}
