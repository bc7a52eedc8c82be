/**
 * The visitor's rating of a call, sent to the site's own gate: `POST /api/ratings` (same origin).
 * One small module, so the gate's generated client can take its place without touching the UI.
 */

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

function retryAfterSeconds(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * Sends one rating: the call id, the score and an optional comment, nothing else. Never throws
 * for an answer or a network failure: the result says what happened. An abort rejects.
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
  let response: Response;
  try {
    response = await fetch(RATINGS_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { status: 'failed' };
  }
  switch (response.status) {
    case 204:
    case 200:
    case 201:
      return { status: 'sent' };
    case 400:
      return { status: 'invalid' };
    case 404:
      return { status: 'unknown-call' };
    case 409:
      return { status: 'already-rated' };
    case 429:
      return {
        status: 'rate-limited',
        retryAfterSeconds: retryAfterSeconds(response.headers.get('Retry-After')),
      };
    default:
      return { status: 'failed' };
  }
}
