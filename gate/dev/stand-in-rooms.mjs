// @ts-check
// What the demo's simulated rooms tell the stand-in provider, as the real provider would know it
// of its own rooms: that the visitor joined (the call is in progress), that the visitor left (the
// call ends), and each message said (the call's record, which `GET /call/{id}` answers with and
// cards are made from; a message said is a room joined, too); and what they ask of it: how Pepa
// opens the call (a remark the model writes from a chat handed over, as the provider's would).
import { openingOf } from './stand-in-calls.mjs';
import { CORS, send } from './stand-in-http.mjs';

/** @typedef {import('./stand-in-calls.mjs').StandInCall} StandInCall */

/**
 * @param {Buffer} body
 * @returns {Record<string, unknown> | null}
 */
function jsonOf(body) {
  try {
    const value = JSON.parse(body.toString('utf8') || '{}');
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

/**
 * @param {{
 *   calls: Map<string, StandInCall>,
 *   callsByRoom: Map<string, string>,
 *   endCall: (id: string, endedReason: string) => boolean,
 *   joinCall: (id: string) => boolean,
 * }} stand
 */
export function roomRoutes({ calls, callsByRoom, endCall, joinCall }) {
  return {
    /**
     * `POST /__demo/rooms/joined` `{ roomUrl }`: the visitor joined, so the call is in progress.
     * 204 also when it was already (a second word changes nothing).
     * @param {import('node:http').ServerResponse} res
     * @param {Buffer} body
     */
    joined(res, body) {
      const asked = jsonOf(body);
      if (!asked) return send(res, 400, { message: 'The body must be JSON' }, CORS);
      if (typeof asked.roomUrl !== 'string') {
        return send(res, 400, { message: 'roomUrl is required' }, CORS);
      }
      const call = calls.get(callsByRoom.get(asked.roomUrl) ?? '');
      if (!call) return send(res, 404, { message: 'No call in that room' }, CORS);
      if (call.status === 'ended') return send(res, 409, { message: 'That call has ended' }, CORS);
      joinCall(call.id);
      return send(res, 204, undefined, CORS);
    },
    /**
     * `POST /__demo/rooms/left` `{ roomUrl }`: the visitor left, so the call ends.
     * @param {import('node:http').ServerResponse} res
     * @param {Buffer} body
     */
    left(res, body) {
      const asked = jsonOf(body);
      if (!asked) return send(res, 400, { message: 'The body must be JSON' }, CORS);
      if (typeof asked.roomUrl !== 'string') {
        return send(res, 400, { message: 'roomUrl is required' }, CORS);
      }
      const id = callsByRoom.get(asked.roomUrl);
      if (!id) return send(res, 404, { message: 'No call in that room' }, CORS);
      endCall(id, 'customer-ended-call');
      return send(res, 204, undefined, CORS);
    },
    /**
     * `GET /__demo/rooms/opening?roomUrl=…`: `{ firstMessage }`, Pepa's first remark in that room
     * when the model writes it (the call was handed a chat), or null for the stored one.
     * @param {import('node:http').ServerResponse} res
     * @param {string | undefined} method
     * @param {string} url
     */
    opening(res, method, url) {
      if (method !== 'GET') return send(res, 405, undefined, { ...CORS, allow: 'GET, OPTIONS' });
      const roomUrl = new URL(url, 'http://stand-in').searchParams.get('roomUrl') ?? '';
      const call = calls.get(callsByRoom.get(roomUrl) ?? '');
      if (!call) return send(res, 404, { message: 'No call in that room' }, CORS);
      return send(res, 200, { firstMessage: openingOf(call) }, CORS);
    },
    /**
     * `POST /__demo/rooms/said` `{ roomUrl, role, message, time }`: a message for the call's
     * record.
     * @param {import('node:http').ServerResponse} res
     * @param {Buffer} body
     */
    said(res, body) {
      const said = jsonOf(body);
      if (!said) return send(res, 400, { message: 'The body must be JSON' }, CORS);
      const { roomUrl, role, message, time } = said;
      if (typeof roomUrl !== 'string' || (role !== 'bot' && role !== 'user')) {
        return send(res, 400, { message: 'roomUrl and role (bot or user) are required' }, CORS);
      }
      if (typeof message !== 'string' || typeof time !== 'number') {
        return send(res, 400, { message: 'message and time are required' }, CORS);
      }
      const call = calls.get(callsByRoom.get(roomUrl) ?? '');
      if (!call) return send(res, 404, { message: 'No call in that room' }, CORS);
      // Someone speaks in the room: its visitor is there, whether or not the join was heard.
      joinCall(call.id);
      const secondsFromStart = Math.max(0, (time - call.startedAt) / 1000);
      call.messages.push({ role, message, time, endTime: time, secondsFromStart });
      return send(res, 204, undefined, CORS);
    },
  };
}
