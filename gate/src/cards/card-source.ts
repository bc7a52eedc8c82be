/**
 * Where a card's words come from: the provider's own record, never the page.
 * - A call: `GET /call/{id}`, the messages the provider recorded in Pepa's role (`bot`), the
 *   artifact's first and the call's own `messages` else. The provider may write them only when
 *   the call ends, so a line not there yet of a call under way is "not ready", not "not found".
 * - A chat: `GET /chat/{id}` of the provider's chat the gate created for that reply, its `output`
 *   in the assistant's role only. Its `input` may hold assistant messages a caller wrote, so it is
 *   never read for words; and a chat whose input is not the visitor's text (a string, as the gate
 *   sends it) is not one the gate created.
 */
import { callControllerFindOne, chatControllerGetChat } from '../../../generated/sdk.gen';
import { clientFor, type ChatSettings } from '../provider-chat';

/** How long a card's provider read may take. */
const READ_TIMEOUT_MS = 8_000;
/** When to ask again for a line of a call under way. */
export const NOT_READY_RETRY_SECONDS = 10;

export type LineWords =
  | { ok: true; words: string; saidAt: Date }
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

/** Pepa's lines as the provider recorded them in a call: the words, and when each began. */
function pepaLines(call: Record<string, unknown>): Array<{ words: string; time: unknown }> {
  const artifact = record(call.artifact);
  const messages = Array.isArray(artifact?.messages)
    ? artifact.messages
    : Array.isArray(call.messages)
      ? call.messages
      : [];
  return messages.flatMap((entry) => {
    const message = record(entry);
    const words = message?.message;
    if (message?.role !== 'bot' || typeof words !== 'string' || !words.trim()) return [];
    return [{ words, time: message.time }];
  });
}

/** Line `line` (1 for her first) of what Pepa said in call `callId`. */
export async function callLine(
  settings: ChatSettings,
  callId: string,
  line: number,
): Promise<LineWords> {
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
  const said = pepaLines(call)[line - 1];
  if (!said) {
    return call.status === 'ended'
      ? NOT_FOUND
      : { ok: false, kind: 'not-ready', retryAfterSeconds: NOT_READY_RETRY_SECONDS };
  }
  const started = dateOr(call.startedAt, new Date());
  return { ok: true, words: said.words, saidAt: dateOr(said.time, started) };
}

/** What Pepa wrote in the provider's chat `providerChatId`, which the gate created. */
export async function chatLine(settings: ChatSettings, providerChatId: string): Promise<LineWords> {
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
  return { ok: true, words, saidAt: dateOr(chat.createdAt, new Date()) };
}
