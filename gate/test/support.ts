/**
 * The gate's test bench, inside workerd: the Worker and its court run in the tests' isolate, so
 * a stubbed `fetch` stands in for the provider (`POST /call/web`, `GET /call/{id}`) and for
 * Turnstile's siteverify, and a faked `Date` is the court's clock. The clock starts in the
 * future, so the court's alarm never fires by itself: a test runs the sweep when it means to.
 */
import { runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import type { GateEnv } from '../src/config';
import type { Court } from '../src/court';
import { TEST_BINDINGS } from './bindings';

/** Noon UTC on a day far from the real clock. */
export const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
export const ORIGIN = 'https://pepa.test';
export const TOKEN = 'a-bot-check-token';

export const gateEnv = env as unknown as GateEnv & Record<string, string | undefined>;

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
  status: 'in-progress' | 'ended';
  cost?: number;
  createdAt?: string;
  assistantOverrides?: Record<string, unknown>;
}

/** What the stubbed outside world answers, and what it was asked. */
export interface World {
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

export const world: World = {
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

/** The test bindings, as a test that changed them found them. */
export function restoreBindings(): void {
  for (const key of Object.keys(gateEnv)) {
    if (key.startsWith('GATE_') || key.startsWith('VAPI_') || key.startsWith('TURNSTILE_')) {
      delete gateEnv[key];
    }
  }
  Object.assign(gateEnv, TEST_BINDINGS);
}

/** Each test: a fresh court with nothing stored, the test bindings, the clock at T0. */
export function resetWorld(): void {
  callSeq = 0;
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
  return gateEnv.COURT.get(gateEnv.COURT.idFromName('court'));
}

/** What the court holds right now: calls under way, tickets in line, money committed today. */
export function inspect() {
  return runInDurableObject(court(), (instance: Court) => instance.inspect());
}

/** Runs the court's sweep (its alarm) now; false when none was scheduled. */
export function sweep(): Promise<boolean> {
  return runDurableObjectAlarm(court());
}

export function api(path: string, init: RequestInit = {}): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, init);
}

/** `POST /api/calls` from a visitor at `address`. */
export function start(address: string, botCheckToken: string | null = TOKEN): Promise<Response> {
  return api('/api/calls', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': address },
    body: JSON.stringify(botCheckToken === null ? {} : { botCheckToken }),
  });
}

export function checkIn(ticketId: string, query = ''): Promise<Response> {
  return api(`/api/tickets/${ticketId}${query}`, { method: 'POST' });
}

export function leave(ticketId: string): Promise<Response> {
  return api(`/api/tickets/${ticketId}`, { method: 'DELETE' });
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

export interface AdmittedBody {
  status: 'admitted';
  call: { id: string; webCallUrl: string; maxDurationSeconds: number };
  waitedSeconds: number;
}
export interface WaitingBody {
  status: 'waiting';
  ticket: { id: string; position: number; estimatedWaitSeconds: number; checkInBySeconds: number };
  retryAfterSeconds: number;
}
export interface ProblemBody {
  code: string;
  title: string;
  status: number;
  detail?: string;
  retryAfterSeconds?: number;
  reopensAt?: string;
}

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
  return (await body<AdmittedBody>(response)).call.id;
}

/** Starts a call for `address` that must wait; says its ticket. */
export async function queue(address: string): Promise<WaitingBody> {
  const response = await start(address);
  if (response.status !== 202) {
    throw new Error(`Expected ${address} in line, got ${response.status} ${await response.text()}`);
  }
  return body<WaitingBody>(response);
}

/** An address for visitor number `n`, each in its own /24 (its own network). */
export const addr = (n: number): string => `198.${Math.floor(n / 250)}.${n % 250}.1`;
