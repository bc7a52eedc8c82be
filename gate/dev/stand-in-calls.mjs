// The calls the stand-in provider keeps, and how it answers for one (`GET /call/{id}`, `GET
// /call`): the record Prism's example gives, with the call's own id, room, status and cost.
import { randomUUID } from 'node:crypto';

/**
 * A call as the stand-in keeps it.
 * @typedef {{
 *   id: string,
 *   roomUrl: string,
 *   status: 'queued' | 'in-progress' | 'ended',
 *   startedAt: number,
 *   joinedAt: number | null,
 *   maxMs: number,
 *   endedAt: string | null,
 *   endedReason: string | null,
 *   cost: number,
 *   timer: NodeJS.Timeout | undefined,
 *   joinTimer: NodeJS.Timeout | undefined,
 *   createdAt: number,
 *   assistantOverrides: KeptOverrides | null,
 *   messagesLost: boolean,
 *   gateToldAt: number | null,
 *   messages: { role: 'bot' | 'user', message: string, time: number, endTime: number,
 * secondsFromStart: number }[], }} StandInCall
 */

/**
 * What the stand-in keeps of a call's overrides, as the provider keeps them with the call: the
 * gate's tag, the chat handed over and how the call opens.
 * @typedef {{ metadata?: object, variableValues?: Record<string, unknown>, firstMessageMode?:
 * string }} KeptOverrides
 */

/**
 * How long the provider lets a visitor join a web call before it ends the call itself, when the
 * call was created without `customerJoinTimeoutSeconds` (the provider's documented default).
 */
export const DEFAULT_JOIN_TIMEOUT_SECONDS = 15;

/** Why the provider ends a web call nobody joined in time. */
export const JOIN_TIMEOUT_REASON = 'assistant-did-not-receive-customer-audio';

/**
 * How long a call may wait for its visitor to join: its `customerJoinTimeoutSeconds` (the gate
 * sets it on every call), else the provider's default.
 * @param {any} requestBody a `POST /call/web` body
 */
export function joinTimeoutSeconds(requestBody) {
  const asked = Number(requestBody?.assistantOverrides?.customerJoinTimeoutSeconds);
  return Number.isFinite(asked) && asked > 0 ? asked : DEFAULT_JOIN_TIMEOUT_SECONDS;
}

/** The opening the model writes from its prompt (the gate asks it of a call handed a chat). */
export const MODEL_WRITES_OPENING = 'assistant-speaks-first-with-model-generated-message';

/**
 * The stand-in's model, opening a call handed a chat: it reads the quoted chat as data and picks
 * up from it. Like the prompt asks of Pepa, it repeats nothing the visitor typed.
 */
export const HANDOVER_OPENING =
  'Ribbit, now we can talk by voice, honoured guest! Carrying on from our chat: where were we?';

/**
 * @param {any} requestBody a `POST /call/web` body
 * @returns {KeptOverrides | null}
 */
export function keptOverrides(requestBody) {
  const overrides = requestBody?.assistantOverrides;
  if (!overrides || typeof overrides !== 'object') return null;
  /** @type {KeptOverrides} */
  const kept = {};
  if (overrides.metadata && typeof overrides.metadata === 'object') {
    kept.metadata = overrides.metadata;
  }
  if (overrides.variableValues && typeof overrides.variableValues === 'object') {
    kept.variableValues = overrides.variableValues;
  }
  if (typeof overrides.firstMessageMode === 'string') {
    kept.firstMessageMode = overrides.firstMessageMode;
  }
  return Object.keys(kept).length > 0 ? kept : null;
}

/**
 * The chat a call was handed, read as the model reads it: a list of who said what; null when the
 * call was handed none (or none it can read).
 * @param {StandInCall} call
 * @returns {{ by: 'visitor' | 'pepa', text: string }[] | null}
 */
export function chatHandedTo(call) {
  const quoted = call.assistantOverrides?.variableValues?.chatSoFar;
  if (typeof quoted !== 'string') return null;
  try {
    const entries = JSON.parse(quoted);
    return Array.isArray(entries) &&
      entries.every(
        (entry) =>
          (entry?.by === 'visitor' || entry?.by === 'pepa') && typeof entry.text === 'string',
      )
      ? entries
      : null;
  } catch {
    return null;
  }
}

/**
 * Pepa's first remark in a call, when the model writes it (a call handed a chat); null: the
 * assistant's stored first message.
 * @param {StandInCall} call
 */
export function openingOf(call) {
  if (call.assistantOverrides?.firstMessageMode !== MODEL_WRITES_OPENING) return null;
  return chatHandedTo(call)?.length ? HANDOVER_OPENING : null;
}

/** A short, URL-safe room name. */
export function roomName() {
  return randomUUID().replaceAll('-', '').slice(0, 12);
}

/**
 * @param {object} base
 * @param {StandInCall} call
 */
export function callRecord(base, call) {
  return {
    ...base,
    id: call.id,
    status: call.status,
    webCallUrl: call.roomUrl,
    startedAt: new Date(call.startedAt).toISOString(),
    ...(call.endedAt ? { endedAt: call.endedAt, endedReason: call.endedReason } : {}),
    ...(call.assistantOverrides ? { assistantOverrides: call.assistantOverrides } : {}),
    cost: call.cost,
    // What was said, as the simulated room reported it.
    messages: call.messages,
    artifact: { messages: call.messages },
  };
}
