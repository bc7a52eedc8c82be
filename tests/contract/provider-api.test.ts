// Every SDK function against a real Prism mock of the vendored spec, plus the failure paths the
// app relies on (auth, validation, server errors, network failures) through `src/api/vapi.ts`.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { findFreePort } from '../../scripts/lib/prism.mjs';
import {
  exampleOf,
  readSpec,
  repoRoot,
  specOperations,
  successStatus,
  type OpenApiDocument,
  type SpecOperation,
} from './spec';

// Type-only: the modules themselves are imported in beforeAll, once the site config points at
// the mock (the app's client reads it when it is created).
import type * as GeneratedSdk from '../../generated/sdk.gen';
import type * as GeneratedClient from '../../generated/client';
import type * as GeneratedSharedClient from '../../generated/client.gen';
import type * as VapiApi from '../../src/api/vapi';

type Sdk = typeof GeneratedSdk;
type ClientModule = typeof GeneratedClient;
type SharedClientModule = typeof GeneratedSharedClient;
type VapiModule = typeof VapiApi;
type Client = ReturnType<ClientModule['createClient']>;

interface CallOptions {
  client: Client;
  path?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
}
interface CallResult {
  data?: unknown;
  error?: unknown;
  response?: Response;
}
type SdkFunction = (options: CallOptions) => Promise<CallResult>;

const spec = readSpec();
const PUBLIC_KEY = 'contract-test-key';

/** Maps `METHOD /path` to the SDK function the generator wrote for it, read from its source. */
function sdkFunctionsByRoute(): Map<string, string> {
  const source = readFileSync(resolve(repoRoot, 'generated', 'sdk.gen.ts'), 'utf8');
  const routes = new Map<string, string>();
  const pattern =
    /export const (\w+) = [^\n]*\(options\??\.client \?\? client\)\.(\w+)<[\s\S]*?url: '([^']+)'/g;
  for (const [, name = '', method = '', url = ''] of source.matchAll(pattern)) {
    routes.set(`${method.toUpperCase()} ${url}`, name);
  }
  return routes;
}

function resolveSchema(document: OpenApiDocument, schema: unknown): Record<string, unknown> {
  const record = (schema ?? {}) as Record<string, unknown>;
  const ref = record.$ref;
  if (typeof ref !== 'string') return record;
  const name = ref.replace('#/components/schemas/', '');
  return (document.components?.schemas?.[name] ?? {}) as Record<string, unknown>;
}

/** A valid multipart body for a schema: a small file for every binary field. */
function multipartBody(document: OpenApiDocument, schema: unknown): Record<string, unknown> {
  const resolved = resolveSchema(document, schema);
  const properties = (resolved.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((resolved.required ?? []) as string[]);
  const body: Record<string, unknown> = {};
  const sample = () => new File(['RIFF pepa'], 'pepa.wav', { type: 'audio/wav' });
  for (const [name, property] of Object.entries(properties)) {
    const items = property.items as Record<string, unknown> | undefined;
    if (property.format === 'binary') body[name] = sample();
    // Two files: a single multipart field cannot be told apart from a scalar.
    else if (items?.format === 'binary') body[name] = [sample(), sample()];
    else if (required.has(name)) body[name] = 'Pepa';
  }
  return body;
}

interface Case {
  name: string;
  route: string;
  status: number;
  options: Omit<CallOptions, 'client'>;
  expected: unknown;
}

function buildCase(
  document: OpenApiDocument,
  routes: Map<string, string>,
  op: SpecOperation,
): Case {
  const route = `${op.method.toUpperCase()} ${op.path}`;
  const name = routes.get(route);
  if (!name) throw new Error(`No SDK function for ${route}`);
  const parameters = op.operation.parameters ?? [];
  const options: Omit<CallOptions, 'client'> = {};
  const pathParams = parameters.filter((p) => p.in === 'path');
  if (pathParams.length > 0) {
    options.path = Object.fromEntries(pathParams.map((p) => [p.name, String(p.example)]));
  }
  const queryParams = parameters.filter((p) => p.in === 'query');
  if (queryParams.length > 0) {
    options.query = Object.fromEntries(queryParams.map((p) => [p.name, p.example]));
  }
  const content = op.operation.requestBody?.content;
  if (content?.['application/json']) options.body = exampleOf(content['application/json']);
  if (content?.['multipart/form-data']) {
    options.body = multipartBody(document, content['multipart/form-data'].schema);
  }
  const status = successStatus(op.operation);
  const expected = exampleOf(op.operation.responses[String(status)]?.content?.['application/json']);
  return { name, route, status, options, expected };
}

/** The run's Prism mock of the provider spec (tests/support/shared-prism.ts). */
const prismUrl = inject('prismUrl');
let sdk: Sdk;
let clients: ClientModule;
let shared: SharedClientModule;
let vapi: VapiModule;

function testClient(config: Parameters<ClientModule['createConfig']>[0] = {}): Client {
  return clients.createClient(clients.createConfig({ baseUrl: prismUrl, ...config }));
}

function sdkFunction(name: string): SdkFunction {
  const fn = (sdk as unknown as Record<string, unknown>)[name];
  if (typeof fn !== 'function') throw new Error(`${name} is not an SDK function`);
  return fn as SdkFunction;
}

/** Runs `body` with a request interceptor on the app's shared client, then removes it. */
async function withRequestHook<T>(
  hook: (request: Request) => Request,
  body: () => Promise<T>,
): Promise<T> {
  const id = shared.client.interceptors.request.use(hook);
  try {
    return await body();
  } finally {
    shared.client.interceptors.request.eject(id);
  }
}

beforeAll(async () => {
  // The app's client is configured from the site config at creation: point it at this mock.
  vi.stubEnv('VITE_PEPA_DEMO', 'true');
  vi.stubEnv('VITE_VAPI_PUBLIC_KEY', PUBLIC_KEY);
  vi.stubEnv('VITE_VAPI_API_URL', prismUrl);
  sdk = await import('../../generated/sdk.gen');
  clients = await import('../../generated/client');
  shared = await import('../../generated/client.gen');
  vapi = await import('../../src/api/vapi');
});

const routes = sdkFunctionsByRoute();
const cases = specOperations(spec).map((op) => buildCase(spec, routes, op));

describe('every SDK function against the mock', () => {
  it('has one generated function per operation, and every one is exercised below', () => {
    expect(cases).toHaveLength(148);
    const exported = Object.entries(sdk)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name)
      .sort();
    expect(exported).toEqual(cases.map((c) => c.name).sort());
  });

  it.each(cases)('$name ($route) answers $status with the example', async (c) => {
    const result = await sdkFunction(c.name)({
      client: testClient({ auth: PUBLIC_KEY }),
      ...c.options,
    });
    expect(result.error).toBeUndefined();
    expect(result.response?.status).toBe(c.status);
    expect(result.data).toEqual(c.expected);
  });
});

describe('authentication', () => {
  it('rejects a secured operation without a bearer token with 401', async () => {
    const result = await sdk.assistantControllerFindAll({ client: testClient() });
    expect(result.response.status).toBe(401);
    expect(result.response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(result.data).toBeUndefined();
  });

  it('rejects a secured operation with an empty bearer token with 401', async () => {
    const empty = await sdk.callControllerFindOne({
      client: testClient(),
      path: { id: 'call-1' },
      headers: { Authorization: 'Bearer ' },
    });
    expect(empty.response.status).toBe(401);

    // An empty key from config sends no Authorization header at all: still 401.
    const blankKey = await sdk.callControllerFindOne({
      client: testClient({ auth: '' }),
      path: { id: 'call-1' },
    });
    expect(blankKey.response.status).toBe(401);
  });

  it('accepts the credential webhook without any auth', async () => {
    const result = await sdk.credentialControllerHandleWebhook({
      client: testClient(),
      body: { type: 'auth', operation: 'creation', from: 'nango', connectionId: 'conn_1' },
    });
    expect(result.response.status).toBe(201);
    expect(result.data).toEqual({ received: true });
  });
});

describe('multipart upload', () => {
  it('sends the file in the form data and gets the created file back', async () => {
    const sent: Request[] = [];
    const client = testClient({
      auth: PUBLIC_KEY,
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        // The client always hands fetch a ready Request.
        if (input instanceof Request) sent.push(input.clone());
        return fetch(input, init);
      },
    });
    const file = new File(['By royal decree: frogs first.'], 'decree.txt', { type: 'text/plain' });

    const result = await sdk.fileControllerCreate({ client, body: { file, name: 'decree.txt' } });

    expect(result.response.status).toBe(201);
    expect(result.data?.object).toBe('file');
    expect(sent).toHaveLength(1);
    const request = sent[0] as Request;
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers.get('authorization')).toBe(`Bearer ${PUBLIC_KEY}`);
    const form = await request.formData();
    const uploaded = form.get('file');
    expect(uploaded).toBeInstanceOf(File);
    expect((uploaded as File).name).toBe('decree.txt');
    expect(await (uploaded as File).text()).toBe('By royal decree: frogs first.');
    expect(form.get('name')).toBe('decree.txt');
  });
});

/**
 * `POST /call/web` as a static-only build sends it (src/features/talk/voice/direct-web-call.ts): the
 * generated SDK function on the client src/api/vapi.ts configures, throwing its errors.
 */
async function createWebCall(
  client: (typeof GeneratedSharedClient)['client'],
  body: VapiApi.CreateWebCallDto,
  signal?: AbortSignal,
): Promise<VapiApi.Call> {
  const { data } = await sdk.callControllerCreateWebCall({
    client,
    body,
    ...(signal ? { signal } : {}),
    throwOnError: true,
  });
  return data;
}

describe('the web call of a static-only build (src/api/vapi.ts configures the client)', () => {
  it('creates a web call with the configured base URL and public key', async () => {
    const seen: Request[] = [];
    const call = await withRequestHook(
      (request) => {
        seen.push(request);
        return request;
      },
      () => createWebCall(shared.client, { assistantId: 'demo-pepa-assistant' }),
    );

    expect(seen[0]?.url).toBe(`${prismUrl}/call/web`);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${PUBLIC_KEY}`);
    expect(call.id).toEqual(expect.any(String));
    expect(call.type).toBe('webCall');
    expect(call.webCallUrl).toMatch(/^https:\/\/[\w-]+\.daily\.co\/\w+$/);
    expect(call.assistant?.voice?.provider).toBe('11labs');
    expect(call.artifactPlan?.videoRecordingEnabled).toBe(false);
  });

  it('returns the video-recording example when asked for it', async () => {
    const call = await withRequestHook(
      (request) => {
        request.headers.set('Prefer', 'example=video');
        return request;
      },
      () =>
        createWebCall(shared.client, {
          assistantId: 'demo-pepa-assistant',
          assistantOverrides: { artifactPlan: { videoRecordingEnabled: true } },
        }),
    );
    expect(call.artifactPlan?.videoRecordingEnabled).toBe(true);
    expect(call.assistant?.voice?.provider).toBe('tavus');
  });

  it('surfaces the validation detail of an invalid body as a typed HTTP error', async () => {
    const invalid = { roomDeleteOnUserLeaveEnabled: 'yes' } as unknown as VapiApi.CreateWebCallDto;

    const error: unknown = await createWebCall(shared.client, invalid).catch(
      (caught: unknown) => caught,
    );

    expect(vapi.isVapiApiError(error)).toBe(true);
    if (!vapi.isVapiApiError(error)) return;
    expect(error.kind).toBe('http');
    expect(error.status).toBe(422);
    expect(error.details.join('\n')).toMatch(/roomDeleteOnUserLeaveEnabled must be boolean/);
    expect(error.message).toMatch(/HTTP 422.*roomDeleteOnUserLeaveEnabled must be boolean/);
  });

  it('turns a server error (Prefer: code=500) into a typed HTTP error', async () => {
    const error: unknown = await withRequestHook(
      (request) => {
        request.headers.set('Prefer', 'code=500');
        return request;
      },
      () => createWebCall(shared.client, { assistantId: 'demo-pepa-assistant' }),
    ).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(vapi.VapiApiError);
    expect(vapi.isVapiApiError(error) && error.kind).toBe('http');
    expect(vapi.isVapiApiError(error) && error.status).toBe(500);
  });

  it('turns an aborted request into a typed network error', async () => {
    const controller = new AbortController();
    controller.abort();

    const error: unknown = await createWebCall(
      shared.client,
      { assistantId: 'demo-pepa-assistant' },
      controller.signal,
    ).catch((caught: unknown) => caught);

    expect(vapi.isVapiApiError(error)).toBe(true);
    expect(vapi.isVapiApiError(error) && error.kind).toBe('network');
    expect(vapi.isVapiApiError(error) && error.status).toBe(0);
  });

  it('turns a refused connection into a typed network error', async () => {
    const closedPort = await findFreePort();
    vi.resetModules();
    vi.stubEnv('VITE_PEPA_DEMO', 'true');
    vi.stubEnv('VITE_VAPI_API_URL', `http://127.0.0.1:${closedPort}`);
    const offline = await import('../../src/api/vapi');
    const { client: offlineClient } = await import('../../generated/client.gen');

    const error: unknown = await createWebCall(offlineClient, {
      assistantId: 'demo-pepa-assistant',
    }).catch((caught: unknown) => caught);

    expect(offline.isVapiApiError(error)).toBe(true);
    if (!offline.isVapiApiError(error)) return;
    expect(error.kind).toBe('network');
    expect(error.status).toBe(0);
    expect(error.body).toBeUndefined();
    expect(error.message).toMatch(/^POST \/call\/web failed: /);
  });
});
