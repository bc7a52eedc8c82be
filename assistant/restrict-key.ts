import { createClient, createConfig } from '../generated/client';
import { tokenControllerFindAll, tokenControllerUpdate } from '../generated/sdk.gen';
import { diffAssistant, formatDiff, SyncError } from './sync';

export interface RestrictOptions {
  privateKey: string | undefined;
  publicKey: string | undefined;
  siteUrl: string | undefined;
  assistantId: string | undefined;
  baseUrl: string;
  dryRun?: boolean;
  log?: (line: string) => void;
  fetch?: typeof fetch;
}

/** The restrictions the public key must carry: the site's origin and Pepa only. */
export function wantedRestrictions(siteUrl: string, assistantId: string) {
  return {
    enabled: true,
    allowedOrigins: [new URL(siteUrl).origin],
    allowedAssistantIds: [assistantId],
    allowTransientAssistant: false,
  };
}

/** Restricts the public key through the provider's token API (`PATCH /token/{id}`). */
export async function restrictKey(
  options: RestrictOptions,
): Promise<'updated' | 'unchanged' | 'would-update'> {
  const log = options.log ?? console.log;
  const missing = (
    [
      ['VAPI_PRIVATE_KEY', options.privateKey],
      ['VITE_VAPI_PUBLIC_KEY', options.publicKey],
      ['VITE_SITE_URL', options.siteUrl],
      ['VITE_VAPI_ASSISTANT_ID', options.assistantId],
    ] as const
  ).filter(([, value]) => !value);
  if (missing.length > 0) throw new SyncError(`Set ${missing.map(([name]) => name).join(', ')}.`);
  const client = createClient(
    createConfig({
      baseUrl: options.baseUrl,
      auth: () => options.privateKey,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
  const tokens = await tokenControllerFindAll({ client });
  const status = tokens.response?.status;
  if (status === 401 || status === 403) {
    throw new SyncError(
      `The provider refused VAPI_PRIVATE_KEY (HTTP ${status}): use the private key, not the public one.`,
    );
  }
  if (tokens.error || !tokens.data)
    throw new SyncError(`Listing keys failed${status ? ` (HTTP ${status})` : ''}.`);
  const token = tokens.data.find(
    (candidate) => candidate.value === options.publicKey || candidate.id === options.publicKey,
  );
  if (!token)
    throw new SyncError(
      'VITE_VAPI_PUBLIC_KEY is not a key of this account: copy it from the dashboard.',
    );
  const wanted = wantedRestrictions(options.siteUrl as string, options.assistantId as string);
  const changes = diffAssistant(token.restrictions ?? {}, wanted, 'restrictions');
  if (changes.length === 0) {
    log(
      `Public key ${token.id} is already restricted to ${wanted.allowedOrigins[0]} and Pepa: no changes.`,
    );
    return 'unchanged';
  }
  log(`Public key ${token.id} differs in ${changes.length} field(s):`);
  for (const line of formatDiff(changes)) log(line);
  if (options.dryRun) {
    log('Dry run: nothing sent.');
    return 'would-update';
  }
  const updated = await tokenControllerUpdate({
    client,
    path: { id: token.id },
    body: { restrictions: { ...token.restrictions, ...wanted } },
  });
  if (updated.error)
    throw new SyncError(`Updating the key failed (HTTP ${updated.response?.status}).`);
  log('Applied with PATCH.');
  return 'updated';
}
