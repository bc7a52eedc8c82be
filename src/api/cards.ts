/**
 * Quote cards of Pepa's remarks, made by the site's own gate: `POST /api/cards` (same origin),
 * through the gate's generated client (openapi/gate.json, `makeCard`). The page names only the
 * remark (the conversation and its place); the gate takes the words from the provider itself.
 */
import { makeCard } from '../../generated/gate/sdk.gen';
import type { Card } from '../../generated/gate/types.gen';
import { isRecord } from '../lib/is-record';
import { GateApiError } from './gate-client';

export type { Card };

/**
 * Which of Pepa's remarks a card is asked for. A call's is proven by the card cookie the gate set
 * with its admission (the browser sends it); a chat's by the chat's secret.
 */
export type CardRemark =
  | { from: 'call'; conversationId: string; remark: number }
  | { from: 'chat'; conversationId: string; remark: number; chatSecret: string };

/** How an ask ended. Never thrown: each answer the contract declares has its own. */
export type CardResult =
  | { status: 'made'; card: Card }
  /** The words are not published; `reason` is the gate's own, when it gave one. */
  | { status: 'refused'; reason: string | null }
  /** The provider has not written the remark down yet: ask again after the wait. */
  | { status: 'not-ready'; retryAfterSeconds: number }
  /** No such remark of Pepa's in a conversation of this visitor's. */
  | { status: 'not-found' }
  | { status: 'rate-limited'; retryAfterSeconds: number | null }
  /** Anything else: no answer (`network`), or one the page cannot use. */
  | { status: 'failed'; network: boolean };

/** When the gate gives no wait for a remark not yet written down: about as long as a call's end. */
export const NOT_READY_FALLBACK_SECONDS = 5;

const isWebAddress = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    return ['https:', 'http:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** A card the page can show and link to: only web addresses go into its links and image. */
export function isCard(value: unknown): value is Card {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    isWebAddress(value.pageUrl) &&
    isWebAddress(value.imageUrl) &&
    typeof value.words === 'string' &&
    value.words.trim() !== '' &&
    typeof value.saidAt === 'string' &&
    typeof value.imageWidth === 'number' &&
    typeof value.imageHeight === 'number'
  );
}

const seconds = (ms: number | null) => (ms === null ? null : Math.max(1, Math.ceil(ms / 1000)));

/** A failed ask in the result's terms. */
function resultOf(error: unknown): CardResult {
  if (!(error instanceof GateApiError) || error.kind === 'network') {
    return { status: 'failed', network: true };
  }
  switch (error.code) {
    case 'card-refused':
      return { status: 'refused', reason: error.detail };
    case 'card-not-ready':
      return {
        status: 'not-ready',
        retryAfterSeconds: seconds(error.retryAfterMs) ?? NOT_READY_FALLBACK_SECONDS,
      };
    case 'not-found':
      return { status: 'not-found' };
    case 'rate-limited':
      return { status: 'rate-limited', retryAfterSeconds: seconds(error.retryAfterMs) };
    default:
      return { status: 'failed', network: false };
  }
}

/**
 * Asks the gate for a card of one of Pepa's remarks. Sends the remark's address and its proof,
 * nothing else. Resolves with what happened; only an abort rejects.
 */
export async function askForCard(remark: CardRemark, signal?: AbortSignal): Promise<CardResult> {
  try {
    const { data } = await makeCard({
      body: { from: remark.from, conversationId: remark.conversationId, remark: remark.remark },
      ...(remark.from === 'chat' ? { headers: { 'Chat-Secret': remark.chatSecret } } : {}),
      // A call's proof is its card cookie, which the browser sends to the site's own origin.
      credentials: 'same-origin',
      ...(signal ? { signal } : {}),
      throwOnError: true,
    });
    return isCard(data) ? { status: 'made', card: data } : { status: 'failed', network: false };
  } catch (error) {
    if (signal?.aborted) throw error;
    return resultOf(error);
  }
}
