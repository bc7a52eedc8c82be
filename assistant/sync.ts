import { createClient, createConfig } from '../generated/client';
import {
  assistantControllerCreate,
  assistantControllerFindAll,
  assistantControllerFindOne,
  assistantControllerUpdate,
} from '../generated/sdk.gen';
import type { AssistantDefinition } from './pepa';

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

export interface SyncOptions {
  privateKey: string | undefined;
  baseUrl: string;
  assistantId?: string | undefined;
  dryRun?: boolean;
  assistant: AssistantDefinition;
  log?: (line: string) => void;
  fetch?: typeof fetch;
}

export interface SyncResult {
  action: 'created' | 'updated' | 'unchanged' | 'would-create' | 'would-update';
  id?: string;
  changes: FieldChange[];
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
    remote = (all.data ?? []).find((candidate) => candidate.name === options.assistant.name) as
      typeof remote | undefined;
    if (remote?.id)
      log(`Found "${options.assistant.name}" by name: set VITE_VAPI_ASSISTANT_ID=${remote.id}`);
  }

  if (!remote) {
    if (options.dryRun) {
      log(`Would create "${options.assistant.name}" (dry run, nothing sent).`);
      return { action: 'would-create', changes: diffAssistant({}, options.assistant) };
    }
    const created = await assistantControllerCreate({ client, body: options.assistant });
    if (created.error || !created.data)
      return fail('Creating the assistant', created.response?.status);
    log(`Created "${options.assistant.name}": set VITE_VAPI_ASSISTANT_ID=${created.data.id}`);
    return { action: 'created', id: created.data.id, changes: [] };
  }

  const changes = diffAssistant(remote, options.assistant);
  const id = String(remote.id);
  if (changes.length === 0) {
    log(`"${options.assistant.name}" (${id}) matches the repository: no changes.`);
    return { action: 'unchanged', id, changes };
  }
  log(`"${options.assistant.name}" (${id}) differs in ${changes.length} field(s):`);
  for (const line of formatDiff(changes)) log(line);
  if (options.dryRun) {
    log('Dry run: nothing sent.');
    return { action: 'would-update', id, changes };
  }
  const patch = Object.fromEntries(
    [...new Set(changes.map((change) => change.path.split('.')[0] ?? change.path))].map((key) => [
      key,
      options.assistant[key as keyof AssistantDefinition],
    ]),
  );
  const updated = await assistantControllerUpdate({ client, path: { id }, body: patch });
  if (updated.error) return fail('Updating the assistant', updated.response?.status);
  log('Applied with PATCH.');
  return { action: 'updated', id, changes };
}
