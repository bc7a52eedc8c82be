/**
 * The gate's test bench, inside workerd: the Worker and its court run in the tests' isolate, so
 * a stubbed `fetch` stands in for the provider (`POST /call/web`, `GET /call/{id}`) and for
 * Turnstile's siteverify, and a faked `Date` is the court's clock. The clock starts in the
 * future, so the court's alarm never fires by itself: a test runs the sweep when it means to.
 */
import { runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import type { Court } from '../src/court';
import { forgetFull } from '../src/edge';
import { deskFor } from '../src/text-desk';
import { identify } from '../src/visitor';
import { TEST_BINDINGS } from './bindings';
import { expectConforms } from './conformance';
import type { Admitted, Problem, Waiting } from '../../generated/gate/types.gen';

/** Noon UTC on a day far from the real clock. */
export const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
export const ORIGIN = 'https://pepa.test';
export const TOKEN = 'a-bot-check-token';

export const gateEnv = env as unknown as Env & Record<string, string | undefined>;

export type SiteverifyMode =
  | 'pass'
  | 'fail'
  | 'outage'
  | 'error-status'
  | 'not-json'
  | 'internal-error'
  | 'other-hostname'
  | 'other-action';

/** The host the tests' page is served from, and the action its widget renders with. */
export const SITE_HOST = 'pepa.test';
export const WIDGET_ACTION = 'start-call';

export interface ProviderCall {
  id: string;
  status: 'queued' | 'in-progress' | 'ended';
  cost?: number;
  createdAt?: string;
  assistantOverrides?: Record<string, unknown>;
  /** What the provider recorded of the call (its messages), once it has. */
  artifact?: { messages: Record<string, unknown>[] };
}

/** The provider's chat as the tests stub it: what it answers, and what it was asked. */
export interface ChatWorld {
  /** Answers given before a reply, one each try, in order: a status, or 'down' (no answer). */
  failures: (number | 'down')[];
  /** The Retry-After those answers carry, if any. */
  retryAfter: string | null;
  /** The reply's pieces, streamed one event each. */
  reply: string[];
  /** After its first piece the stream waits until the gate aborts it. */
  hold: boolean;
  /** After its first piece the stream breaks. */
  breaks: boolean;
  /** What `GET /chat/{id}` says a chat cost; null: the lookup fails. */
  cost: number | null;
  requests: { body: Record<string, unknown>; authorization: string | null }[];
  /** Chats whose streamed request the gate aborted. */
  aborted: string[];
  lookedUp: string[];
  /** What `GET /chat/{id}` answers of each chat (besides its cost): a test may rewrite one. */
  records: Map<string, Record<string, unknown>>;
}

/** What the stubbed outside world answers, and what it was asked. */
export interface World {
  chat: ChatWorld;
  siteverify: { mode: SiteverifyMode; forms: Record<string, string>[] };
  provider: {
    /**
     * An HTTP status for the next `POST /call/web` answers, 'down' (no answer at all), or 'late'
     * (the call is created, but its answer never reaches the gate, as after a timeout).
     */
    createFails: number | 'down' | 'late' | null;
    lookUpFails: boolean;
    created: { id: string; body: unknown; authorization: string | null }[];
    lookedUp: string[];
    /** How many times the calls were listed (`GET /call`). */
    listed: number;
    calls: Map<string, ProviderCall>;
  };
}

function freshChat(): ChatWorld {
  return {
    failures: [],
    retryAfter: null,
    reply: ['Ribbit! ', 'A fine ', 'question.'],
    hold: false,
    breaks: false,
    cost: 0.0071,
    requests: [],
    aborted: [],
    lookedUp: [],
    records: new Map(),
  };
}

export const world: World = {
  chat: freshChat(),
  siteverify: { mode: 'pass', forms: [] },
  provider: {
    createFails: null,
    lookUpFails: false,
    created: [],
    lookedUp: [],
    listed: 0,
    calls: new Map(),
  },
};

let callSeq = 0;

async function outside(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (request.url === TEST_BINDINGS.TURNSTILE_VERIFY_URL) {
    const form = await request.formData();
    const fields: Record<string, string> = {};
    for (const [key, value] of form.entries()) fields[key] = String(value);
    world.siteverify.forms.push(fields);
    switch (world.siteverify.mode) {
      case 'pass':
        return Response.json({
          success: true,
          hostname: SITE_HOST,
          action: WIDGET_ACTION,
          'error-codes': [],
        });
      case 'other-hostname':
        return Response.json({
          success: true,
          hostname: 'elsewhere.example',
          action: WIDGET_ACTION,
          'error-codes': [],
        });
      case 'other-action':
        return Response.json({
          success: true,
          hostname: SITE_HOST,
          action: 'login',
          'error-codes': [],
        });
      case 'internal-error':
        return Response.json({ success: false, 'error-codes': ['internal-error'] });
      case 'fail':
        return Response.json({ success: false, 'error-codes': ['invalid-input-response'] });
      case 'outage':
        throw new TypeError('fetch failed: connection refused');
      case 'error-status':
        return new Response('upstream error', { status: 500 });
      case 'not-json':
        return new Response('<html>maintenance</html>', { status: 200 });
    }
  }
  if (url.origin === TEST_BINDINGS.VAPI_API_URL && url.pathname.startsWith('/chat')) {
    return providerChat(request, url);
  }
  if (url.origin === TEST_BINDINGS.VAPI_API_URL) {
    if (request.method === 'POST' && url.pathname === '/call/web') {
      const failure = world.provider.createFails;
      if (failure === 'down') throw new TypeError('fetch failed: connection reset');
      if (typeof failure === 'number') {
        return Response.json({ message: 'no' }, { status: failure });
      }
      callSeq += 1;
      const id = `call-${callSeq}`;
      const created = (await request.json()) as { assistantOverrides?: Record<string, unknown> };
      world.provider.created.push({
        id,
        body: created,
        authorization: request.headers.get('authorization'),
      });
      world.provider.calls.set(id, {
        id,
        status: 'in-progress',
        createdAt: new Date().toISOString(),
        ...(created.assistantOverrides ? { assistantOverrides: created.assistantOverrides } : {}),
      });
      if (failure === 'late') throw new DOMException('The operation timed out.', 'TimeoutError');
      return Response.json(
        { id, webCallUrl: `https://pepa-test.daily.co/room-${callSeq}`, status: 'queued' },
        { status: 201 },
      );
    }
    if (request.method === 'GET' && url.pathname === '/call') {
      world.provider.listed += 1;
      if (world.provider.lookUpFails) return Response.json({ message: 'down' }, { status: 503 });
      const after = Date.parse(url.searchParams.get('createdAtGt') ?? '') || 0;
      return Response.json(
        [...world.provider.calls.values()].filter(
          (call) => Date.parse(call.createdAt ?? '') > after,
        ),
      );
    }
    const lookUp = /^\/call\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && lookUp) {
      const id = decodeURIComponent(lookUp[1] ?? '');
      world.provider.lookedUp.push(id);
      if (world.provider.lookUpFails) return Response.json({ message: 'down' }, { status: 503 });
      const call = world.provider.calls.get(id);
      if (!call) return Response.json({ message: 'Not Found' }, { status: 404 });
      return Response.json(call);
    }
  }
  throw new Error(`The gate's tests reach nothing outside: ${request.method} ${request.url}`);
}

let chatSeq = 0;

/** The provider's `POST /chat` (streamed) and `GET /chat/{id}`, as the world says. */
async function providerChat(request: Request, url: URL): Promise<Response> {
  const chat = world.chat;
  if (request.method === 'GET') {
    const id = decodeURIComponent(url.pathname.slice('/chat/'.length));
    chat.lookedUp.push(id);
    if (chat.cost === null) return Response.json({ message: 'down' }, { status: 503 });
    const kept = chat.records.get(id);
    if (!kept) return Response.json({ message: 'Not Found' }, { status: 404 });
    return Response.json({ id, orgId: 'org', cost: chat.cost, ...kept });
  }
  const body = (await request.json()) as Record<string, unknown>;
  chat.requests.push({ body, authorization: request.headers.get('authorization') });
  const failure = chat.failures.shift();
  if (failure === 'down') throw new TypeError('fetch failed: connection reset');
  if (failure !== undefined) {
    return Response.json(
      { message: 'no' },
      { status: failure, headers: chat.retryAfter ? { 'retry-after': chat.retryAfter } : {} },
    );
  }
  chatSeq += 1;
  const id = `chat-${chatSeq}`;
  const reply = chat.reply.join('');
  chat.records.set(id, {
    input: body.input,
    output: [{ role: 'assistant', content: reply }],
    messages: [
      { role: 'user', content: body.input },
      { role: 'assistant', content: reply },
    ],
    createdAt: new Date().toISOString(),
  });
  const encoder = new TextEncoder();
  const piece = (delta: string) =>
    encoder.encode(`data: ${JSON.stringify({ id, path: 'chat.output[0].content', delta })}\n\n`);
  const [first = '', ...rest] = chat.reply;
  const { hold, breaks } = chat;
  const signal = request.signal;
  const queue = [piece(first), ...rest.map(piece), encoder.encode('data: [DONE]\n\n')];
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(out) {
      pulls += 1;
      if (pulls > 1 && breaks) {
        out.error(new Error('connection reset'));
        return;
      }
      if (pulls > 1 && hold) {
        await new Promise<void>((done) => {
          if (signal.aborted) done();
          signal.addEventListener('abort', () => done(), { once: true });
        });
        if (!chat.aborted.includes(id)) chat.aborted.push(id);
        out.error(new DOMException('aborted', 'AbortError'));
        return;
      }
      const next = queue.shift();
      if (next) out.enqueue(next);
      else out.close();
    },
    cancel() {
      if (!chat.aborted.includes(id)) chat.aborted.push(id);
    },
  });
  return new Response(stream, { status: 201, headers: { 'content-type': 'text/event-stream' } });
}

/** The variables and secrets as the suite began: wrangler.jsonc's `vars` under the test bindings. */
const initialBindings = Object.fromEntries(
  Object.entries(gateEnv).filter(([, value]) => typeof value === 'string'),
);

/** The bindings as the suite began, whatever a test changed. */
export function restoreBindings(): void {
  for (const key of Object.keys(gateEnv)) {
    if (typeof gateEnv[key] === 'string' && !(key in initialBindings)) delete gateEnv[key];
  }
  Object.assign(gateEnv, initialBindings);
}

/** The tickets given in this test: each one's secret and the address it was given to. */
const tickets = new Map<string, { secret: string; address: string }>();
/** The chats given in this test: each one's secret and the address it was given to. */
const chats = new Map<string, { secret: string; address: string }>();
/** The rating cookie each admitted call came with. */
const ratingCookies = new Map<string, string>();
/** The card cookie each admitted call came with, and the address it was given to. */
export const cardCookies = new Map<string, { cookie: string; address: string }>();
let testRun = 0;

/** Each test: a fresh court with nothing stored, the test bindings, the clock at T0. */
export function resetWorld(): void {
  callSeq = 0;
  chatSeq = 0;
  chats.clear();
  world.chat = freshChat();
  tickets.clear();
  ratingCookies.clear();
  cardCookies.clear();
  world.siteverify = { mode: 'pass', forms: [] };
  world.provider = {
    createFails: null,
    lookUpFails: false,
    created: [],
    lookedUp: [],
    listed: 0,
    calls: new Map(),
  };
  restoreBindings();
  // A fresh court has said nothing yet, full or not.
  forgetFull();
  // A salt of its own for each test: the edge limiter's counts (kept by the runtime across
  // tests) are keyed by visitor, so no test inherits another's.
  testRun += 1;
  gateEnv.GATE_VISITOR_SALT = `${TEST_BINDINGS.GATE_VISITOR_SALT}-${testRun}`;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  vi.spyOn(globalThis, 'fetch').mockImplementation(outside);
}

/** Changes the gate's variables for this test (before the court first wakes). */
export function setVars(vars: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined) delete gateEnv[key];
    else gateEnv[key] = value;
  }
}

export function advance(seconds: number): void {
  vi.setSystemTime(Date.now() + seconds * 1000);
}

export function court(): DurableObjectStub<Court> {
  return gateEnv.COURT.getByName('court');
}

/** What the court holds right now: calls under way, tickets in line, money committed today. */
export function inspect() {
  return runInDurableObject(court(), (instance: Court) => instance.inspect());
}

/** Runs the court's sweep (its alarm) now; false when none was scheduled. */
export function sweep(): Promise<boolean> {
  return runDurableObjectAlarm(court());
}

/** The checks of streamed answers, made when each stream ends; the test's end awaits them. */
const streamChecks: Promise<void>[] = [];

/** Throws when a stream answered in this test drifted from openapi/gate.json. */
export async function expectStreamsConform(): Promise<void> {
  const checks = streamChecks.splice(0);
  await Promise.all(checks);
}

/**
 * A request to the gate; its answer must be one openapi/gate.json allows, or the test fails. A
 * stream is handed on as it comes (the test reads it, or stops it) and checked whole when it
 * ends: a stream the test stops is not waited for.
 */
export async function api(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await SELF.fetch(`${ORIGIN}${path}`, init);
  const method = init.method ?? 'GET';
  const pathname = new URL(path, ORIGIN).pathname;
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream') && response.body) {
    const decoder = new TextDecoder();
    let text = '';
    const { status, headers } = response;
    const recorder = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        text += decoder.decode(chunk, { stream: true });
        out.enqueue(chunk);
      },
      flush() {
        streamChecks.push(
          expectConforms(method, pathname, new Response(text, { status, headers })),
        );
      },
    });
    return new Response(response.body.pipeThrough(recorder), { status, headers });
  }
  await expectConforms(method, pathname, response);
  return response;
}

/** Notes the ticket or the rating cookie an answer to `address` carries. */
async function remember(answer: Response, address: string): Promise<void> {
  if (answer.status === 201) {
    const cookie = /pepa_rating=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
    const admitted = (await answer.clone().json()) as { call?: { id?: string } };
    if (cookie && admitted.call?.id) ratingCookies.set(admitted.call.id, cookie);
    const card = /pepa_card=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
    if (card && admitted.call?.id) cardCookies.set(admitted.call.id, { cookie: card, address });
  }
  if (answer.status === 200 || answer.status === 202) {
    const waiting = (await answer.clone().json()) as { ticket?: { id: string; secret: string } };
    if (waiting.ticket) {
      tickets.set(waiting.ticket.id, { secret: waiting.ticket.secret, address });
    }
  }
}

/** `POST /api/calls` from a visitor at `address`. */
export async function start(
  address: string,
  botCheckToken: string | null = TOKEN,
): Promise<Response> {
  const answer = await api('/api/calls', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': address },
    body: JSON.stringify(botCheckToken === null ? {} : { botCheckToken }),
  });
  await remember(answer, address);
  return answer;
}

/** The headers a ticket is shown with: its secret, from the address it was given to. */
export function ticketHeaders(ticketId: string): Record<string, string> {
  const known = tickets.get(ticketId);
  return known
    ? { 'ticket-secret': known.secret, 'cf-connecting-ip': known.address }
    : { 'cf-connecting-ip': '192.0.2.250' };
}

export async function checkIn(ticketId: string, query = ''): Promise<Response> {
  const headers = ticketHeaders(ticketId);
  const answer = await api(`/api/tickets/${ticketId}${query}`, { method: 'POST', headers });
  await remember(answer, headers['cf-connecting-ip'] ?? '');
  return answer;
}

export function leave(ticketId: string): Promise<Response> {
  return api(`/api/tickets/${ticketId}`, { method: 'DELETE', headers: ticketHeaders(ticketId) });
}

/** `POST /api/ratings`, with the rating cookie of the call's admission unless told otherwise. */
export function rate(
  rating: Record<string, unknown>,
  { cookie, address = '192.0.2.251' }: { cookie?: string | null; address?: string } = {},
): Promise<Response> {
  const given =
    cookie === undefined
      ? typeof rating.callId === 'string'
        ? ratingCookies.get(rating.callId)
        : undefined
      : cookie;
  return api('/api/ratings', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'cf-connecting-ip': address,
      ...(given ? { cookie: `pepa_rating=${given}` } : {}),
    },
    body: JSON.stringify(rating),
  });
}

export function providerEvent(
  message: Record<string, unknown>,
  authorization: string | null = `Bearer ${TEST_BINDINGS.GATE_WEBHOOK_SECRET}`,
): Promise<Response> {
  return api('/api/provider-events', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(authorization === null ? {} : { authorization }),
    },
    body: JSON.stringify({ message }),
  });
}

export function statusEnded(callId: string, endedReason = 'customer-ended-call') {
  return providerEvent({
    type: 'status-update',
    status: 'ended',
    call: { id: callId },
    endedReason,
  });
}

export function endOfCallReport(
  callId: string,
  {
    cost,
    seconds = 60,
    endedReason = 'customer-ended-call',
  }: { cost?: number; seconds?: number; endedReason?: string } = {},
) {
  const endedAt = Date.now();
  return providerEvent({
    type: 'end-of-call-report',
    call: { id: callId },
    endedReason,
    ...(cost === undefined ? {} : { cost }),
    startedAt: new Date(endedAt - seconds * 1000).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
  });
}

/** The answers' bodies, as the contract types them (generated from openapi/gate.json). */
export type { Admitted as AdmittedBody, Problem as ProblemBody, Waiting as WaitingBody };

export async function body<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** Starts a call for `address` and says its id (the visitor must be admitted at once). */
export async function admit(address: string): Promise<string> {
  const response = await start(address);
  if (response.status !== 201) {
    throw new Error(
      `Expected ${address} admitted, got ${response.status} ${await response.text()}`,
    );
  }
  return (await body<Admitted>(response)).call.id;
}

/** Starts a call for `address` that must wait; says its ticket. */
export async function queue(address: string): Promise<Waiting> {
  const response = await start(address);
  if (response.status !== 202) {
    throw new Error(`Expected ${address} in line, got ${response.status} ${await response.text()}`);
  }
  return body<Waiting>(response);
}

/** An address for visitor number `n`, each in its own /24 (its own network). */
export const addr = (n: number): string => `198.${Math.floor(n / 250)}.${n % 250}.1`;

/** `POST /api/chats` from a visitor at `address`. */
export async function startChat(
  address: string,
  botCheckToken: string | null = TOKEN,
): Promise<Response> {
  const answer = await api('/api/chats', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': address },
    body: JSON.stringify(botCheckToken === null ? {} : { botCheckToken }),
  });
  const name = await deskNameOf(address);
  if (name) desksUsed.add(name);
  if (answer.status === 201) {
    const { chat } = (await answer.clone().json()) as { chat: { id: string; secret: string } };
    chats.set(chat.id, { secret: chat.secret, address });
  }
  return answer;
}

/** The desks that served a chat since last asked. */
const desksUsed = new Set<string>();

/** The desks the test's visitors were served by (to empty them), forgotten as they are told. */
export function takeDesks(): string[] {
  const names = [...desksUsed];
  desksUsed.clear();
  return names;
}

/** Starts a chat for `address` and says its id (it must be given). */
export async function openChat(address: string): Promise<string> {
  const answer = await startChat(address);
  if (answer.status !== 201) {
    throw new Error(`Expected a chat for ${address}, got ${answer.status} ${await answer.text()}`);
  }
  return ((await answer.json()) as { chat: { id: string } }).chat.id;
}

/** The headers a chat is shown with: its secret, from the address it was given to. */
export function chatHeaders(chatId: string): Record<string, string> {
  const known = chats.get(chatId);
  return known
    ? { 'chat-secret': known.secret, 'cf-connecting-ip': known.address }
    : { 'cf-connecting-ip': '192.0.2.250' };
}

/** The headers that hand a chat to a call: its id and secret. */
export function handover(chatId: string): Record<string, string> {
  const known = chats.get(chatId);
  return known ? { 'chat-id': chatId, 'chat-secret': known.secret } : {};
}

/** `POST /api/chats/{id}/messages`; the answer whole (its stream read to its end). */
export function say(
  chatId: string,
  text: string,
  headers: Record<string, string> = chatHeaders(chatId),
): Promise<Response> {
  return api(`/api/chats/${chatId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ text }),
  });
}

/** The events of a reply's stream, as JSON. */
export async function events(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);
}

/** The desk a test's stub can reach by name (all of them, to empty between tests). */
export function desk(name: string) {
  return gateEnv.TEXT_DESK.getByName(name);
}

/** The name of the desk that serves a visitor at `address`, or null for no address. */
async function deskNameOf(address: string): Promise<string | null> {
  const visitor = await identify(
    new Request(ORIGIN, { headers: { 'cf-connecting-ip': address } }),
    gateEnv.GATE_VISITOR_SALT ?? '',
  );
  return visitor ? deskFor(visitor) : null;
}

/** The desk a visitor at `address` is served by. */
export async function deskOf(address: string) {
  const name = await deskNameOf(address);
  if (!name) throw new Error(`no visitor at ${address}`);
  return desk(name);
}
