/**
 * Making a quote card (`POST /api/cards`): the visitor names a line of their own conversation,
 * the gate takes the words from the provider, checks them, draws the card once and stores it in
 * R2 (`cards/{id}.json` and `cards/{id}.png`), then answers with where it is shared.
 */
import type { Card } from '../../../generated/gate/types.gen';
import { vMakeCardBody, vMakeCardHeaders } from '../../../generated/gate/valibot.gen';
import { cardLimitsFrom, GateConfigError } from '../config';
import { headersOf, judge } from '../contract';
import { countEdgeRefusal, prove, proves } from '../edge';
import { cookie, json, problem, readJsonObject } from '../problem';
import { deskFor } from '../text-records';
import type { Visitor } from '../visitor';
import { newCardId } from './card-ids';
import { shelfFor } from './card-shelf';
import { callLine, chatLine, type LineWords } from './card-source';
import { chatSettingsFrom } from '../provider-chat';
import { blocklistFrom, cardWords, REFUSAL_REASONS } from './card-words';

/** The cookie that carries the right to make cards of the last call admitted. */
export const CARD_COOKIE = 'pepa_card';

const NOT_MADE = "No card can be made of that line: it is not one of Pepa's in your conversation";
const TAKEN_DOWN = 'The court took that card down';

/** What R2 keeps of a card beside its image. */
export interface StoredCard {
  words: string;
  saidAt: string;
  madeAt: string;
  drawn: boolean;
}

export const cardKey = (id: string) => `cards/${id}.json`;
export const imageKey = (id: string) => `cards/${id}.png`;
export const downKey = (id: string) => `down/${id}`;

/** The card cookie of the call just admitted (sent only to /api/cards). */
export async function cardCookieFor(env: Env, callId: string, secure: boolean): Promise<string> {
  const token = await prove(env, 'card-call', callId);
  return `${CARD_COOKIE}=${token}; Path=/api/cards; Max-Age=86400; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The card's addresses on the site that was asked. */
export function cardUrls(request: Request, id: string) {
  const origin = new URL(request.url).origin;
  return { pageUrl: `${origin}/q/${id}`, imageUrl: `${origin}/q/${id}/card.png` };
}

/**
 * How to read the line's words from the provider, once the visitor has proven the conversation
 * theirs; null when they have not.
 */
async function lineReader(
  request: Request,
  env: Env,
  visitor: Visitor,
  from: 'call' | 'chat',
  id: string,
  line: number,
): Promise<(() => Promise<LineWords>) | null> {
  if (from === 'call') {
    if (!(await proves(env, 'card-call', id, cookie(request, CARD_COOKIE)))) return null;
    return () => callLine(chatSettingsFrom(env), id, line);
  }
  const headers = judge(vMakeCardHeaders, headersOf(request, vMakeCardHeaders));
  const secret = headers.ok ? headers.value['Chat-Secret'] : undefined;
  if (!(await proves(env, 'chat', `${id}:${visitor.key}`, secret))) return null;
  return async () => {
    const desk = env.TEXT_DESK.getByName(deskFor(visitor));
    const providerChat = await desk.replyOf(visitor.key, id, line);
    return providerChat
      ? chatLine(chatSettingsFrom(env), providerChat)
      : { ok: false, kind: 'not-found' };
  };
}

/** Why no card came of the line's words, as the visitor is told. */
function wordsRefusal(words: Exclude<LineWords, { ok: true }>): Response {
  if (words.kind === 'not-found') return problem('not-found', { detail: NOT_MADE });
  if (words.kind === 'not-ready') {
    return problem('card-not-ready', {
      detail: "Pepa's words are written down as the call ends: ask again in a moment",
      retryAfterSeconds: words.retryAfterSeconds,
    });
  }
  return problem('provider-error', {
    detail: "Pepa's words could not be read from the provider",
    retryAfterSeconds: 5,
  });
}

/** Draws and stores card `id`; a card that cannot be drawn is kept, shown as the site's own. */
async function store(env: Env, id: string, words: string, saidAt: Date, site: string) {
  let png: Uint8Array | null = null;
  try {
    const { painter } = await import('./card-render');
    png = await painter.render({ words, saidAt, site });
  } catch (error) {
    console.error('gate: a card could not be drawn', error);
  }
  if (png) {
    await env.CARDS.put(imageKey(id), png, {
      httpMetadata: { contentType: 'image/png' },
    });
  }
  const stored: StoredCard = {
    words,
    saidAt: saidAt.toISOString(),
    madeAt: new Date().toISOString(),
    drawn: png !== null,
  };
  await env.CARDS.put(cardKey(id), JSON.stringify(stored), {
    httpMetadata: { contentType: 'application/json' },
  });
  return stored;
}

export async function makeCard(request: Request, env: Env, visitor: Visitor): Promise<Response> {
  try {
    cardLimitsFrom(env);
  } catch (error) {
    if (!(error instanceof GateConfigError)) throw error;
    console.error(`gate: ${error.message}`);
    return problem('gate-unavailable', { retryAfterSeconds: 60 });
  }
  const body = await readJsonObject(request, 1024);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const asked = judge(vMakeCardBody, body.value);
  if (!asked.ok) return problem('bad-request', { detail: asked.detail });
  const { from, conversationId, line } = asked.value;
  const read = await lineReader(request, env, visitor, from, conversationId, line);
  if (!read) {
    countEdgeRefusal(env, 'not-found', '/api/cards');
    return problem('not-found', { detail: NOT_MADE });
  }
  // The shelf first: a card made before is given again, and a visitor at their day's limit is
  // told so, with no provider read.
  const limits = cardLimitsFrom(env);
  const shelf = env.CARD_SHELF.getByName(shelfFor(visitor));
  const source = `${from}:${conversationId}:${line}`;
  const claim = await shelf.claim(visitor.key, source, limits.perDay);
  if (claim.kind === 'made') {
    if (await env.CARDS.head(downKey(claim.card.id))) {
      return problem('card-refused', { detail: TAKEN_DOWN });
    }
    return json(claim.card, 200);
  }
  if (claim.kind === 'making') {
    return problem('card-not-ready', { detail: 'That card is being made', retryAfterSeconds: 2 });
  }
  if (claim.kind === 'limited') {
    return problem('rate-limited', {
      detail: 'You have made as many cards as one guest may today',
      retryAfterSeconds: claim.retryAfterSeconds,
    });
  }
  let made = false;
  try {
    const words = await read();
    if (!words.ok) return wordsRefusal(words);
    const checked = cardWords(words.words, blocklistFrom(limits.blocklist));
    if (!checked.ok) return problem('card-refused', { detail: REFUSAL_REASONS[checked.refusal] });
    const id = await newCardId(env);
    const stored = await store(env, id, checked.words, words.saidAt, new URL(request.url).host);
    const card: Card = {
      id,
      ...cardUrls(request, id),
      imageWidth: 1200,
      imageHeight: 630,
      words: stored.words,
      saidAt: stored.saidAt,
      drawn: stored.drawn,
    };
    await shelf.made(source, card);
    made = true;
    return json(card, 201);
  } finally {
    // No card came of it (not found, not ready, refused, a fault): the visitor's count back.
    if (!made) await shelf.unmade(visitor.key, source);
  }
}
