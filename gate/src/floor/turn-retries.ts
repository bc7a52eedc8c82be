/**
 * How a text turn asks a streaming endpoint (the provider's chat, or the model engine's) for a
 * reply: a first answer within its time, bounded and jittered retries of the answers that say
 * "not now" (429, 5xx) honouring a short Retry-After, and what a turn without a reply failed of.
 * Plain TypeScript, with no Worker globals, shared by both engines.
 */

/** Tries of one turn's request, the first included. */
export const TURN_ATTEMPTS = 3;
/** The first retry's pause; each after it doubles (a random half to all of it: jitter). */
export const RETRY_BASE_MS = 250;
/** A Retry-After longer than this is not waited for: the visitor is told when to try. */
export const RETRY_AFTER_WAIT_LIMIT_S = 3;
/** How long the endpoint may take to begin its answer. */
export const FIRST_ANSWER_TIMEOUT_MS = 15_000;

/** Why a turn got no reply. */
export type TurnFailure =
  /** 402, or no quota: the endpoint will not bill (no card, no credits): text stops for the day. */
  | { kind: 'billing'; status: 402 }
  /** 429 or 5xx, still after the retries: nothing was made; try again later. */
  | { kind: 'busy'; status: number; retryAfterSeconds: number }
  /** Another 4xx: the endpoint refused the request itself. */
  | { kind: 'refused'; status: number }
  /** No answer, or none in time: a reply may have been written, and billed. */
  | { kind: 'unknown'; status: 0 };

export type TurnOpening =
  | { ok: true; body: ReadableStream<Uint8Array>; attempts: number }
  | { ok: false; failure: TurnFailure; attempts: number };

export interface RetryClock {
  sleep(ms: number): Promise<void>;
  random(): number;
}

export const realClock: RetryClock = {
  sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
  random: () => Math.random(),
};

/** Seconds from a Retry-After header (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : null;
}

/** The pause before retry `n` (1 for the first): the endpoint's Retry-After, else a backoff. */
export function retryPause(n: number, retryAfter: number | null, random: () => number): number {
  if (retryAfter !== null) return retryAfter * 1000;
  const ceiling = RETRY_BASE_MS * 2 ** (n - 1);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * What one `data:` line of an engine's stream adds: the reply's id at the engine (when the line
 * names it), Pepa's next words, and what the request used (the model engine's last chunk).
 */
export interface ReplyPiece {
  id: string | null;
  words: string;
  usage: unknown;
}

/** What one try of a turn's request was answered: the response, its stream, its error body. */
export interface TurnAnswer {
  response: Response | undefined;
  data: unknown;
  error?: unknown;
}

/**
 * A turn's streamed request, tried until it streams or says why not: `ask` sends one try with the
 * signal it is given (the visitor's, and the first answer's time); `cannotPay` reads an error
 * answer that says the account will not be billed (no retry helps today). 429 and 5xx are tried
 * again, at most {@link TURN_ATTEMPTS} times, after the endpoint's Retry-After when it is short or
 * a jittered backoff; a longer Retry-After is answered at once. No answer at all may have begun a
 * reply, and is not tried again.
 */
export async function openTurn(
  ask: (signal: AbortSignal) => Promise<TurnAnswer>,
  cannotPay: (status: number, error: unknown) => boolean,
  signal: AbortSignal,
  clock: RetryClock = realClock,
): Promise<TurnOpening> {
  for (let attempt = 1; ; attempt += 1) {
    const timeout = AbortSignal.timeout(FIRST_ANSWER_TIMEOUT_MS);
    let answer: TurnAnswer;
    try {
      answer = await ask(AbortSignal.any([signal, timeout]));
    } catch {
      // No answer (a reset, a timeout, the visitor gone): a reply may have been begun.
      return { ok: false, failure: { kind: 'unknown', status: 0 }, attempts: attempt };
    }
    const { response, data, error } = answer;
    const status = response?.status ?? 0;
    if (response?.ok && data instanceof ReadableStream) {
      return { ok: true, body: data as ReadableStream<Uint8Array>, attempts: attempt };
    }
    if (status && cannotPay(status, error)) {
      return { ok: false, failure: { kind: 'billing', status: 402 }, attempts: attempt };
    }
    if (status !== 429 && status < 500) {
      return {
        ok: false,
        failure: status ? { kind: 'refused', status } : { kind: 'unknown', status: 0 },
        attempts: attempt,
      };
    }
    const asked = retryAfterSeconds(response?.headers.get('retry-after') ?? null, Date.now());
    const tooLong = asked !== null && asked > RETRY_AFTER_WAIT_LIMIT_S;
    if (attempt >= TURN_ATTEMPTS || tooLong || signal.aborted) {
      return {
        ok: false,
        failure: { kind: 'busy', status, retryAfterSeconds: Math.max(1, asked ?? 5) },
        attempts: attempt,
      };
    }
    await clock.sleep(retryPause(attempt, asked, clock.random));
    if (signal.aborted) {
      return {
        ok: false,
        failure: { kind: 'busy', status, retryAfterSeconds: 1 },
        attempts: attempt,
      };
    }
  }
}
