/**
 * Takedowns that stick. The owner takes down a card, or words before any card of them is made;
 * what is kept is the words folded as every check reads them (`foldForMatch`), so no visitor,
 * remark or conversation can card them again, however they are spelt to the eye.
 *
 * The folded words live in R2 under a hash of themselves, `down-words/{sha256}`: a card being made
 * asks for its own key (one read, strongly consistent everywhere at once), the list grows with
 * no bound and no object has to hold it, and its bodies are the words the owner blocked. Each card
 * made is noted under its words' hash too (`word-cards/{sha256}/{id}`), so taking words down
 * takes down every card that already carries them. A takedown blocks the remark's near relatives
 * and its addresses, handles and links the same way (card-relatives.ts).
 */
import type { Takedown } from '../../../generated/gate/types.gen';
import { vTakedownRequest } from '../../../generated/gate/valibot.gen';
import { siteOriginFrom } from '../floor/config';
import { judge } from '../floor/contract';
import { sameSecret } from '../floor/edge';
import { bearer, json, problem, readJsonObject } from '../floor/problem';
import { foldForMatch } from './fold/card-fold';
import { isCardId } from './card-ids';
import {
  blockRelatives,
  forgetRelatives,
  noteRelatives,
  relativeTakenDown,
} from './card-relatives';
import { cardKey, downKey, imageKey, readCard } from './card-store';

const DOWN_WORDS = 'down-words/';
const WORD_CARDS = 'word-cards/';

async function wordsHash(folded: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(folded));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Whether any of `texts`, folded, was taken down, is a near relative of words taken down, or
 * holds an address, handle or link taken down; `site` is the site's own host (no token).
 */
export async function wordsTakenDown(
  env: Env,
  texts: readonly string[],
  site?: string,
): Promise<boolean> {
  const folded = [...new Set(texts.map(foldForMatch))].filter(Boolean);
  const [found, relative] = await Promise.all([
    Promise.all(
      folded.map(async (words) => env.CARDS.head(`${DOWN_WORDS}${await wordsHash(words)}`)),
    ),
    relativeTakenDown(env, texts, site),
  ]);
  return relative || found.some(Boolean);
}

/** Notes card `id` under its words, its near relatives and its tokens, for takedowns to find. */
export async function noteCardWords(env: Env, words: string, id: string, site?: string) {
  await Promise.all([
    env.CARDS.put(`${WORD_CARDS}${await wordsHash(foldForMatch(words))}/${id}`, id),
    noteRelatives(env, words, id, site),
  ]);
}

/** Forgets the notes of a card that was not made after all. */
export async function forgetCardWords(env: Env, words: string, id: string, site?: string) {
  await Promise.all([
    env.CARDS.delete(`${WORD_CARDS}${await wordsHash(foldForMatch(words))}/${id}`),
    forgetRelatives(env, words, id, site),
  ]);
}

/** The site's own host, which no takedown blocks as a token; none when it is not set. */
function siteHost(env: Env): string | undefined {
  try {
    return new URL(siteOriginFrom(env)).host;
  } catch {
    return undefined;
  }
}

/** The origins a card's cached answers may be kept under: the one asked, and the site's own. */
function cachedOrigins(request: Request, env: Env): string[] {
  const origins = [new URL(request.url).origin];
  try {
    origins.push(siteOriginFrom(env));
  } catch {
    // No site origin set: no card could have been made to be cached under it.
  }
  return [...new Set(origins)];
}

/** Card `id` gone: marked down, its words and image deleted, its cached answers purged. */
async function takeDownOne(env: Env, id: string, origins: readonly string[]): Promise<void> {
  await env.CARDS.put(downKey(id), new Date().toISOString());
  await env.CARDS.delete([cardKey(id), imageKey(id)]);
  const cache = caches.default;
  for (const origin of origins) {
    for (const path of [`/q/${id}`, `/q/${id}/card.png`]) {
      await cache.delete(new Request(`${origin}${path}`));
    }
  }
}

/**
 * `words` (folded) can never be carded again, nor their near relatives, nor any remark holding
 * their addresses, handles or links; every card made of any of them is taken down. Says what
 * was blocked. The keys are written first, so a card being made meanwhile is either found here
 * or refused by its own last check.
 */
async function blockWords(
  env: Env,
  words: string,
  origins: readonly string[],
): Promise<Omit<Takedown, 'cards'> & { cards: string[] }> {
  const folded = foldForMatch(words);
  const hash = await wordsHash(folded);
  await env.CARDS.put(`${DOWN_WORDS}${hash}`, folded);
  const relatives = await blockRelatives(env, words, siteHost(env));
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.CARDS.list({ prefix: `${WORD_CARDS}${hash}/`, cursor });
    for (const object of page.objects) ids.push(object.key.slice(object.key.lastIndexOf('/') + 1));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  const downed: string[] = [];
  for (const id of new Set([...ids, ...relatives.cards])) {
    if (!(await env.CARDS.head(cardKey(id)))) continue;
    await takeDownOne(env, id, origins);
    downed.push(id);
  }
  return {
    words: folded,
    cards: downed,
    nearRelatives: relatives.nearRelatives,
    tokens: relatives.tokens,
  };
}

function ownersToken(request: Request, env: Env): boolean {
  return sameSecret(bearer(request) ?? '', env.GATE_ADMIN_TOKEN ?? '');
}

/**
 * `DELETE /api/cards/{id}`: for the owner, the card's words (folded) never carded again, and the
 * card, with every other card of those words, gone from storage and from the cache.
 */
export async function takeDownCard(request: Request, env: Env, id: string): Promise<Response> {
  if (!ownersToken(request, env)) return problem('unauthorized');
  const card = (await isCardId(env, id)) ? await readCard(env, id) : null;
  if (!card) return problem('not-found');
  const origins = cachedOrigins(request, env);
  const blocked = await blockWords(env, card.words, origins);
  // The card itself, whether or not its words' note was found.
  if (!blocked.cards.includes(id)) await takeDownOne(env, id, origins);
  const taken: Takedown = {
    ...blocked,
    cards: [id, ...blocked.cards.filter((other) => other !== id)],
  };
  return json(taken);
}

/** `POST /api/card-takedowns`: for the owner, words blocked before any card of them is made. */
export async function takeDownWords(request: Request, env: Env): Promise<Response> {
  if (!ownersToken(request, env)) return problem('unauthorized');
  const body = await readJsonObject(request, 8192);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const asked = judge(vTakedownRequest, body.value);
  if (!asked.ok) return problem('bad-request', { detail: asked.detail });
  if (!foldForMatch(asked.value.words)) {
    return problem('bad-request', { detail: 'words has nothing to take down' });
  }
  const taken: Takedown = await blockWords(env, asked.value.words, cachedOrigins(request, env));
  return json(taken);
}
