/**
 * The gate's side of the provider's chat: `POST /chat` streamed for one turn, with bounded,
 * jittered retries of the answers that say "not now" (429, 5xx) and honour their Retry-After;
 * and `GET /chat/{id}` for what the turn cost (provider chats send no end-of-call report). Through
 * the provider's generated client, as calls are.
 */
import { createClient, createConfig } from '../../../generated/client';
import { chatControllerCreateChat, chatControllerGetChat } from '../../../generated/sdk.gen';
import type { CreateChatDto } from '../../../generated/types.gen';
import { PROVIDER_API, type ProviderSettings } from './provider';
import {
  FIRST_ANSWER_TIMEOUT_MS,
  openTurn,
  realClock,
  type TurnOpening,
  type ReplyPiece,
  type RetryClock,
} from '../floor/turn-retries';

export {
  TURN_ATTEMPTS,
  FIRST_ANSWER_TIMEOUT_MS,
  RETRY_AFTER_WAIT_LIMIT_S,
  RETRY_BASE_MS,
  realClock,
  retryAfterSeconds,
  retryPause,
  type TurnFailure,
  type TurnOpening,
  type RetryClock,
} from '../floor/turn-retries';

export type ProviderChatSettings = Pick<ProviderSettings, 'privateKey' | 'assistantId' | 'apiUrl'>;

/** The provider's chat settings as the Worker's environment gives them. */
export function providerChatSettingsFrom(env: Env): ProviderChatSettings {
  return {
    privateKey: env.VAPI_PRIVATE_KEY ?? '',
    assistantId: env.VAPI_ASSISTANT_ID ?? '',
    apiUrl: env.VAPI_API_URL,
  };
}

export function clientFor(settings: ProviderChatSettings) {
  return createClient(
    createConfig({
      baseUrl: (settings.apiUrl ?? PROVIDER_API).replace(/\/+$/, ''),
      auth: () => settings.privateKey,
    }),
  );
}

/** The turn's request: Pepa, the visitor's words, and the chat it continues. */
export function turnRequest(
  settings: ProviderChatSettings,
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
export function openProviderChatStream(
  settings: ProviderChatSettings,
  body: CreateChatDto,
  signal: AbortSignal,
  clock: RetryClock = realClock,
): Promise<TurnOpening> {
  return openTurn(
    (tried) =>
      chatControllerCreateChat({
        client: clientFor(settings),
        body,
        parseAs: 'stream',
        signal: tried,
      }),
    (status) => status === 402,
    signal,
    clock,
  );
}

/**
 * One `data:` line of the provider's chat stream (`{ id, path, delta }`): the provider chat's id
 * and Pepa's next words; null when it is not such a piece. The provider reports no usage here.
 */
export function providerPiece(data: string): ReplyPiece | null {
  let piece: { id?: unknown; delta?: unknown };
  try {
    piece = JSON.parse(data) as typeof piece;
  } catch {
    return null;
  }
  if (!piece || typeof piece !== 'object') return null;
  return {
    id: typeof piece.id === 'string' && piece.id ? piece.id : null,
    words: typeof piece.delta === 'string' ? piece.delta : '',
    usage: null,
  };
}

/** `GET /chat/{id}`: what the provider chat cost in USD, or null when it cannot be read. */
export async function providerChatCost(
  settings: ProviderChatSettings,
  id: string,
): Promise<number | null> {
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
