/**
 * The gate's side of the provider's chat: `POST /chat` streamed for one turn, with bounded,
 * jittered retries of the answers that say "not now" (429, 5xx) and honour their Retry-After;
 * and `GET /chat/{id}` for what the turn cost (chats send no end-of-call report). Through the
 * provider's generated client, as calls are.
 */
import { createClient, createConfig } from '../../../generated/client';
import { chatControllerCreateChat, chatControllerGetChat } from '../../../generated/sdk.gen';
import type { CreateChatDto } from '../../../generated/types.gen';
import { PROVIDER_API, type ProviderSettings } from './provider';

/** Tries of one turn's `POST /chat`, the first included. */
export const CHAT_ATTEMPTS = 3;
/** The first retry's pause; each after it doubles (a random half to all of it: jitter). */
export const RETRY_BASE_MS = 250;
/** A Retry-After longer than this is not waited for: the visitor is told when to try. */
export const RETRY_AFTER_WAIT_LIMIT_S = 3;
/** How long the provider may take to begin its answer. */
export const FIRST_ANSWER_TIMEOUT_MS = 15_000;

export type ChatSettings = Pick<ProviderSettings, 'privateKey' | 'assistantId' | 'apiUrl'>;

/** Why a turn got no reply. */
export type ChatFailure =
  /** 402: the provider will not bill chats (no card, no credits): text stops for the day. */
  | { kind: 'billing'; status: 402 }
  /** 429 or 5xx, still after the retries: nothing was made; try again later. */
  | { kind: 'busy'; status: number; retryAfterSeconds: number }
  /** Another 4xx: the provider refused the request itself. */
  | { kind: 'refused'; status: number }
  /** No answer, or none in time: a reply may have been written, and billed. */
  | { kind: 'unknown'; status: 0 };

export type ChatOpening =
  | { ok: true; body: ReadableStream<Uint8Array>; attempts: number }
  | { ok: false; failure: ChatFailure; attempts: number };

export interface RetryClock {
  sleep(ms: number): Promise<void>;
  random(): number;
}

export const realClock: RetryClock = {
  sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
  random: () => Math.random(),
};

/** The provider's chat settings as the Worker's environment gives them. */
export function chatSettingsFrom(env: Env): ChatSettings {
  return {
    privateKey: env.VAPI_PRIVATE_KEY ?? '',
    assistantId: env.VAPI_ASSISTANT_ID ?? '',
    apiUrl: env.VAPI_API_URL,
  };
}

export function clientFor(settings: ChatSettings) {
  return createClient(
    createConfig({
      baseUrl: (settings.apiUrl ?? PROVIDER_API).replace(/\/+$/, ''),
      auth: () => settings.privateKey,
    }),
  );
}

/** Seconds from a Retry-After header (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : null;
}

/** The pause before retry `n` (1 for the first): the provider's Retry-After, else a backoff. */
export function retryPause(n: number, retryAfter: number | null, random: () => number): number {
  if (retryAfter !== null) return retryAfter * 1000;
  const ceiling = RETRY_BASE_MS * 2 ** (n - 1);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The turn's request: Pepa, the visitor's words, and the chat it continues. */
export function turnRequest(
  settings: ChatSettings,
  input: string,
  previousChatId: string | null,
): CreateChatDto {
  return {
    assistantId: settings.assistantId,
    input,
    stream: true,
    ...(previousChatId ? { previousChatId } : {}),
  };
}

/**
 * `POST /chat` with `stream: true`: the reply's event stream, or why there is none. `signal`
 * is the visitor's: aborting it ends the provider's request, at once.
 */
export async function openChatStream(
  settings: ChatSettings,
  body: CreateChatDto,
  signal: AbortSignal,
  clock: RetryClock = realClock,
): Promise<ChatOpening> {
  for (let attempt = 1; ; attempt += 1) {
    const timeout = AbortSignal.timeout(FIRST_ANSWER_TIMEOUT_MS);
    let response: Response | undefined;
    let stream: unknown;
    try {
      const answer = await chatControllerCreateChat({
        client: clientFor(settings),
        body,
        parseAs: 'stream',
        signal: AbortSignal.any([signal, timeout]),
      });
      response = answer.response;
      stream = answer.data;
    } catch {
      // No answer (a reset, a timeout, the visitor gone): the provider may have begun a reply.
      return { ok: false, failure: { kind: 'unknown', status: 0 }, attempts: attempt };
    }
    const status = response?.status ?? 0;
    if (response?.ok && stream instanceof ReadableStream) {
      return { ok: true, body: stream as ReadableStream<Uint8Array>, attempts: attempt };
    }
    if (status === 402)
      return { ok: false, failure: { kind: 'billing', status }, attempts: attempt };
    if (status !== 429 && status < 500) {
      return {
        ok: false,
        failure: status ? { kind: 'refused', status } : { kind: 'unknown', status: 0 },
        attempts: attempt,
      };
    }
    const asked = retryAfterSeconds(response?.headers.get('retry-after') ?? null, Date.now());
    const tooLong = asked !== null && asked > RETRY_AFTER_WAIT_LIMIT_S;
    if (attempt >= CHAT_ATTEMPTS || tooLong || signal.aborted) {
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

/** `GET /chat/{id}`: what the chat cost in USD, or null when it cannot be read. */
export async function chatCost(settings: ChatSettings, id: string): Promise<number | null> {
  try {
    const { data, response } = await chatControllerGetChat({
      client: clientFor(settings),
      path: { id },
      signal: AbortSignal.timeout(FIRST_ANSWER_TIMEOUT_MS),
    });
    if (!response?.ok || !data) return null;
    const cost = (data as { cost?: unknown }).cost;
    return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null;
  } catch {
    return null;
  }
}
