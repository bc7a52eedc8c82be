/**
 * A small stateful stand-in for the provider's assistant, token and credential endpoints, for the
 * go-live scripts' tests. It remembers what was created and patched, so runs can be repeated and shown to
 * be idempotent. Like the provider, it never returns a credential's token. With `validateWith` (a Prism mock's URL), every request is also sent to Prism
 * serving the vendored spec, and Prism's verdict is recorded beside it; calls (`/call…`), which
 * the stand-in does not hold, are answered by Prism itself.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  auth: string | null;
  body: unknown;
  /** Prism's status and `sl-violations` header, when validating. */
  contract?: { status: number; violations: string | null };
}

export interface StandInOptions {
  privateKey?: string;
  validateWith?: string;
}

const respond = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function providerStandIn({ privateKey = 'secret', validateWith }: StandInOptions = {}) {
  const assistants = new Map<string, Record<string, unknown>>();
  const tokens = new Map<string, Record<string, unknown>>();
  const credentials = new Map<string, Record<string, unknown>>();
  const requests: RecordedRequest[] = [];
  let next = 1;
  const stamp = { orgId: 'o1', createdAt: '2026-11-01T00:00:00.000Z' };

  const answer = (method: string, url: URL, body: unknown, auth: string | null) => {
    if (auth !== `Bearer ${privateKey}`) return respond(401, { message: 'Unauthorized' });
    const [, collection, id] = url.pathname.split('/');
    const store =
      collection === 'assistant'
        ? assistants
        : collection === 'token'
          ? tokens
          : collection === 'credential'
            ? credentials
            : null;
    if (!store) return respond(404, { message: 'Not Found' });
    // Secrets go in, never out: a credential's authentication plan comes back without its token.
    const shown = (item: Record<string, unknown>) => {
      if (store !== credentials || !isObject(item.authenticationPlan)) return item;
      const { token: _token, ...plan } = item.authenticationPlan;
      return { ...item, authenticationPlan: plan };
    };
    const json = (status: number, body: unknown) =>
      respond(
        status,
        Array.isArray(body) ? body.map(shown) : isObject(body) && status < 300 ? shown(body) : body,
      );
    if (method === 'GET' && !id) return json(200, [...store.values()]);
    if (method === 'POST' && !id) {
      const created = {
        ...(body as object),
        ...stamp,
        id: `${collection === 'assistant' ? 'a' : collection === 'token' ? 't' : 'c'}${next++}`,
        updatedAt: stamp.createdAt,
      };
      store.set(created.id, created);
      return json(201, created);
    }
    const current = id ? store.get(id) : undefined;
    if (!current) return json(404, { message: 'Not Found' });
    if (method === 'GET') return json(200, current);
    if (method === 'PATCH') {
      const updated = { ...current, ...(body as object), updatedAt: '2026-11-02T00:00:00.000Z' };
      store.set(String(current.id), updated);
      return json(200, updated);
    }
    return json(405, { message: 'Method Not Allowed' });
  };

  const fetchStandIn = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.clone().text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    const auth = request.headers.get('authorization');
    const recorded: RecordedRequest = { method: request.method, path: url.pathname, auth, body };
    if (validateWith && !url.pathname.startsWith('/call')) {
      const checked = await fetch(new Request(new URL(url.pathname, validateWith), request));
      recorded.contract = {
        status: checked.status,
        violations: checked.headers.get('sl-violations'),
      };
      await checked.body?.cancel();
    }
    requests.push(recorded);
    // Calls are the mock's to answer: the stand-in holds only assistants and keys.
    if (validateWith && url.pathname.startsWith('/call')) {
      return fetch(new Request(new URL(url.pathname, validateWith), request));
    }
    return answer(request.method, url, body, auth);
  };

  /** Adds a key of the account, as the dashboard would have made it. */
  const addToken = (token: {
    value: string;
    tag?: 'public' | 'private';
    restrictions?: object;
  }) => {
    const id = `t${next++}`;
    tokens.set(id, { tag: 'public', ...token, ...stamp, updatedAt: stamp.createdAt, id });
    return id;
  };

  return {
    assistants,
    tokens,
    credentials,
    requests,
    addToken,
    fetch: fetchStandIn as typeof fetch,
  };
}

/** The requests that would change something on the provider. */
export const writesIn = (requests: readonly RecordedRequest[]) =>
  requests.filter((request) => request.method !== 'GET');
