/**
 * The world outside the gate, as its tests stand in for it: a stubbed `fetch` answers for the
 * provider (`POST /call/web`, `GET /call`, `GET /call/{id}`, its chat) and for Turnstile's
 * siteverify, as `world` says, and records what it was asked.
 */
import { TEST_BINDINGS } from './bindings';
import { freshModel, modelEndpoint, restartCompletionIds, type ModelWorld } from './model-endpoint';
import { freshChat, providerChat, restartChatIds, type ChatWorld } from './provider-chat';

/** How siteverify answers a bot check. */
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

/** A call as the provider stand-in keeps it. */
export interface ProviderCall {
  id: string;
  status: 'queued' | 'in-progress' | 'ended';
  cost?: number;
  createdAt?: string;
  assistantOverrides?: Record<string, unknown>;
  /** What the provider recorded of the call (its messages), once it has. */
  artifact?: { messages: Record<string, unknown>[] };
}

/** What the stubbed outside world answers, and what it was asked. */
export interface World {
  chat: ChatWorld;
  /** The model engine's endpoint (TEST_BINDINGS.GATE_MODEL_API_URL). */
  model: ModelWorld;
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

/** The provider's calls as they are before a test asks anything. */
function freshProvider(): World['provider'] {
  return {
    createFails: null,
    lookUpFails: false,
    created: [],
    lookedUp: [],
    listed: 0,
    calls: new Map(),
  };
}

/** What the outside world answers in this test; a test changes it to make the world misbehave. */
export const world: World = {
  chat: freshChat(),
  model: freshModel(),
  siteverify: { mode: 'pass', forms: [] },
  provider: freshProvider(),
};

let callSeq = 0;

/** The outside world as a fresh test finds it: every answer a good one, nothing asked yet. */
export function resetOutsideWorld(): void {
  callSeq = 0;
  restartChatIds();
  restartCompletionIds();
  world.chat = freshChat();
  world.model = freshModel();
  world.siteverify = { mode: 'pass', forms: [] };
  world.provider = freshProvider();
}

/** The stand-in for `fetch`: what the gate reaches outside, answered as `world` says. */
export async function outside(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
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
  if (request.url === `${TEST_BINDINGS.GATE_MODEL_API_URL}/chat/completions`) {
    return modelEndpoint(world.model, request);
  }
  if (url.origin === TEST_BINDINGS.VAPI_API_URL && url.pathname.startsWith('/chat')) {
    return providerChat(world.chat, request, url);
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
