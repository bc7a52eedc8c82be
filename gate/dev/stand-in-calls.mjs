// The calls the stand-in provider keeps, and how it answers for one (`GET /call/{id}`, `GET
// /call`): the record Prism's example gives, with the call's own id, room, status and cost.
import { randomUUID } from 'node:crypto';

/**
 * A call as the stand-in keeps it.
 * @typedef {{
 *   id: string,
 *   roomUrl: string,
 *   status: 'in-progress' | 'ended',
 *   startedAt: number,
 *   endedAt: string | null,
 *   endedReason: string | null,
 *   cost: number,
 *   timer: NodeJS.Timeout | undefined,
 *   createdAt: number,
 *   assistantOverrides: { metadata: object } | null,
 *   messagesLost: boolean,
 *   gateToldAt: number | null,
 *   messages: { role: 'bot' | 'user', message: string, time: number, endTime: number, secondsFromStart: number }[],
 * }} StandInCall
 */

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
