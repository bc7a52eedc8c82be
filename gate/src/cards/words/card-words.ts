/**
 * What may be printed on a card: Pepa's words, checked before anything is published and cut at a
 * sentence's end to fit. Pure: the words come in, a refusal with its reason or the card's words go
 * out. The checks read what the card draws (signs its font has no glyph for left out, the cut as
 * cut), so no sign the card drops can hide a word from them.
 *
 * Every check runs on the words as written and on each way a reader could read them
 * (card-fold.ts: invisible characters gone, look-alike letters as Latin, no diacritics, words
 * spelt out joined, digits read as letters inside words and letters as digits inside numbers), so
 * a disguise that changes nothing a reader sees changes nothing the checks see. It catches what a
 * pattern can: a recovery phrase, key-like runs, e-mail addresses and phone numbers, the usual
 * words of a financial promise in thirteen languages, and the blocklist. It cannot catch a promise
 * or a slur put in words no pattern foresaw; the owner's takedown and blocklist are for those.
 */
import { blocklistFrom, DEFAULT_BLOCKLIST, holdsBlockedWord } from './card-blocklist';
import { cleanWords, eachReading, readingsOf } from '../fold/card-fold';
import { holdsContact } from './card-contacts';
import { repeatsVisitor } from './card-echo';
import { holdsReach } from './card-reach';
import { holdsPromise } from './card-promises';
import { drawing } from '../fold/card-script';
import { holdsBytes, holdsKey, holdsPhrase } from './card-secrets';

export { blocklistFrom, DEFAULT_BLOCKLIST };

/** The longest words a card prints: about four lines at its smallest size. */
export const CARD_MAX_CHARS = 220;

export type CardRefusal =
  | 'secret'
  | 'personal-data'
  | 'contact'
  | 'financial-promise'
  | 'send-funds'
  | 'impersonation'
  | 'judge-unavailable'
  | 'blocked-word'
  | 'repeated'
  | 'hidden-sign'
  | 'script'
  | 'too-long'
  | 'nothing-to-print';

/** The reason a visitor is shown, for each refusal. */
export const REFUSAL_REASONS: Record<CardRefusal, string> = {
  secret: 'These words hold something like a recovery phrase or a key, which is never published.',
  'personal-data': 'These words hold personal data (an e-mail address or a phone number).',
  contact:
    'These words point off the site (a link, a handle, a wallet name) or ask to be written to in private.',
  'financial-promise':
    'These words could read as a financial promise, and $PEPA never promises returns.',
  'send-funds':
    'These words tell the reader to send money or tokens, or to connect a wallet, which the court never asks.',
  impersonation:
    'These words speak as someone Pepa is not (the team, support, an exchange), which a card never does.',
  'judge-unavailable':
    'The court could not weigh what these words mean just now, and makes no card it has not weighed: ask again later.',
  'blocked-word': 'These words hold a word the court does not print.',
  repeated:
    'These words repeat what was said to Pepa in this conversation: a card carries only her own words.',
  'hidden-sign':
    'These words hold a sign the card cannot draw inside a word or a number: left out, it would change what the card reads.',
  script:
    'These words are in a script the card cannot draw yet (it draws Latin and Cyrillic letters).',
  'too-long': 'These words are longer than a card, and their first sentence alone does not fit.',
  'nothing-to-print': 'There are no words in that remark to print.',
};

/**
 * What the checks refuse in any of `texts`, each read every way a reader could read it; `site` is
 * the site's own host, the one place a card may point to.
 */
function checksRefuse(
  texts: readonly string[],
  blocklist: readonly string[],
  site?: string,
): CardRefusal | null {
  const every = [...new Set(texts.flatMap((text) => eachReading(readingsOf(text), text)))];
  if (every.some((text) => holdsPhrase(text) || holdsKey(text) || holdsBytes(text))) {
    return 'secret';
  }
  if (every.some(holdsContact)) return 'personal-data';
  if (every.some((text) => holdsReach(text, site))) return 'contact';
  if (every.some(holdsPromise)) return 'financial-promise';
  if (holdsBlockedWord(every, blocklist)) return 'blocked-word';
  return null;
}

/** Where a sentence ends: after its closing marks and quotes, before a space; or at a break. */
const SENTENCE_END = /[.!?…]+["'”’»)]*(?=\s|$)|(?=\n)/gu;

/**
 * The words as the card prints them (cleaned: no invisible or direction-changing characters,
 * spaces made single, breaks kept), whole when they fit, else the whole sentences from the start
 * that fit; null when even the first sentence is longer than the card. A remark is never cut inside
 * a sentence, where the cut could leave a claim without the words that qualified it.
 */
export function fitToCard(words: string, max = CARD_MAX_CHARS): string | null {
  const text = cleanWords(words);
  if (text.length <= max) return text;
  let end = 0;
  for (const found of text.matchAll(SENTENCE_END)) {
    const after = found.index + found[0].length;
    if (after > max) break;
    end = after;
  }
  const kept = text.slice(0, end).trim();
  return kept || null;
}

export type CheckedWords = { ok: true; words: string } | { ok: false; refusal: CardRefusal };

/**
 * The card's words, or why there is no card. The checks read exactly what the card would draw:
 * the remark with every sign the font cannot draw left out, and the part of it that fits on the
 * card, each with its folded readings, and the remark as written besides. A sign left out from
 * inside a word or a number is refused even when the words it joins are harmless. `heard` is what
 * the visitor said before the remark in its conversation: words of theirs she repeats are no quote.
 * `site` is the site's own host, which a card may name.
 */
export function cardWords(
  words: string,
  blocklist: readonly string[],
  heard: readonly string[] = [],
  site?: string,
): CheckedWords {
  const drawn = drawing(cleanWords(words));
  if (!drawn.words) return { ok: false, refusal: 'nothing-to-print' };
  const cut = fitToCard(drawn.words);
  const refusal =
    checksRefuse([words, drawn.words, ...(cut === null ? [] : [cut])], blocklist, site) ??
    (repeatsVisitor(drawn.words, heard) ? 'repeated' : null) ??
    (drawn.signInside ? 'hidden-sign' : null) ??
    (drawn.undrawableLetter ? 'script' : null) ??
    (cut === null ? 'too-long' : null);
  if (refusal || cut === null) return { ok: false, refusal: refusal ?? 'too-long' };
  return { ok: true, words: cut };
}

/** Why `words` may not be printed, or null. */
export function refusalOf(words: string, blocklist: readonly string[]): CardRefusal | null {
  const checked = cardWords(words, blocklist);
  return checked.ok ? null : checked.refusal;
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
