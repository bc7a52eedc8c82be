/**
 * What counts as the same opening, and which of Pepa's replies to one may be given again. On a
 * viral day most first messages repeat ("hi", "gm", "who are you", "what is $PEPA", "wen moon"):
 * written with other capitals, spaces, a "!" or an emoji after them, they are still the same
 * words, and one key stands for them all. A reply is given again only when it could be printed on
 * a quote card: the same local checks a card's words pass (card-words.ts), never the model judge,
 * which is a paid chat message and would cost what the record saves.
 */
import { blocklistFrom, cardWords } from '../../cards/words/card-words';

/** The longest opening, in characters once read as one: a longer message is a question of its own. */
export const OPENING_MAX_CHARS = 48;

/**
 * Emoji and what dresses one: a skin tone, a flag's letters; and a variation selector, a joiner
 * and a keycap, which join what stands beside them and so are matched outside the class.
 */
const EMOJI = String.raw`[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}]|\uFE0F|\u200D|\u20E3`;
/** What decorates the end of an opening: punctuation, emoji, spaces. */
const TRAILING = new RegExp(String.raw`(?:[\p{P}\s]|${EMOJI})+$`, 'u');
/** What decorates its start: emoji, spaces, and the opening marks of a question or a cry. */
const LEADING = new RegExp(String.raw`^(?:[\s¿¡"'“‘«(]|${EMOJI})+`, 'u');
/** Invisible characters (zero widths, direction marks, soft hyphens): they change nothing read. */
const INVISIBLE = /[\p{Cf}]/gu;
/** Apostrophes as keyboards write them. */
const APOSTROPHES = /[’‘`´ʼ]/gu;

/**
 * The key of `text` as an opening: lowercase, Unicode NFKC, invisible characters gone, spaces
 * made single, punctuation and emoji at its ends set aside (an opening of emoji alone is keyed by
 * them, without their tones); null when it is longer than an opening is.
 */
export function openingOf(text: string): string | null {
  // Long messages are never openings: nothing past this is read.
  if (text.length > OPENING_MAX_CHARS * 4) return null;
  const read = text.normalize('NFKC').toLowerCase().replace(APOSTROPHES, "'").replace(/\s+/gu, ' ');
  const bare = read.replace(INVISIBLE, '').replace(LEADING, '').replace(TRAILING, '').trim();
  const key = bare || read.replace(/\uFE0F|\u200D|[\u200B\u200C\u2060\p{Emoji_Modifier}\s]/gu, '');
  const chars = [...key].length;
  return chars > 0 && chars <= OPENING_MAX_CHARS ? key : null;
}

/** Where a finished sentence ends: its mark and closing quotes, or an emoji. */
const FINISHED = new RegExp(
  String.raw`(?:[.!?…。！？]["'”’»)\]]*|\p{Extended_Pictographic}(?:${EMOJI})*)\s*$`,
  'u',
);

/** What a kept reply is checked against: the owner's blocklist, and the site a card may name. */
export interface OpeningChecks {
  blocklist: readonly string[];
  site: string | undefined;
}

/** The checks from the Worker's settings: the owner's blocklist, and the site's own host. */
export function openingChecksFrom(env: {
  GATE_CARD_BLOCKLIST?: string;
  GATE_SITE_ORIGIN?: string;
}): OpeningChecks {
  let site: string | undefined;
  try {
    site = env.GATE_SITE_ORIGIN ? new URL(env.GATE_SITE_ORIGIN).host : undefined;
  } catch {
    // No site of its own: a reply naming any host is not kept.
  }
  return { blocklist: blocklistFrom(env.GATE_CARD_BLOCKLIST), site };
}

/**
 * Whether Pepa's `reply` to `opening` (as the visitor wrote it) may be given to the next visitor
 * who opens with the same words: it ends a sentence (a reply the model's token cap cut off ends
 * mid-sentence) and passes every check a card's words pass, with the visitor's own words as what
 * she heard (a reply that only repeats them is theirs, not hers).
 */
export function keepable(opening: string, reply: string, checks: OpeningChecks): boolean {
  if (!FINISHED.test(reply.trim())) return false;
  return cardWords(reply, checks.blocklist, [opening], checks.site).ok;
}
