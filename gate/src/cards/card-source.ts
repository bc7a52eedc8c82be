/**
 * Where a card's words come from: the provider's own record, never the page.
 * - A call: `GET /call/{id}`, the messages the provider recorded in Pepa's role (`bot`), the
 *   artifact's first and the call's own `messages` else. The provider may write them only when
 *   the call ends, so a remark not there yet of a call under way is "not ready", not "not found".
 * - A chat: `GET /chat/{id}` of the provider's chat the gate created for that reply, its `output`
 *   in the assistant's role only. Its `input` may hold assistant messages a caller wrote, so it is
 *   never read for words; and a chat whose input is not the visitor's text (a string, as the gate
 *   sends it) is not one the gate created.
 * With the words comes what the visitor said before them in the conversation (the call's messages
 * in the visitor's role; the chat's input and the desk's record of the visitor's earlier messages),
 * so a card is never made of Pepa repeating them.
 */
import { callControllerFindOne, chatControllerGetChat } from '../../../generated/sdk.gen';
import { clientFor, type ProviderChatSettings } from '../provider/provider-chat';

/** How long a card's provider read may take. */
const READ_TIMEOUT_MS = 8_000;
/** When to ask again for a remark of a call under way. */
export const NOT_READY_RETRY_SECONDS = 10;

export type RemarkWords =
  | { ok: true; words: string; saidAt: Date; heard: string[] }
  | { ok: false; kind: 'not-found' }
  | { ok: false; kind: 'not-ready'; retryAfterSeconds: number }
  | { ok: false; kind: 'provider'; status: number };

const NOT_FOUND = { ok: false, kind: 'not-found' } as const;

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function dateOr(value: unknown, fallback: Date): Date {
  const at =
    typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(at) && at > 0 ? new Date(at) : fallback;
}

interface CallRemark {
  words: string;
  time: unknown;
  /** What the visitor said in the call before it. */
  heard: string[];
}

/** Pepa's remarks as the provider recorded them in a call: the words, when, and what came before. */
function pepaRemarks(call: Record<string, unknown>): CallRemark[] {
  const artifact = record(call.artifact);
  const messages = Array.isArray(artifact?.messages)
    ? artifact.messages
    : Array.isArray(call.messages)
      ? call.messages
      : [];
  const heard: string[] = [];
  return messages.flatMap((entry) => {
    const message = record(entry);
    const words = message?.message;
    if (typeof words !== 'string' || !words.trim()) return [];
    if (message?.role === 'user') heard.push(words);
    if (message?.role !== 'bot') return [];
    return [{ words, time: message.time, heard: [...heard] }];
  });
}

/** Remark `remark` (1 for her first) of what Pepa said in call `callId`. */
export async function callRemark(
  settings: ProviderChatSettings,
  callId: string,
  remark: number,
): Promise<RemarkWords> {
  let answer: Awaited<ReturnType<typeof callControllerFindOne>>;
  try {
    answer = await callControllerFindOne({
      client: clientFor(settings),
      path: { id: callId },
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, kind: 'provider', status: 0 };
  }
  const status = answer.response?.status ?? 0;
  if (status === 404) return NOT_FOUND;
  const call = record(answer.data);
  if (!answer.response?.ok || !call) return { ok: false, kind: 'provider', status };
  const said = pepaRemarks(call)[remark - 1];
  if (!said) {
    return call.status === 'ended'
      ? NOT_FOUND
      : { ok: false, kind: 'not-ready', retryAfterSeconds: NOT_READY_RETRY_SECONDS };
  }
  const started = dateOr(call.startedAt, new Date());
  return { ok: true, words: said.words, saidAt: dateOr(said.time, started), heard: said.heard };
}

/**
 * What Pepa wrote in the provider's chat `providerChatId`, which the gate created; `heard` is
 * what the desk kept of the visitor's messages before it.
 */
export async function chatRemark(
  settings: ProviderChatSettings,
  providerChatId: string,
  heard: readonly string[] = [],
): Promise<RemarkWords> {
  let answer: Awaited<ReturnType<typeof chatControllerGetChat>>;
  try {
    answer = await chatControllerGetChat({
      client: clientFor(settings),
      path: { id: providerChatId },
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
  } catch {
    return { ok: false, kind: 'provider', status: 0 };
  }
  const status = answer.response?.status ?? 0;
  if (status === 404) return NOT_FOUND;
  const chat = record(answer.data);
  if (!answer.response?.ok || !chat) return { ok: false, kind: 'provider', status };
  if (typeof chat.input !== 'string') return NOT_FOUND;
  const output = Array.isArray(chat.output) ? chat.output : [];
  const words = output
    .map(record)
    .filter((message) => message?.role === 'assistant' && typeof message.content === 'string')
    .map((message) => String(message?.content).trim())
    .filter(Boolean)
    .join(' ');
  if (!words) return NOT_FOUND;
  return {
    ok: true,
    words,
    saidAt: dateOr(chat.createdAt, new Date()),
    heard: [...heard, chat.input],
  };
}
