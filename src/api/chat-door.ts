/**
 * The page's side of the gate's text operations (openapi/gate.json, tag `text`), through the
 * generated client: start a chat, send a message and read Pepa's reply as it streams, end it.
 *
 * A message is sent once, whatever happens to its stream: the generated client's event-stream
 * reader reconnects by default (and would send the message again), so every send allows it one
 * attempt only, and an answer that is not a stream is read as the gate's problem.
 */
import { endChat, sendChatMessage, startChat } from '../../generated/gate/sdk.gen';
import type { Chat, Problem } from '../../generated/gate/types.gen';
import { GateApiError, toGateApiError, type ChatPass, type GateDoor } from './gate-client';
import { isRecord } from '../lib/is-record';

export type { Chat, ChatPass };

/**
 * How a reply ended: finished (with its place in the chat, by which a card of it is asked for),
 * broken off by the provider, or stopped by the visitor.
 */
export type ReplyEnd =
  | { type: 'done'; turnsLeft: number; remark?: number }
  | { type: 'failed'; problem: Problem }
  | { type: 'stopped' };

/** What the chat needs of the world: each part replaceable in tests. */
export interface ChatDoor {
  /** A bot-check token for the chat's start, as a call's start has. */
  botCheck: GateDoor['botCheck'];
  /** `POST /api/chats`. */
  start(botCheckToken: string, signal: AbortSignal): Promise<Chat>;
  /**
   * `POST /api/chats/{id}/messages`, sent once: each piece of the reply goes to `onWords` as it
   * arrives. Rejects with a {@link GateApiError} when the gate refuses the message or the stream
   * breaks; resolves `stopped` when `signal` aborts.
   */
  send(
    chat: ChatPass,
    text: string,
    signal: AbortSignal,
    onWords: (words: string) => void,
  ): Promise<ReplyEnd>;
  /** `DELETE /api/chats/{id}`, sent even as the page goes away. */
  end(chat: ChatPass): void;
}

/** One event of a reply's stream, as the contract's ChatStreamEvent says it must be. */
type StreamEvent = { type: 'words'; text: string } | Exclude<ReplyEnd, { type: 'stopped' }>;

function readEvent(data: unknown): StreamEvent | null {
  if (!isRecord(data)) return null;
  if (data.type === 'words' && typeof data.text === 'string') {
    return { type: 'words', text: data.text };
  }
  if (data.type === 'done' && typeof data.turnsLeft === 'number') {
    // A reply without its place still stands: only its card cannot be asked for.
    const remark = data.remark;
    return typeof remark === 'number' && Number.isInteger(remark) && remark >= 1
      ? { type: 'done', turnsLeft: data.turnsLeft, remark }
      : { type: 'done', turnsLeft: data.turnsLeft };
  }
  if (data.type === 'failed' && isRecord(data.problem) && typeof data.problem.code === 'string') {
    return { type: 'failed', problem: data.problem as Problem };
  }
  return null;
}

function isChat(value: unknown): value is Chat {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.secret === 'string' &&
    typeof value.maxMessageChars === 'number' &&
    typeof value.turnsLeft === 'number'
  );
}

const malformed = (operation: string) =>
  new GateApiError(
    `${operation} answered something the contract does not allow`,
    'http',
    502,
    'malformed-answer',
    null,
  );

/**
 * The fetch a send goes through: the page's own, except that an answer that is not a stream is
 * read as the gate's problem (its code and Retry-After), not dropped as the reader's bare error.
 */
function streamOnly(request: Request): Promise<Response> {
  return globalThis.fetch(request).then(
    async (response) => {
      if (response.ok) return response;
      const body: unknown = await response.json().catch(() => null);
      throw toGateApiError(body, response, request);
    },
    (error: unknown) => {
      throw toGateApiError(error, undefined, request);
    },
  );
}

/** Reads a reply's stream to its end, sent once. */
async function sendOnce(
  chat: ChatPass,
  text: string,
  signal: AbortSignal,
  onWords: (words: string) => void,
): Promise<ReplyEnd> {
  let failure: unknown = null;
  const { stream } = await sendChatMessage({
    path: { chatId: chat.id },
    headers: { 'Chat-Secret': chat.secret },
    body: { text },
    signal,
    // The message is said once: the reader never reconnects (which would send it again).
    sseMaxRetryAttempts: 1,
    onSseError: (error) => {
      failure = error;
    },
    fetch: streamOnly as typeof fetch,
  });
  for await (const data of stream) {
    const event = readEvent(data);
    if (!event) throw malformed('POST /api/chats/{chatId}/messages');
    if (event.type === 'words') onWords(event.text);
    else return event;
  }
  if (signal.aborted) return { type: 'stopped' };
  if (failure instanceof GateApiError) throw failure;
  // The stream ended without its last word: the connection broke.
  throw new GateApiError(
    'POST /api/chats/{chatId}/messages: the reply broke off',
    'network',
    0,
    null,
    null,
    null,
    { cause: failure },
  );
}

/** The gate's text door as the page uses it: the generated client, same origin. */
export function gateChatDoor(botCheck: GateDoor['botCheck']): ChatDoor {
  return {
    botCheck,
    start: async (botCheckToken, signal) => {
      const { data } = await startChat({ body: { botCheckToken }, signal, throwOnError: true });
      const chat: unknown = isRecord(data) ? data.chat : null;
      if (!isChat(chat)) throw malformed('POST /api/chats');
      return chat;
    },
    send: sendOnce,
    end: (chat) => {
      // keepalive: the request outlives a page that is closing.
      void endChat({
        path: { chatId: chat.id },
        headers: { 'Chat-Secret': chat.secret },
        keepalive: true,
      }).catch(() => undefined);
    },
  };
}
