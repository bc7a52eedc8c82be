/**
 * Making a quote card (`POST /api/cards`): the visitor names a remark of Pepa's in their own
 * conversation, the gate takes the words from the provider, checks them (and that they were never
 * taken down), draws the card once with the site's own origin on it and stores it in R2
 * (card-store), then answers with where it is shared.
 */
import type { Card } from '../../../generated/gate/types.gen';
import { vMakeCardBody, vMakeCardHeaders } from '../../../generated/gate/valibot.gen';
import {
  cardLimitsFrom,
  GateConfigError,
  siteOriginFrom,
  textLimitsFrom,
  type CardLimits,
} from '../floor/config';
import { headersOf, judge } from '../floor/contract';
import { countEdgeRefusal, prove, proves } from '../floor/edge';
import { busiestOf, type BusiestLoad } from '../floor/load';
import { cookie, json, problem, readJsonObject } from '../floor/problem';
import { deskFor } from '../floor/visitor';
import type { Visitor } from '../floor/visitor';
import { newCardId } from './card-ids';
import { SHELF_NAMES, shelfFor, type CardAsk, type Claim, type LimitScope } from './card-shelf';
import { cardKey, cardUrls, downKey, imageKey, type StoredCard } from './card-store';
import { forgetCardWords, noteCardWords, wordsTakenDown } from './card-takedown';
import { callRemark, chatRemark, type RemarkWords } from './card-source';
import { providerChatSettingsFrom } from '../provider/provider-chat';
import { blocklistFrom, cardWords, REFUSAL_REASONS, type CardRefusal } from './words/card-words';
import type { HarmKind } from './judge/card-judge';
import { meaningOf } from './judge/card-meaning';

/** The cookie that carries the right to make cards of the last call admitted. */
export const CARD_COOKIE = 'pepa_card';

const NOT_MADE = "No card can be made of that remark: it is not one of Pepa's in your conversation";
const TAKEN_DOWN = 'The court took that card down';

/** What a visitor at a limit is told, by the limit. */
const LIMITED: Record<LimitScope, string> = {
  visitor: 'You have made as many cards as one guest may today',
  network: 'Your network has made as many cards as one network may today',
  conversation: 'That conversation has made as many cards as one conversation may today',
};

/** What proves the right to card call `callId`: the call and the visitor it was given to. */
function cardCallMessage(callId: string, visitorKey: string): string {
  return `${callId}:${visitorKey}`;
}

/**
 * The card cookie of the call just admitted (sent only to /api/cards): it proves the call and
 * the visitor, so it makes nothing when replayed from another visitor's address.
 */
export async function cardCookieFor(
  env: Env,
  callId: string,
  visitor: Visitor,
  secure: boolean,
): Promise<string> {
  const token = await prove(env, 'card-call', cardCallMessage(callId, visitor.key));
  return `${CARD_COOKIE}=${token}; Path=/api/cards; Max-Age=86400; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/**
 * How to read the remark's words from the provider, once the visitor has proven the conversation
 * theirs; null when they have not.
 */
async function remarkReader(
  request: Request,
  env: Env,
  visitor: Visitor,
  from: 'call' | 'chat',
  id: string,
  remark: number,
): Promise<(() => Promise<RemarkWords>) | null> {
  if (from === 'call') {
    const given = cookie(request, CARD_COOKIE);
    if (!(await proves(env, 'card-call', cardCallMessage(id, visitor.key), given))) return null;
    return () => callRemark(providerChatSettingsFrom(env), id, remark);
  }
  const headers = judge(vMakeCardHeaders, headersOf(request, vMakeCardHeaders));
  const secret = headers.ok ? headers.value['Chat-Secret'] : undefined;
  if (!(await proves(env, 'chat', `${id}:${visitor.key}`, secret))) return null;
  return async () => {
    const desk = env.TEXT_DESK.getByName(deskFor(visitor));
    const reply = await desk.replyOf(visitor.key, id, remark);
    if (!reply) return { ok: false, kind: 'not-found' };
    // The model engine's reply: its words are what streamed through the gate, as the desk kept
    // them; the page named only the remark.
    if (reply.from === 'record') {
      return { ok: true, words: reply.words, saidAt: new Date(reply.saidAt), heard: reply.heard };
    }
    return chatRemark(providerChatSettingsFrom(env), reply.providerChat, reply.heard);
  };
}

/** Why no card came of the remark's words, as the visitor is told. */
function wordsRefusal(words: Exclude<RemarkWords, { ok: true }>): Response {
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

/** The refusal a harm the judge found is shown as. */
const HARM_REFUSALS: Record<HarmKind, CardRefusal> = {
  promise: 'financial-promise',
  funds: 'send-funds',
  contact: 'contact',
  impersonation: 'impersonation',
};

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

/** The answer to an ask the shelf did not let make a card. */
async function shelfAnswer(env: Env, claim: Exclude<Claim, { kind: 'make' }>) {
  switch (claim.kind) {
    case 'made':
      if (await env.CARDS.head(downKey(claim.card.id))) {
        return problem('card-refused', { detail: TAKEN_DOWN });
      }
      return json(claim.card, 200);
    case 'making':
      return problem('card-not-ready', { detail: 'That card is being made', retryAfterSeconds: 2 });
    case 'held':
      // Cards being made hold the last places under a limit: if one is refused, its place is free.
      return problem('card-not-ready', {
        detail: 'Other cards are being made: ask again in a moment',
        retryAfterSeconds: claim.retryAfterSeconds,
      });
    case 'limited':
      return problem('rate-limited', {
        detail: LIMITED[claim.scope],
        retryAfterSeconds: claim.retryAfterSeconds,
      });
  }
}

/**
 * Checks, draws and stores the card of `words`; a refusal, or the card. Its words are noted
 * before it is stored and looked for among the words taken down once more after, so a takedown
 * running meanwhile either finds the card or is found by it.
 */
async function cardOf(
  env: Env,
  words: Extract<RemarkWords, { ok: true }>,
  limits: CardLimits & { judgeWorstUsd: number },
  siteOrigin: string,
): Promise<Response | Card> {
  const site = new URL(siteOrigin).host;
  const checked = cardWords(words.words, blocklistFrom(limits.blocklist), words.heard, site);
  if (!checked.ok) return problem('card-refused', { detail: REFUSAL_REASONS[checked.refusal] });
  if (await wordsTakenDown(env, [checked.words, words.words], site)) {
    return problem('card-refused', { detail: TAKEN_DOWN });
  }
  // Meaning last: only words every pattern passed cost a judgement.
  const meaning = await meaningOf(env, checked.words, limits.judgeWorstUsd);
  if (!meaning.ok) {
    const refusal = 'harm' in meaning ? HARM_REFUSALS[meaning.harm] : 'judge-unavailable';
    return problem('card-refused', { detail: REFUSAL_REASONS[refusal] });
  }
  const id = await newCardId(env);
  await noteCardWords(env, checked.words, id, site);
  const stored = await store(env, id, checked.words, words.saidAt, site);
  if (await wordsTakenDown(env, [checked.words], site)) {
    await env.CARDS.delete([cardKey(id), imageKey(id)]);
    await forgetCardWords(env, checked.words, id, site);
    return problem('card-refused', { detail: TAKEN_DOWN });
  }
  return {
    id,
    ...cardUrls(siteOrigin, id),
    imageWidth: 1200,
    imageHeight: 630,
    words: stored.words,
    saidAt: stored.saidAt,
    drawn: stored.drawn,
  };
}

export async function makeCard(request: Request, env: Env, visitor: Visitor): Promise<Response> {
  let limits: CardLimits & { judgeWorstUsd: number };
  let siteOrigin: string;
  try {
    // A judgement is one provider chat: it reserves what a text reply may cost at most.
    limits = { ...cardLimitsFrom(env), judgeWorstUsd: textLimitsFrom(env).turnWorstUsd };
    siteOrigin = siteOriginFrom(env);
  } catch (error) {
    if (!(error instanceof GateConfigError)) throw error;
    console.error(`gate: ${error.message}`);
    return problem('gate-unavailable', { retryAfterSeconds: 60 });
  }
  const body = await readJsonObject(request, 1024);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const asked = judge(vMakeCardBody, body.value);
  if (!asked.ok) return problem('bad-request', { detail: asked.detail });
  const { from, conversationId, remark } = asked.value;
  const read = await remarkReader(request, env, visitor, from, conversationId, remark);
  if (!read) {
    countEdgeRefusal(env, 'not-found', '/api/cards');
    return problem('not-found', { detail: NOT_MADE });
  }
  // The shelf first: a card made before is given again, and a visitor, network or conversation
  // at its day's limit is told so, with no provider read.
  const shelf = env.CARD_SHELF.getByName(shelfFor(visitor));
  const conversation = `${from}:${conversationId}`;
  const ask: CardAsk = {
    visitor: visitor.key,
    network: visitor.networks[0] ?? visitor.key,
    conversation,
    source: `${conversation}:${remark}`,
  };
  const claim = await shelf.claim(ask, limits);
  if (claim.kind !== 'make') return shelfAnswer(env, claim);
  let made = false;
  try {
    const words = await read();
    if (!words.ok) return wordsRefusal(words);
    const card = await cardOf(env, words, limits, siteOrigin);
    if (card instanceof Response) return card;
    await shelf.made(ask, card);
    made = true;
    return json(card, 201);
  } finally {
    // No card came of it (not found, not ready, refused, a fault): its place under the limits back.
    if (!made) await shelf.unmade(ask);
  }
}

/** For the owner's report: the shelf that heard the most requests in the last ten minutes. */
export function busiestShelf(env: Env): Promise<BusiestLoad | undefined> {
  return busiestOf(SHELF_NAMES, (name) => env.CARD_SHELF.getByName(name).load());
}
