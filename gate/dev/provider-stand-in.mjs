// The demo's stand-in for the provider, in front of the Prism mock of its API
// (scripts/lib/prism.mjs). Prism answers every request from the vendored spec's examples (and still
// validates each one), but it cannot keep calls or send the provider's server messages. The
// stand-in does what Prism cannot: each `POST /call/web` answer gets a fresh call id and its own
// room on the demo host; `GET /call/{id}` and `GET /call` answer from the stand-in's records. A
// call is `queued` until its visitor joins (the demo page says its room was joined, or a message
// was said there), then the gate hears a `status-update` `in-progress`, as from the provider; a
// call nobody joins within its `customerJoinTimeoutSeconds` (the provider's default 15 s when
// unset) ends by itself. When a call ends (its room left, its join timeout or its maximum duration
// passed) the gate hears what it would from the provider: a `status-update` with status `ended`,
// then an `end-of-call-report` with the cost.
//
// It also stands in for Cloudflare Turnstile's siteverify (turnstile-stand-in.mjs).
//
// For the surge (scripts/surge.mjs): call lengths drawn from a range, a fraction of calls whose
// server messages are lost, time compression, and the count of calls under way at once as the
// provider sees it.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
  callRecord,
  JOIN_TIMEOUT_REASON,
  joinTimeoutSeconds,
  keptOverrides,
  roomName,
} from './stand-in-calls.mjs';
import { createChatStandIn } from './stand-in-chat.mjs';
import { createModelStandIn, MODEL_BASE_PATH } from './stand-in-model.mjs';
import { CORS, prismForwarder, readBody, send } from './stand-in-http.mjs';
import { roomRoutes } from './stand-in-rooms.mjs';
import {
  siteverify,
  TURNSTILE_DUMMY_TOKEN,
  TURNSTILE_TEST_SECRETS,
} from './turnstile-stand-in.mjs';

export { TURNSTILE_DUMMY_TOKEN, TURNSTILE_TEST_SECRETS };

/** Where the demo's rooms live: the room simulator accepts any room on this host. */
export const DEMO_ROOM_HOST = 'pepa-demo.daily.co';

const CALL_PATH = /^\/call\/([^/?]+)$/;

/** @param {number} ms */
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

/** @typedef {import('./stand-in-calls.mjs').StandInCall} StandInCall */

/**
 * @param {{
 *   prismUrl: string,
 *   gateUrl?: string,
 *   webhookSecret?: string,
 *   port?: number,
 *   host?: string,
 *   costPerMinuteUsd?: number,
 *   callSeconds?: { min: number, max: number } | null,
 *   dropEndMessages?: number,
 *   timeScale?: number,
 *   lateAnswers?: number,
 *   lateAnswerMs?: number,
 *   random?: () => number,
 *   quiet?: boolean,
 *   latency?: {
 *     siteverifyMs: number, gateWorkMs: number, callWebMs: number,
 *     chatFirstWordMs: number, chatWordMs: number,
 *   } | null,
 * }} options
 *   `costPerMinuteUsd`: what a (provider) minute costs, reported in each end-of-call report.
 *   `callSeconds`: when set, each joined call ends by itself after a length drawn from this range
 *   (provider seconds, from its join); otherwise a call lasts until its room is left or its
 *   maximum passes.
 *   `dropEndMessages`: the fraction of calls whose server messages never reach the gate.
 *   `timeScale`: provider seconds per real second for drawn call lengths and costs (the call's
 *   maximum duration is the gate's, already in real seconds).
 *   `lateAnswers`: the fraction of `POST /call/web` answers held back `lateAnswerMs` (past the
 *   gate's wait), though the call is created and runs.
 *   `latency`: the field latency model's delays (docs/demo-simulator.md): siteverify answers after
 *   `siteverifyMs`, and `POST /call/web` after `callWebMs` plus the gate's own work
 *   (`gateWorkMs`: its Durable Object round trips, which a local workerd does not pay).
 */
export async function startProviderStandIn({
  prismUrl,
  gateUrl,
  webhookSecret = '',
  port = 0,
  host = '127.0.0.1',
  costPerMinuteUsd = 0.15,
  callSeconds = null,
  dropEndMessages = 0,
  timeScale = 1,
  lateAnswers = 0,
  lateAnswerMs = 11_000,
  random = Math.random,
  quiet = false,
  latency = null,
}) {
  const { forward, relay, agent } = prismForwarder(prismUrl);
  /** @type {Map<string, StandInCall>} */
  const calls = new Map();
  /** @type {Map<string, string>} */
  const callsByRoom = new Map();
  const stats = {
    created: 0,
    ended: 0,
    active: 0,
    peak: 0,
    dropped: 0,
    sent: 0,
    sendFailures: 0,
    late: 0,
    joined: 0,
    joinTimeouts: 0,
  };
  /** @type {Set<Promise<void>>} */
  const pendingSends = new Set();
  let gate = gateUrl ? gateUrl.replace(/\/+$/, '') : null;
  let closing = false;
  /** @param {string} line */
  const log = (line) => {
    if (!quiet) console.log(`provider stand-in: ${line}`);
  };
  const chat = createChatStandIn({ latency, log });
  const model = createModelStandIn({ latency, log });

  /**
   * @param {StandInCall} call
   * @param {number} endedAt
   */
  function costOf(call, endedAt) {
    const providerSeconds = ((endedAt - call.startedAt) / 1000) * timeScale;
    return Math.round((providerSeconds / 60) * costPerMinuteUsd * 1e4) / 1e4;
  }

  /** @param {{ type: string } & Record<string, unknown>} message */
  async function tellGate(message) {
    if (!gate) return;
    await fetch(`${gate}/api/provider-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${webhookSecret}` },
      body: JSON.stringify({ message }),
      signal: AbortSignal.timeout(10_000),
    })
      .then(async (answer) => {
        await answer.arrayBuffer();
        if (answer.ok) stats.sent += 1;
        else {
          stats.sendFailures += 1;
          log(`the gate answered ${answer.status} to ${message.type}`);
        }
      })
      .catch((error) => {
        stats.sendFailures += 1;
        if (!closing) log(`could not reach the gate with ${message.type}: ${error.message}`);
      });
  }

  /**
   * Ends a call under way, then tells the gate as the provider would (unless dropped).
   * @param {string} id
   * @param {string} endedReason
   */
  function endCall(id, endedReason) {
    const call = calls.get(id);
    if (!call || call.status === 'ended') return false;
    const endedAt = Date.now();
    clearTimeout(call.timer);
    clearTimeout(call.joinTimer);
    call.status = 'ended';
    call.endedReason = endedReason;
    call.endedAt = new Date(endedAt).toISOString();
    call.cost = costOf(call, endedAt);
    stats.ended += 1;
    stats.active -= 1;
    if (endedReason === JOIN_TIMEOUT_REASON) stats.joinTimeouts += 1;
    log(`call ${id} ended (${endedReason}, $${call.cost})`);
    if (call.messagesLost) {
      stats.dropped += 1;
      return true;
    }
    const callRef = messageCall(call);
    const sequence = (async () => {
      await tellGate({ type: 'status-update', status: 'ended', call: callRef, endedReason });
      // When the gate heard the call end (the surge measures how long its place then sat idle).
      call.gateToldAt = Date.now();
      await tellGate({
        type: 'end-of-call-report',
        call: callRef,
        endedReason,
        cost: call.cost,
        startedAt: new Date(call.startedAt).toISOString(),
        endedAt: call.endedAt,
      });
    })();
    pendingSends.add(sequence);
    void sequence.finally(() => pendingSends.delete(sequence));
    return true;
  }

  /**
   * The call as the provider's messages carry it, with the metadata it was created with.
   * @param {StandInCall} call
   */
  function messageCall(call) {
    return {
      id: call.id,
      ...(call.assistantOverrides ? { assistantOverrides: call.assistantOverrides } : {}),
    };
  }

  /**
   * The visitor joined the call's room: the call is in progress (the gate hears so, as from the
   * provider), its join timeout no longer runs, and a drawn length starts. False when the call
   * is not waiting for its visitor (unknown, already joined, or ended).
   * @param {string} id
   */
  function joinCall(id) {
    const call = calls.get(id);
    if (!call || call.status !== 'queued') return false;
    call.status = 'in-progress';
    call.joinedAt = Date.now();
    clearTimeout(call.joinTimer);
    stats.joined += 1;
    if (callSeconds) {
      const drawn = callSeconds.min + random() * (callSeconds.max - callSeconds.min);
      const drawnMs = (drawn * 1000) / timeScale;
      const leftMs = call.startedAt + call.maxMs - call.joinedAt;
      if (drawnMs < leftMs) {
        clearTimeout(call.timer);
        call.timer = setTimeout(() => endCall(id, 'customer-ended-call'), drawnMs);
      }
    }
    log(`call ${id} joined`);
    if (!call.messagesLost) {
      const told = tellGate({
        type: 'status-update',
        status: 'in-progress',
        call: messageCall(call),
      });
      pendingSends.add(told);
      void told.finally(() => pendingSends.delete(told));
    }
    return true;
  }

  /**
   * @param {any} requestBody the provider's create-call body, as the page's gate sent it
   * @param {any} created Prism's answer to it
   */
  function startCall(requestBody, created) {
    const id = randomUUID();
    const roomUrl = `https://${DEMO_ROOM_HOST}/${roomName()}`;
    const maxSeconds = Number(requestBody?.assistantOverrides?.maxDurationSeconds) || 600;
    /** @type {StandInCall} */
    const call = {
      id,
      roomUrl,
      // Nobody in the room yet: the call waits for its visitor to join.
      status: 'queued',
      startedAt: Date.now(),
      joinedAt: null,
      maxMs: maxSeconds * 1000,
      endedAt: null,
      endedReason: null,
      cost: 0,
      timer: undefined,
      joinTimer: undefined,
      createdAt: Date.now(),
      // Drawn now: a call whose messages are lost loses all of them, its in-progress as well.
      messagesLost: dropEndMessages > 0 && random() < dropEndMessages,
      gateToldAt: null,
      messages: [],
      assistantOverrides: keptOverrides(requestBody),
    };
    call.timer = setTimeout(() => endCall(id, 'exceeded-max-duration'), call.maxMs);
    call.joinTimer = setTimeout(
      () => endCall(id, JOIN_TIMEOUT_REASON),
      joinTimeoutSeconds(requestBody) * 1000,
    );
    calls.set(id, call);
    callsByRoom.set(roomUrl, id);
    stats.created += 1;
    stats.active += 1;
    stats.peak = Math.max(stats.peak, stats.active);
    log(`call ${id} started in ${roomUrl}`);
    return {
      ...created,
      id,
      status: call.status,
      webCallUrl: roomUrl,
      ...(created?.transport && typeof created.transport === 'object'
        ? { transport: { ...created.transport, callUrl: roomUrl } }
        : {}),
    };
  }

  const rooms = roomRoutes({ calls, callsByRoom, endCall, joinCall });

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async function handle(req, res) {
    const receivedAt = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/__demo/rooms/opening') {
      if (req.method === 'OPTIONS') return send(res, 204, undefined, CORS);
      return rooms.opening(res, req.method, req.url ?? '/');
    }
    const roomPost = /^\/__demo\/rooms\/(left|said|joined)$/.exec(path)?.[1];
    if (roomPost === 'left' || roomPost === 'said' || roomPost === 'joined') {
      if (req.method === 'OPTIONS') return send(res, 204, undefined, CORS);
      if (req.method !== 'POST')
        return send(res, 405, undefined, { ...CORS, allow: 'POST, OPTIONS' });
      return rooms[roomPost](res, await readBody(req));
    }
    if (path === '/turnstile/v0/siteverify') {
      if (req.method !== 'POST') return send(res, 405, undefined, { allow: 'POST' });
      const form = await readBody(req);
      if (latency) await pause(latency.siteverifyMs);
      return siteverify(req, res, form);
    }
    const body = await readBody(req);
    // The model engine's endpoint is not the provider's: Prism has no part in it.
    if (model.handles(req.method, path)) return model.answer(req, res, body, receivedAt);
    if (latency && req.method === 'POST' && path === '/call/web') {
      await pause(latency.callWebMs + latency.gateWorkMs);
    }
    const answer = await forward(req, body);
    const ok = answer.status >= 200 && answer.status < 300;
    // Chats and sessions: Prism judged the request (its key, its body); the stand-in answers.
    if (chat.handles(req.method, path))
      return ok ? chat.answer(res, path, body, req.method, receivedAt) : relay(res, answer);
    if (ok && req.method === 'POST' && path === '/call/web') {
      let requestBody = {};
      let created = {};
      try {
        requestBody = JSON.parse(body.toString('utf8') || '{}');
        created = JSON.parse(answer.body.toString('utf8') || '{}');
      } catch {
        // Prism validated the request; an unreadable example still gets a fresh call.
      }
      const started = startCall(requestBody, created);
      if (lateAnswers > 0 && random() < lateAnswers) {
        stats.late += 1;
        await new Promise((done) => setTimeout(done, lateAnswerMs));
      }
      return send(res, answer.status, started);
    }
    if (req.method === 'GET' && path === '/call') {
      // The calls list, from the stand-in's records: the gate looks for a call by its tag.
      const after =
        Date.parse(
          new URL(req.url ?? '/', 'http://stand-in').searchParams.get('createdAtGt') ?? '',
        ) || 0;
      const listed = [...calls.values()].filter((call) => call.createdAt > after);
      return send(
        res,
        200,
        listed.map((call) => callRecord({}, call)),
      );
    }
    const match = CALL_PATH.exec(path);
    if (ok && req.method === 'GET' && match) {
      const call = calls.get(decodeURIComponent(match[1] ?? ''));
      if (!call)
        return send(res, 404, { message: 'Call not found', error: 'Not Found', statusCode: 404 });
      let base = {};
      try {
        base = JSON.parse(answer.body.toString('utf8') || '{}');
      } catch {
        // The record stands on its own.
      }
      return send(res, 200, callRecord(base, call));
    }
    return relay(res, answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) send(res, 502, { message: `stand-in: ${error.message}` });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  await /** @type {Promise<void>} */ (
    new Promise((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolveListen());
    })
  );
  const address = server.address();
  const listenPort = typeof address === 'object' && address ? address.port : port;
  const url = `http://${host}:${listenPort}`;

  return {
    url,
    port: listenPort,
    siteverifyUrl: `${url}/turnstile/v0/siteverify`,
    stats,
    calls,
    /** The chats and sessions (stand-in-chat.mjs): their records and counts. */
    chat,
    /** The model engine's endpoint (stand-in-model.mjs): its counts. */
    model,
    /** The model engine's endpoint as the gate's MODEL_API_URL names it. */
    modelApiUrl: `${url}${MODEL_BASE_PATH}`,
    /**
     * Where the gate listens, when it was not known at start.
     * @param {string} next
     */
    setGateUrl(next) {
      gate = next.replace(/\/+$/, '');
    },
    endCall,
    joinCall,
    /**
     * The visitor joined the room at `roomUrl` (as the demo page says it): false when no call
     * there waits for its visitor.
     * @param {string} roomUrl
     */
    joinRoom(roomUrl) {
      return joinCall(callsByRoom.get(roomUrl) ?? '');
    },
    /** Ends every call under way (their messages sent as usual) and waits for the sends. */
    async endAll(reason = 'customer-ended-call') {
      for (const call of calls.values()) if (call.status !== 'ended') endCall(call.id, reason);
      await Promise.allSettled([...pendingSends]);
    },
    async stop() {
      closing = true;
      for (const call of calls.values()) {
        clearTimeout(call.timer);
        clearTimeout(call.joinTimer);
      }
      chat.stop();
      model.stop();
      await Promise.allSettled([...pendingSends]);
      agent.destroy();
      server.closeAllConnections();
      await /** @type {Promise<void>} */ (new Promise((done) => server.close(() => done())));
    },
  };
}
