import { createClient, createConfig } from '../generated/client';
import {
  assistantControllerCreate,
  assistantControllerFindAll,
  assistantControllerFindOne,
  assistantControllerUpdate,
  credentialControllerCreate,
  credentialControllerFindAll,
  credentialControllerUpdate,
} from '../generated/sdk.gen';
import { PEPA_GATE_CREDENTIAL_NAME, withCourtGate, type AssistantDefinition } from './pepa';

/** One changed field: its dotted path, the provider's value and the repository's value. */
export interface FieldChange {
  path: string;
  from: unknown;
  to: unknown;
}

/**
 * Compares the fields the repository defines with the provider's copy. Fields the repository
 * leaves out are not compared, so values the provider adds by itself never show as changes.
 */
export function diffAssistant(remote: unknown, local: unknown, path = ''): FieldChange[] {
  if (isPlainObject(local)) {
    const remoteObject = isPlainObject(remote) ? remote : {};
    return Object.entries(local).flatMap(([key, value]) =>
      diffAssistant(remoteObject[key], value, path ? `${path}.${key}` : key),
    );
  }
  return JSON.stringify(remote) === JSON.stringify(local)
    ? []
    : [{ path, from: remote, to: local }];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Formats a diff as one line per field. */
export function formatDiff(changes: FieldChange[]): string[] {
  const show = (value: unknown) => {
    const text = value === undefined ? '(unset)' : JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  return changes.map((change) => `  ~ ${change.path}: ${show(change.from)} -> ${show(change.to)}`);
}

/** Where Pepa's server messages go: the court gate, from `GATE_URL` and `GATE_WEBHOOK_SECRET`. */
export interface GateTarget {
  /** The site's public origin, where the gate answers `/api/…`. */
  url: string;
  /** The token the gate expects (`GATE_WEBHOOK_SECRET`); the credential sends it as a bearer. */
  secret: string;
  /** Replace the credential's token with `secret` (the provider never returns a token to compare). */
  rotate?: boolean;
}

export interface SyncOptions {
  privateKey: string | undefined;
  baseUrl: string;
  assistantId?: string | undefined;
  dryRun?: boolean;
  assistant: AssistantDefinition;
  /** Point Pepa's server messages at the court gate; without it she sends none. */
  gate?: GateTarget | undefined;
  log?: (line: string) => void;
  fetch?: typeof fetch;
}

export interface CredentialResult {
  action: 'found' | 'created' | 'rotated' | 'would-create' | 'would-rotate';
  id?: string;
}

export interface SyncResult {
  action: 'created' | 'updated' | 'unchanged' | 'would-create' | 'would-update';
  id?: string;
  changes: FieldChange[];
  /** The gate's webhook credential, when syncing with a gate. */
  credential?: CredentialResult;
}

/** The shortest webhook secret accepted: 32 characters (e.g. `openssl rand -hex 32`). */
export const MIN_SECRET_LENGTH = 32;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The gate's public origin from `GATE_URL`, or why it is not one: HTTPS (plain HTTP only on
 * loopback, for trying the scripts locally) and nothing after the host.
 */
export function gateOrigin(value: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return {
      problem: `GATE_URL must be the site's public origin, e.g. https://pepa.example (got "${value}")`,
    };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    return { problem: `GATE_URL must use https (got "${value}")` };
  }
  if (url.pathname !== '/' || url.search || url.hash) {
    return {
      problem: `GATE_URL must be an origin with no path, e.g. ${url.origin} (got "${value}")`,
    };
  }
  return { origin: url.origin };
}

/**
 * The gate target from the environment (`GATE_URL`, `GATE_WEBHOOK_SECRET`), or `undefined` when
 * `GATE_URL` is not set. Throws {@link SyncError} naming what is wrong.
 */
export function gateTargetFrom(
  env: Record<string, string | undefined>,
  { rotate = false }: { rotate?: boolean } = {},
): GateTarget | undefined {
  const raw = env.GATE_URL?.trim();
  if (!raw) {
    if (rotate)
      throw new SyncError('--rotate-webhook-secret needs GATE_URL and GATE_WEBHOOK_SECRET.');
    return undefined;
  }
  const parsed = gateOrigin(raw);
  if ('problem' in parsed) throw new SyncError(`${parsed.problem}.`);
  const secret = env.GATE_WEBHOOK_SECRET?.trim() ?? '';
  if (!secret) {
    throw new SyncError(
      'Set GATE_WEBHOOK_SECRET to the secret the gate holds (`wrangler secret put GATE_WEBHOOK_SECRET`).',
    );
  }
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new SyncError(
      `GATE_WEBHOOK_SECRET must be at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -hex 32\`).`,
    );
  }
  return { url: parsed.origin, secret, rotate };
}

/** The webhook credential's body: a bearer token in the `Authorization` header. */
export function webhookCredentialBody(secret: string) {
  return {
    provider: 'webhook',
    name: PEPA_GATE_CREDENTIAL_NAME,
    authenticationPlan: { type: 'bearer', token: secret },
  };
}

/** The provider's default API; the site's own default too. */
export const PROVIDER_API_URL = 'https://api.vapi.ai';

/**
 * Where the go-live scripts reach the provider: `VAPI_API_URL` (e.g. a local mock), else the
 * site's `VITE_VAPI_API_URL`, else the provider's API.
 */
export function providerUrl(env: Record<string, string | undefined>): string {
  return (env.VAPI_API_URL?.trim() || env.VITE_VAPI_API_URL?.trim() || PROVIDER_API_URL).replace(
    /\/+$/,
    '',
  );
}

/** Thrown with a one-line message the script prints as is. */
export class SyncError extends Error {
  override name = 'SyncError';
}

/** Creates Pepa on the provider, or diffs and patches her copy so it matches the repository. */
export async function syncAssistant(options: SyncOptions): Promise<SyncResult> {
  const log = options.log ?? console.log;
  if (!options.privateKey) {
    throw new SyncError('Set VAPI_PRIVATE_KEY to your private API key (dashboard > API keys).');
  }
  const client = createClient(
    createConfig({
      baseUrl: options.baseUrl,
      auth: () => options.privateKey,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
  const fail = (what: string, status: number | undefined): never => {
    if (status === 401 || status === 403) {
      throw new SyncError(
        `The provider refused VAPI_PRIVATE_KEY (HTTP ${status}): use the private key, not the public one.`,
      );
    }
    throw new SyncError(`${what} failed${status ? ` (HTTP ${status})` : ''}.`);
  };

  let assistant = options.assistant;
  let credential: CredentialResult | undefined;
  if (options.gate) {
    credential = await syncWebhookCredential(client, options.gate, Boolean(options.dryRun), log);
    assistant = withCourtGate(assistant, {
      url: options.gate.url,
      credentialId: credential.id ?? `(${PEPA_GATE_CREDENTIAL_NAME}, made on a real run)`,
    });
  } else {
    log(
      'GATE_URL is not set: Pepa sends no server messages, so the court gate will not hear calls end (it frees their places only by its backstop). For the gate, set GATE_URL and GATE_WEBHOOK_SECRET.',
    );
  }
  // The gate holds the id (a Worker secret or variable); a static build puts it in the page.
  const setId = (id: string | undefined) =>
    options.gate
      ? `set VAPI_ASSISTANT_ID=${id} for the gate (\`wrangler secret put VAPI_ASSISTANT_ID\`)`
      : `set VITE_VAPI_ASSISTANT_ID=${id}`;
  const withCredential = (result: SyncResult): SyncResult =>
    credential ? { ...result, credential } : result;

  let remote: (Record<string, unknown> & { id?: string }) | undefined;
  if (options.assistantId) {
    const found = await assistantControllerFindOne({ client, path: { id: options.assistantId } });
    if (found.response?.status === 404) {
      remote = undefined;
    } else if (found.error || !found.data) {
      fail('Reading the assistant', found.response?.status);
    } else {
      remote = found.data as typeof remote;
    }
  } else {
    const all = await assistantControllerFindAll({ client });
    if (all.error || !all.data) fail('Listing assistants', all.response?.status);
    remote = (all.data ?? []).find((candidate) => candidate.name === assistant.name) as
      typeof remote | undefined;
    if (remote?.id) log(`Found "${assistant.name}" by name: ${setId(remote.id)}`);
  }

  if (!remote) {
    if (options.dryRun) {
      log(`Would create "${assistant.name}" (dry run, nothing sent).`);
      return withCredential({ action: 'would-create', changes: diffAssistant({}, assistant) });
    }
    const created = await assistantControllerCreate({ client, body: assistant });
    if (created.error || !created.data)
      return fail('Creating the assistant', created.response?.status);
    log(`Created "${assistant.name}": ${setId(created.data.id)}`);
    return withCredential({ action: 'created', id: created.data.id, changes: [] });
  }

  const changes = diffAssistant(remote, assistant);
  const id = String(remote.id);
  if (changes.length === 0) {
    log(`"${assistant.name}" (${id}) matches the repository: no changes.`);
    return withCredential({ action: 'unchanged', id, changes });
  }
  log(`"${assistant.name}" (${id}) differs in ${changes.length} field(s):`);
  for (const line of formatDiff(changes)) log(line);
  if (options.dryRun) {
    log('Dry run: nothing sent.');
    return withCredential({ action: 'would-update', id, changes });
  }
  const patch = Object.fromEntries(
    [...new Set(changes.map((change) => change.path.split('.')[0] ?? change.path))].map((key) => [
      key,
      assistant[key as keyof AssistantDefinition],
    ]),
  );
  const updated = await assistantControllerUpdate({ client, path: { id }, body: patch });
  if (updated.error) return fail('Updating the assistant', updated.response?.status);
  log('Applied with PATCH.');
  return withCredential({ action: 'updated', id, changes });
}

type ProviderClient = ReturnType<typeof createClient>;

/**
 * Finds the webhook credential named {@link PEPA_GATE_CREDENTIAL_NAME}, or creates it with the
 * secret as its bearer token. The provider never returns a token, so an existing credential is
 * taken as it is unless `rotate` asks for its token to be replaced (`PATCH /credential/{id}`).
 */
async function syncWebhookCredential(
  client: ProviderClient,
  gate: GateTarget,
  dryRun: boolean,
  log: (line: string) => void,
): Promise<CredentialResult> {
  const refused = (status: number | undefined) =>
    status === 401 || status === 403
      ? new SyncError(
          `The provider refused VAPI_PRIVATE_KEY (HTTP ${status}): use the private key, not the public one.`,
        )
      : undefined;
  const all = await credentialControllerFindAll({ client });
  if (all.error || !all.data) {
    const status = all.response?.status;
    throw (
      refused(status) ??
      new SyncError(`Listing credentials failed${status ? ` (HTTP ${status})` : ''}.`)
    );
  }
  const found = all.data.find(
    (candidate) => candidate.name === PEPA_GATE_CREDENTIAL_NAME && candidate.provider === 'webhook',
  );
  const body = webhookCredentialBody(gate.secret);
  if (!found) {
    if (dryRun) {
      log(
        `Would create the webhook credential "${PEPA_GATE_CREDENTIAL_NAME}" (dry run, nothing sent).`,
      );
      return { action: 'would-create' };
    }
    const created = await credentialControllerCreate({ client, body });
    if (created.error || !created.data) {
      const status = created.response?.status;
      throw (
        refused(status) ??
        new SyncError(`Creating the webhook credential failed${status ? ` (HTTP ${status})` : ''}.`)
      );
    }
    log(`Created the webhook credential "${PEPA_GATE_CREDENTIAL_NAME}" (${created.data.id}).`);
    return { action: 'created', id: created.data.id };
  }
  if (!gate.rotate) {
    log(
      `Webhook credential "${PEPA_GATE_CREDENTIAL_NAME}" (${found.id}) exists; its token is not readable, so it is kept (after changing GATE_WEBHOOK_SECRET, run with -- --rotate-webhook-secret).`,
    );
    return { action: 'found', id: found.id };
  }
  if (dryRun) {
    log(
      `Would replace the token of "${PEPA_GATE_CREDENTIAL_NAME}" (${found.id}) with GATE_WEBHOOK_SECRET (dry run, nothing sent).`,
    );
    return { action: 'would-rotate', id: found.id };
  }
  const { name: _name, ...patch } = body;
  const updated = await credentialControllerUpdate({ client, path: { id: found.id }, body: patch });
  if (updated.error) {
    const status = updated.response?.status;
    throw (
      refused(status) ??
      new SyncError(`Replacing the webhook token failed${status ? ` (HTTP ${status})` : ''}.`)
    );
  }
  log(
    `Replaced the token of "${PEPA_GATE_CREDENTIAL_NAME}" (${found.id}) with GATE_WEBHOOK_SECRET.`,
  );
  return { action: 'rotated', id: found.id };
}
