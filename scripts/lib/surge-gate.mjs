// The surge's requests to the gate: each party (arrivals, check-ins, the abuser, the attackers,
// the flood, the owner) queues for its own bounded sockets, and every answer is read whole.
import { Agent, request as httpRequest } from 'node:http';

/**
 * @typedef {{
 *   code?: string,
 *   applied?: boolean,
 *   ticket?: { id: string, secret: string, position: number },
 *   [key: string]: unknown,
 * }} GateBody
 * What the surge reads of the gate's JSON (or, for an answer that is not JSON, its text).
 */

/**
 * @typedef {{ status: number, retryAfter: number, body: GateBody | null, ms: number, waitedMs: number }} GateAnswer
 * One answer: its status (0: the request never got one), Retry-After in seconds, its body, the
 * gate's time from when a socket took the request, and the time seen here, queueing included.
 */

/**
 * @typedef {{ address?: string, body?: unknown, headers?: Record<string, string>, agent?: Agent }} GateRequest
 */

/** @typedef {ReturnType<typeof surgeAgents>} SurgeAgents */

/**
 * The parties' sockets. Arrivals, check-ins, the abuser and the owner each queue for their own:
 * one visitor's check-in does not wait behind thousands of strangers' arrivals in this script (it
 * still does in the gate, as it would on the day).
 * @param {number} sockets requests from visitors at once, at most (arrivals and check-ins)
 * @param {number} floodSockets junk requests at once, at most
 */
export function surgeAgents(sockets, floodSockets) {
  return {
    arrive: new Agent({ keepAlive: true, maxSockets: sockets / 2 }),
    line: new Agent({ keepAlive: true, maxSockets: sockets / 2 }),
    abuser: new Agent({ keepAlive: true, maxSockets: 2 }),
    attackers: new Agent({ keepAlive: true, maxSockets: 4 }),
    flood: new Agent({ keepAlive: true, maxSockets: floodSockets }),
    owner: new Agent({ keepAlive: true, maxSockets: 4 }),
  };
}

/**
 * A request function for the gate at `gate`: its status, Retry-After, body and how long it took.
 * @param {URL} gate
 * @param {Agent} defaultAgent
 * @param {(answer: GateAnswer) => void} noteAnswer sees every answer the gate gave
 * @returns {(method: string, path: string, request?: GateRequest) => Promise<GateAnswer>}
 */
export function gateCaller(gate, defaultAgent, noteAnswer) {
  return (method, path, { address, body, headers = {}, agent = defaultAgent } = {}) =>
    new Promise((resolveCall) => {
      const queued = performance.now();
      // The gate's latency counts from when a connection takes the request, not from when it
      // waited for one of this script's bounded sockets.
      let started = queued;
      const text = body === undefined ? undefined : JSON.stringify(body);
      const out = httpRequest(
        {
          host: gate.hostname,
          port: gate.port,
          method,
          path,
          agent,
          headers: {
            ...(address ? { 'cf-connecting-ip': address } : {}),
            ...(text === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }),
            ...headers,
          },
        },
        (answer) => {
          /** @type {Buffer[]} */
          const chunks = [];
          answer.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
          answer.on('end', () => {
            const answerText = Buffer.concat(chunks).toString('utf8');
            /** @type {GateBody | null} */
            let parsed = null;
            try {
              parsed = JSON.parse(answerText || 'null');
            } catch {
              // Not the gate's JSON: kept (briefly) for the table's notes.
              parsed = { text: answerText.slice(0, 160) };
            }
            /** @type {GateAnswer} */
            const result = {
              status: answer.statusCode ?? 0,
              retryAfter: Number(answer.headers['retry-after'] ?? '1') || 1,
              body: parsed,
              ms: performance.now() - started,
              waitedMs: performance.now() - queued,
            };
            noteAnswer(result);
            resolveCall(result);
          });
        },
      );
      out.once('socket', () => {
        started = performance.now();
      });
      out.on('error', (error) =>
        resolveCall({
          status: 0,
          retryAfter: 1,
          body: { error: error.message },
          ms: performance.now() - started,
          waitedMs: performance.now() - queued,
        }),
      );
      out.end(text);
    });
}

/**
 * Places the gate still holds for calls that ended (after the backstop's window): replaying the
 * provider's `ended` for every call is harmless (applied once), and frees exactly those.
 * @param {(method: string, path: string, request?: GateRequest) => Promise<GateAnswer>} call
 * @param {Iterable<string>} callIds
 * @param {{ authorization: string, agent: Agent }} owner the webhook's secret, the owner's sockets
 */
export async function placesLeaked(call, callIds, { authorization, agent }) {
  let leaked = 0;
  for (const id of callIds) {
    const answer = await call('POST', '/api/provider-events', {
      body: { message: { type: 'status-update', status: 'ended', call: { id } } },
      headers: { authorization },
      agent,
    });
    if (answer.body?.applied === true) leaked += 1;
  }
  return leaked;
}
