/**
 * The visitor's rating of a call, sent to the site's own gate: `POST /api/ratings` (same origin),
 * through the gate's generated client (openapi/gate.json, `rateCall`).
 */
import { rateCall } from '../../generated/gate/sdk.gen';
import { GateApiError } from './gate-client';

export const RATING_SCORES = ['delighted', 'content', 'displeased'] as const;
export type RatingScore = (typeof RATING_SCORES)[number];

/** The gate keeps comments this short. */
export const RATING_COMMENT_MAX_CHARS = 280;

export const RATINGS_PATH = '/api/ratings';

export interface RatingInput {
  callId: string;
  score: RatingScore;
  comment?: string;
}

/** How a send ended. Only `sent` and `already-rated` mean the gate holds the rating. */
export type RatingResult =
  | { status: 'sent' }
  | { status: 'already-rated' }
  | { status: 'unknown-call' }
  | { status: 'invalid' }
  | { status: 'rate-limited'; retryAfterSeconds: number | null }
  | { status: 'failed' };

/**
 * Sends one rating through the gate's generated client (`rateCall`): the call id, the score and
 * an optional comment, nothing else. Never throws for an answer or a network failure: the result
 * says what happened. An abort rejects.
 */
export async function submitRating(
  input: RatingInput,
  signal?: AbortSignal,
): Promise<RatingResult> {
  const comment = input.comment?.trim().slice(0, RATING_COMMENT_MAX_CHARS);
  const body = {
    callId: input.callId,
    score: input.score,
    ...(comment ? { comment } : {}),
  };
  try {
    await rateCall({ body, ...(signal ? { signal } : {}), throwOnError: true });
    return { status: 'sent' };
  } catch (error) {
    if (signal?.aborted) throw error;
    if (!(error instanceof GateApiError) || error.kind === 'network') return { status: 'failed' };
    switch (error.status) {
      case 400:
        return { status: 'invalid' };
      case 404:
        return { status: 'unknown-call' };
      case 409:
        return { status: 'already-rated' };
      case 429:
        return {
          status: 'rate-limited',
          retryAfterSeconds:
            error.retryAfterMs === null ? null : Math.ceil(error.retryAfterMs / 1000),
        };
      default:
        return { status: 'failed' };
    }
  }
}
