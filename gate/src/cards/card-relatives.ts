/**
 * What a takedown blocks beyond its exact words: the remark's near relatives (the same words with
 * one word or number changed: "Send 2 SOL…" after "Send 1 SOL…") and every card that holds one of
 * its addresses, handles or links.
 *
 * Both are kept as R2 keys a card can compute from its own words, so checking a card costs one
 * read per key it has, never a scan:
 * - `down-near/{sha256}`: each of the taken-down remark's skeletons, its folded words with one slot
 *   masked. Two remarks of as many words that differ in one word share the skeleton that masks it,
 *   so a card of n words asks n keys. Remarks shorter than `RELATIVE_MIN_WORDS` words are matched
 *   whole only: masking one of three words would block too much of ordinary speech.
 * - `down-token/{sha256}`: each of its long tokens (card-echo's `reachTokens`), folded compact.
 * Cards made are noted under the same hashes (`near-cards/{sha256}/{id}`,
 * `token-cards/{sha256}/{id}`), so a takedown lists the cards it must take down too.
 */
import { reachTokens } from './words/card-echo';
import { foldForMatch } from './fold/card-fold';

/** A remark needs this many folded words for its near relatives to be blocked. */
export const RELATIVE_MIN_WORDS = 4;
/** What stands in a skeleton for the word that may change. */
const SLOT = '\u0000';

const DOWN_NEAR = 'down-near/';
const DOWN_TOKEN = 'down-token/';
const NEAR_CARDS = 'near-cards/';
const TOKEN_CARDS = 'token-cards/';

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Each of `text`'s skeletons (its folded words, one slot masked), or none when it is short. */
export function skeletonsOf(text: string): string[] {
  const words = foldForMatch(text).split(' ').filter(Boolean);
  if (words.length < RELATIVE_MIN_WORDS) return [];
  return [...new Set(words.map((_, n) => words.map((w, i) => (i === n ? SLOT : w)).join(' ')))];
}

/** What a card's relatives are keyed by: its skeletons' hashes and its tokens' hashes. */
interface Relatives {
  skeletons: string[];
  tokens: string[];
  /** The tokens as they read, for the owner's report. */
  tokenWords: string[];
}

/** The hashes `text` is noted and checked under; `site` (the site's own host) is no token. */
async function relativesOf(text: string, site?: string): Promise<Relatives> {
  const own = site ? site.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '') : null;
  const tokenWords = reachTokens(text).filter((token) => token !== own);
  return {
    skeletons: await Promise.all(skeletonsOf(text).map(sha256Hex)),
    tokens: await Promise.all(tokenWords.map(sha256Hex)),
    tokenWords,
  };
}

/** Whether any of `texts` is a near relative of words taken down, or holds a token taken down. */
export async function relativeTakenDown(
  env: Env,
  texts: readonly string[],
  site?: string,
): Promise<boolean> {
  const keys = new Set<string>();
  for (const text of texts) {
    const { skeletons, tokens } = await relativesOf(text, site);
    for (const hash of skeletons) keys.add(`${DOWN_NEAR}${hash}`);
    for (const hash of tokens) keys.add(`${DOWN_TOKEN}${hash}`);
  }
  const found = await Promise.all([...keys].map((key) => env.CARDS.head(key)));
  return found.some(Boolean);
}

/** The keys card `id` of `words` is noted under, so a takedown of a relative finds it. */
async function noteKeys(words: string, id: string, site?: string): Promise<string[]> {
  const { skeletons, tokens } = await relativesOf(words, site);
  return [
    ...skeletons.map((hash) => `${NEAR_CARDS}${hash}/${id}`),
    ...tokens.map((hash) => `${TOKEN_CARDS}${hash}/${id}`),
  ];
}

/** Notes card `id` under its skeletons and tokens. */
export async function noteRelatives(env: Env, words: string, id: string, site?: string) {
  await Promise.all((await noteKeys(words, id, site)).map((key) => env.CARDS.put(key, id)));
}

/** Forgets the notes of a card that was not made after all. */
export async function forgetRelatives(env: Env, words: string, id: string, site?: string) {
  const keys = await noteKeys(words, id, site);
  if (keys.length > 0) await env.CARDS.delete(keys);
}

/** Every card id noted under `prefix`. */
async function notedCards(env: Env, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.CARDS.list({ prefix, cursor });
    for (const object of page.objects) ids.push(object.key.slice(object.key.lastIndexOf('/') + 1));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return ids;
}

/** What blocking a remark's relatives blocked: its tokens, whether near relatives, which cards. */
export interface RelativesBlocked {
  tokens: string[];
  nearRelatives: boolean;
  /** Cards made of a near relative or holding one of the tokens, to be taken down. */
  cards: string[];
}

/**
 * Blocks `words`' near relatives and tokens for every card to come (the keys first, so a card
 * being made meanwhile is refused by its own last check), and names the cards already made of
 * them.
 */
export async function blockRelatives(
  env: Env,
  words: string,
  site?: string,
): Promise<RelativesBlocked> {
  const { skeletons, tokens, tokenWords } = await relativesOf(words, site);
  const folded = foldForMatch(words);
  await Promise.all([
    ...skeletons.map((hash) => env.CARDS.put(`${DOWN_NEAR}${hash}`, folded)),
    ...tokens.map((hash, n) => env.CARDS.put(`${DOWN_TOKEN}${hash}`, tokenWords[n] ?? '')),
  ]);
  const noted = await Promise.all([
    ...skeletons.map((hash) => notedCards(env, `${NEAR_CARDS}${hash}/`)),
    ...tokens.map((hash) => notedCards(env, `${TOKEN_CARDS}${hash}/`)),
  ]);
  return {
    tokens: tokenWords,
    nearRelatives: skeletons.length > 0,
    cards: [...new Set(noted.flat())],
  };
}
