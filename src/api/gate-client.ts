/**
 * The gate client: the page's side of the site's own court gate (openapi/gate.json, same origin
 * under /api/): the generated client, its errors as the call library reports them, and the walk
 * from the first request through the line to an admitted call (`askAdmission`).
 */
import { client } from '../../generated/gate/client.gen';
import { checkIn, giveBackCall, leaveLine } from '../../generated/gate/sdk.gen';
import type { Admitted, CourtCall, Waiting } from '../../generated/gate/types.gen';
import type { CallError, LinePlace, LineReporter, CallErrorSource } from '../lib/call';
import { isRecord } from '../lib/is-record';
import { errorDetails } from './error-details';
import { retryAfterMs } from './retry-after';
import { LATE_ANSWER_MS } from './late-answer';

export type { CourtCall };
export { createCallMutation } from '../../generated/gate/@tanstack/react-query.gen';

/**
 * A failed gate request. `status` is 0 when there was no answer; `code` is the gate's own, and
 * `detail` its problem's own words for people (why a card was refused), when it gave them.
 */
export class GateApiError extends Error implements CallErrorSource {
  override readonly name = 'GateApiError';
  readonly detail: string | null;

  constructor(
    message: string,
    readonly kind: 'http' | 'network',
    readonly status: number,
    readonly code: string | null,
    readonly retryAfterMs: number | null,
    readonly reopensAt: string | null = null,
    options?: { cause?: unknown; detail?: string | null },
  ) {
    super(message, options);
    this.detail = options?.detail ?? null;
  }

  toCallError(): CallError {
    return {
      type: 'web-call-creation-error',
      kind: this.kind,
      ...(this.kind === 'http' ? { status: this.status } : {}),
      ...(this.code === null ? {} : { code: this.code }),
      ...(this.retryAfterMs === null ? {} : { retryAfterMs: this.retryAfterMs }),
      ...(this.reopensAt === null ? {} : { reopensAt: this.reopensAt }),
      message: this.message,
      cause: this,
    };
  }
}

/** The fields of an answer or error body, or none when it is not an object. */
function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** Every failed gate request becomes a {@link GateApiError}: the gate's code, or no answer. */
export function toGateApiError(
  error: unknown,
  response: Response | undefined,
  request: Request | undefined,
): GateApiError {
  if (error instanceof GateApiError) return error;
  const operation = request ? `${request.method} ${new URL(request.url).pathname}` : 'The request';
  if (!response) {
    const reason = error instanceof Error ? error.message : 'no response';
    return new GateApiError(`${operation} failed: ${reason}`, 'network', 0, null, null, null, {
      cause: error,
    });
  }
  const body = record(error);
  const code = typeof body.code === 'string' ? body.code : null;
  const details = errorDetails(error);
  const header = retryAfterMs(response.headers.get('retry-after'));
  const fromBody =
    typeof body.retryAfterSeconds === 'number' && body.retryAfterSeconds >= 0
      ? body.retryAfterSeconds * 1000
      : null;
  return new GateApiError(
    `${operation} failed with HTTP ${response.status}${details.length ? `: ${details.join('; ')}` : ''}`,
    'http',
    response.status,
    code,
    header ?? fromBody,
    typeof body.reopensAt === 'string' ? body.reopensAt : null,
    { detail: typeof body.detail === 'string' && body.detail.trim() ? body.detail.trim() : null },
  );
}

// The gate is on the page's own origin: an absolute base, so every fetch implementation accepts
// the URLs (a relative one is the browser's convenience, not the standard Request's).
client.setConfig({ baseUrl: window.location.origin });

client.interceptors.error.use((error, response, request) =>
  toGateApiError(error, response ?? undefined, request),
);

/** An answer that is not what the contract says: the gate's fault, said as such. */
function malformed(operation: string): GateApiError {
  return new GateApiError(
    `${operation} answered something the contract does not allow`,
    'http',
    502,
    'malformed-answer',
    null,
  );
}

function isAdmitted(answer: unknown): answer is Admitted {
  const call = record(record(answer).call);
  return (
    record(answer).status === 'admitted' &&
    typeof call.id === 'string' &&
    typeof call.webCallUrl === 'string'
  );
}

/** What proves an admitted call the visitor's, to give it back: its id and its secret. */
export interface CallPass {
  id: string;
  secret: string;
}

/** The secret each admitted call came with, kept beside the call (never in what is rendered). */
const callSecrets = new WeakMap<CourtCall, string>();

/** The pass of a call this page was admitted to; null for any other. */
export function passOf(call: unknown): CallPass | null {
  if (typeof call !== 'object' || call === null) return null;
  const secret = callSecrets.get(call as CourtCall);
  return secret === undefined ? null : { id: (call as CourtCall).id, secret };
}

function isWaiting(answer: unknown): answer is Waiting {
  const ticket = record(record(answer).ticket);
  return (
    record(answer).status === 'waiting' &&
    typeof ticket.id === 'string' &&
    typeof ticket.secret === 'string' &&
    typeof ticket.position === 'number' &&
    typeof ticket.estimatedWaitSeconds === 'number'
  );
}

/** What proves a place in line: its id (in the path) and its secret (in a header). */
export interface TicketPass {
  id: string;
  secret: string;
}

/** What proves a text conversation with Pepa: its id and its secret (both in headers). */
export interface ChatPass {
  id: string;
  secret: string;
}

/** The headers that hand a chat to a call: the gate gives the call what was said in it. */
export function chatHeaders(chat: ChatPass | null): Record<string, string> {
  return chat ? { 'Chat-Id': chat.id, 'Chat-Secret': chat.secret } : {};
}

/** How a check-in goes: with the visitor's chat, if any, and whether their turn is to be held. */
export interface CheckInWith {
  /** The visitor is chatting and joins by a tap: their turn holds the place (`offered`). */
  offer: boolean;
  chat: ChatPass | null;
}

/**
 * The visitor's text conversation beside the line: while they chat, each check-in carries the
 * chat and asks for the place to be held, and a held place waits for their tap.
 */
export interface LineCompanion {
  /** The chat under way, or null when the visitor is not chatting. */
  chat(): ChatPass | null;
  /**
   * The place is held for `holdSeconds`: resolves true when the visitor takes it, false when the
   * hold runs out; rejects when `signal` aborts.
   */
  offered(holdSeconds: number, signal: AbortSignal): Promise<boolean>;
}

/** How the walk through the line reaches the world: each part replaceable in tests. */
export interface GateDoor {
  /** The bot check's token for this start (Turnstile, or the demo's stand-in). */
  botCheck(signal: AbortSignal): Promise<string>;
  /** `POST /api/calls`: the section's mutation. */
  ask(botCheckToken: string, signal: AbortSignal): Promise<unknown>;
  /** `POST /api/tickets/{id}`, with the ticket's secret in its header (and the chat's, if any). */
  checkIn(
    ticket: TicketPass,
    hidden: boolean,
    signal: AbortSignal,
    text?: CheckInWith,
  ): Promise<unknown>;
  /** `DELETE /api/tickets/{id}`, sent even as the page goes away. */
  leave(ticket: TicketPass): void;
  /** `DELETE /api/calls/{id}`: a call never joined given back, sent even as the page goes away. */
  giveBack(call: CallPass): void;
  /** Whether the page is hidden (its timers may be throttled: the gate waits longer). */
  hidden(): boolean;
  /** Resolves after `ms`, or at once when the page comes back into view; rejects on abort. */
  pause(ms: number, signal: AbortSignal): Promise<void>;
}

/** The gate's door as the page uses it: the generated client, same origin. */
export function gateDoor(ask: GateDoor['ask'], botCheck: GateDoor['botCheck']): GateDoor {
  return {
    botCheck,
    ask,
    checkIn: async (ticket, hidden, signal, text) =>
      (
        await checkIn({
          path: { ticketId: ticket.id },
          headers: { 'Ticket-Secret': ticket.secret, ...chatHeaders(text?.chat ?? null) },
          ...(hidden || text?.offer
            ? {
                query: {
                  ...(hidden ? { hidden: true } : {}),
                  ...(text?.offer ? { offer: true } : {}),
                },
              }
            : {}),
          signal,
          throwOnError: true,
        })
      ).data,
    leave: (ticket) => {
      // keepalive: the request outlives a page that is closing.
      void leaveLine({
        path: { ticketId: ticket.id },
        headers: { 'Ticket-Secret': ticket.secret },
        keepalive: true,
      }).catch(() => undefined);
    },
    giveBack: sendGiveBack,
    hidden: () => document.visibilityState === 'hidden',
    pause: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          document.removeEventListener('visibilitychange', onVisible);
        };
        const onAbort = () => {
          done();
          reject(signal.reason);
        };
        // Back in view after a throttled spell: check in at once.
        const onVisible = () => {
          if (document.visibilityState !== 'visible') return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          resolve();
        }, ms);
        signal.addEventListener('abort', onAbort, { once: true });
        document.addEventListener('visibilitychange', onVisible);
      }),
  };
}

/** Gives back what an answer holds: an admitted call's place, or a ticket's. */
function giveBackAnswer(door: GateDoor, answer: unknown): void {
  if (isAdmitted(answer)) {
    // A call without its secret (a gate before the give-back) cannot be given back.
    if (typeof answer.callSecret === 'string') {
      door.giveBack({ id: answer.call.id, secret: answer.callSecret });
    }
  } else if (isWaiting(answer)) door.leave({ id: answer.ticket.id, secret: answer.ticket.secret });
}

/**
 * A request whose answer may hold a place (`POST /api/calls`, a check-in): it is not cut off the
 * moment its start stops, since the gate may already have given the place. A start stopped
 * meanwhile (its microphone refused, the visitor gone) rejects at once, and the answer, when it
 * comes within `LATE_ANSWER_MS`, is given back: the place is free again within a round trip.
 */
function placeRequest(
  door: GateDoor,
  signal: AbortSignal,
  send: (signal: AbortSignal) => Promise<unknown>,
): Promise<unknown> {
  if (signal.aborted) return Promise.reject(signal.reason as unknown);
  const request = new AbortController();
  const pending = send(request.signal);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason as unknown);
      const cutOff = setTimeout(() => request.abort(signal.reason), LATE_ANSWER_MS);
      pending.then(
        (late) => {
          clearTimeout(cutOff);
          giveBackAnswer(door, late);
        },
        () => clearTimeout(cutOff),
      );
    };
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (answer) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) giveBackAnswer(door, answer);
        else resolve(answer);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!signal.aborted) reject(error);
      },
    );
  });
}

/** `DELETE /api/calls/{id}` with the call's secret; keepalive, so it outlives a closing page. */
function sendGiveBack(call: CallPass): void {
  void giveBackCall({
    path: { callId: call.id },
    headers: { 'Call-Secret': call.secret },
    keepalive: true,
  }).catch(() => undefined);
}

/**
 * Gives back a call this page was admitted to and never joined (the call object's `unjoined`):
 * its place is free for the next visitor at once. Anything else is left alone.
 */
export function giveBackUnjoined(call: unknown): void {
  const pass = passOf(call);
  if (pass) sendGiveBack(pass);
}

/**
 * From Start Talking to an admitted call: the bot check, the request, and as long as Pepa is
 * with other guests, check-ins at the pace the gate asks for, each place told to the call object.
 * A stopped start (the visitor left the line, or the page went away) gives the place up. While
 * the visitor chats with Pepa (`companion`), their turn is held for their tap rather than taken.
 */
export async function askAdmission(
  door: GateDoor,
  signal: AbortSignal,
  line: LineReporter,
  companion: LineCompanion | null = null,
): Promise<CourtCall> {
  const token = await door.botCheck(signal);
  let answer = await placeRequest(door, signal, (held) => door.ask(token, held));
  let ticket: TicketPass | null = null;
  const leave = () => {
    if (ticket) door.leave(ticket);
  };
  signal.addEventListener('abort', leave, { once: true });
  try {
    for (;;) {
      if (isAdmitted(answer)) {
        ticket = null;
        if (typeof answer.callSecret === 'string') callSecrets.set(answer.call, answer.callSecret);
        return answer.call;
      }
      if (!isWaiting(answer)) throw malformed(ticket ? 'POST /api/tickets' : 'POST /api/calls');
      ticket = { id: answer.ticket.id, secret: answer.ticket.secret };
      const place: LinePlace = {
        position: answer.ticket.position,
        estimatedWaitSeconds: answer.ticket.estimatedWaitSeconds,
      };
      line.waiting(place);
      let taken = false;
      if (answer.offered === true && companion && companion.chat() !== null) {
        // The place is held for a visitor who is chatting: their tap takes it, at once. Not
        // taken in time, the next check-in hears that the place went to the next guest.
        taken = await companion.offered(answer.ticket.checkInBySeconds, signal);
      } else {
        await door.pause(Math.max(1, answer.retryAfterSeconds) * 1000, signal);
      }
      // Whether the visitor chats is read at each check-in: they may start (or end) while waiting.
      const text = (): CheckInWith | undefined => {
        const chat = companion?.chat() ?? null;
        return chat === null ? undefined : { offer: !taken, chat };
      };
      const pass: TicketPass = ticket;
      const checkInNow = () =>
        placeRequest(door, signal, (held) => door.checkIn(pass, door.hidden(), held, text()));
      try {
        answer = await checkInNow();
      } catch (error) {
        // Checked in too early (a timer fired ahead of time): wait as asked and try again.
        if (error instanceof GateApiError && error.code === 'rate-limited') {
          await door.pause(error.retryAfterMs ?? 1000, signal);
          answer = await checkInNow();
        } else {
          if (error instanceof GateApiError && error.code === 'ticket-gone') ticket = null;
          throw error;
        }
      }
    }
  } catch (error) {
    if (!signal.aborted) leave();
    throw error;
  } finally {
    signal.removeEventListener('abort', leave);
  }
}
