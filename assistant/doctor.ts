/**
 * `npm run doctor`: whether a live build is ready to go out, as a table. Each failing line says
 * what to do. It only reads, except with `--call`, which creates one (billed) web call.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient, createConfig } from '../generated/client';
import {
  assistantControllerFindOne,
  callControllerCreateWebCall,
  tokenControllerFindAll,
} from '../generated/sdk.gen';
import {
  DEFAULTS,
  parseSiteConfig,
  type SiteConfig,
  type SiteEnv,
} from '../src/config/site-config';
import { checkRoomUrl, roomUrlOf } from '../src/lib/call/room-url';
import { pepaAssistant } from './pepa';
import { wantedRestrictions } from './restrict-key';
import { diffAssistant, providerUrl } from './sync';

export type CheckStatus = 'ok' | 'fail' | 'skip';

export interface DoctorRow {
  check: string;
  status: CheckStatus;
  /** What was found. */
  detail: string;
  /** What to do, when the check fails. */
  fix?: string;
}

export interface DoctorOptions {
  env: Record<string, string | undefined>;
  /** The build to inspect (default `dist`). */
  dist?: string;
  /** Create a web call with the public key (billed by the provider). */
  call?: boolean;
  fetch?: typeof fetch;
}

const SYNC = 'Run `npm run assistant:sync` (add `-- --dry-run` to see the diff first).';

function siteConfigOf(env: SiteEnv): { config?: SiteConfig; problems: readonly string[] } {
  try {
    return { config: parseSiteConfig(env), problems: [] };
  } catch (error) {
    const problems = (error as { problems?: readonly string[] }).problems;
    return { problems: problems ?? [error instanceof Error ? error.message : String(error)] };
  }
}

function statusOf(response: Response | undefined) {
  return response ? `HTTP ${response.status}` : 'no answer';
}

/** The `connect-src` of the built site's `_headers`, or why it could not be read. */
async function builtConnectSrc(dist: string): Promise<string[] | string> {
  const file = join(dist, '_headers');
  if (!existsSync(file)) return `no build at ${file}`;
  const text = await readFile(file, 'utf8');
  const policy = /Content-Security-Policy:\s*(.+)/.exec(text)?.[1] ?? '';
  const directive = policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === 'connect-src');
  return directive ? directive.slice(1) : `${file} has no connect-src`;
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorRow[]> {
  const { env } = options;
  const rows: DoctorRow[] = [];
  const add = (row: DoctorRow) => rows.push(row);

  // The site's own configuration, read as a live build reads it.
  const { config, problems } = siteConfigOf({ ...env, VITE_PEPA_DEMO: undefined });
  add(
    config
      ? { check: 'Site configuration', status: 'ok', detail: `live, API ${config.voice.apiUrl}` }
      : {
          check: 'Site configuration',
          status: 'fail',
          detail: problems.join('; '),
          fix: 'Set the variables named (README, Configuration).',
        },
  );
  const siteUrl = env.VITE_SITE_URL?.trim() || DEFAULTS.siteUrl;
  add(
    siteUrl.replace(/\/+$/, '') === DEFAULTS.siteUrl
      ? {
          check: 'Site URL',
          status: 'fail',
          detail: `still the placeholder ${DEFAULTS.siteUrl}`,
          fix: 'Set VITE_SITE_URL to the address the site is served from.',
        }
      : { check: 'Site URL', status: 'ok', detail: siteUrl },
  );
  const mint = env.VITE_TOKEN_MINT?.trim() || DEFAULTS.tokenMint;
  add(
    mint === DEFAULTS.tokenMint
      ? {
          check: 'Token mint',
          status: 'fail',
          detail: 'still the placeholder address',
          fix: "Set VITE_TOKEN_MINT to $PEPA's mint address.",
        }
      : { check: 'Token mint', status: 'ok', detail: mint },
  );

  // The provider, with the private key.
  const baseUrl = providerUrl(env);
  const privateKey = env.VAPI_PRIVATE_KEY?.trim();
  const assistantId = env.VITE_VAPI_ASSISTANT_ID?.trim();
  const publicKey = env.VITE_VAPI_PUBLIC_KEY?.trim();
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const privateClient = createClient(
    createConfig({ baseUrl, auth: () => privateKey, ...fetchOption }),
  );
  const needsKey = (check: string) =>
    add({
      check,
      status: 'fail',
      detail: 'not checked: the provider refused or lacks the private key',
      fix: 'Set VAPI_PRIVATE_KEY to your private API key (dashboard > API keys).',
    });

  let keyAccepted = false;
  if (!privateKey) {
    add({
      check: 'Private key',
      status: 'fail',
      detail: 'VAPI_PRIVATE_KEY is not set',
      fix: 'Set VAPI_PRIVATE_KEY to your private API key (dashboard > API keys); it is never bundled.',
    });
  } else {
    const probe = await tokenControllerFindAll({ client: privateClient }).catch(() => undefined);
    keyAccepted = Boolean(probe?.response?.ok);
    add(
      keyAccepted
        ? { check: 'Private key', status: 'ok', detail: `accepted by ${baseUrl}` }
        : {
            check: 'Private key',
            status: 'fail',
            detail: `${baseUrl} answered ${statusOf(probe?.response)}`,
            fix: 'Use the private key, not the public one, and check VAPI_API_URL.',
          },
    );
  }

  let pepaId: string | undefined;
  if (!keyAccepted) {
    needsKey('Pepa on the provider');
    needsKey('Pepa matches the repository');
  } else if (!assistantId) {
    add({
      check: 'Pepa on the provider',
      status: 'fail',
      detail: 'VITE_VAPI_ASSISTANT_ID is not set',
      fix: 'Run `npm run assistant:sync` and set VITE_VAPI_ASSISTANT_ID to the id it prints.',
    });
    add({
      check: 'Pepa matches the repository',
      status: 'fail',
      detail: 'not checked: no assistant id',
      fix: SYNC,
    });
  } else {
    const found = await assistantControllerFindOne({
      client: privateClient,
      path: { id: assistantId },
    });
    if (!found.data || found.error) {
      add({
        check: 'Pepa on the provider',
        status: 'fail',
        detail: `assistant ${assistantId}: ${statusOf(found.response)}`,
        fix: 'Run `npm run assistant:sync` and set VITE_VAPI_ASSISTANT_ID to the id it prints.',
      });
      add({
        check: 'Pepa matches the repository',
        status: 'fail',
        detail: 'not checked: assistant not found',
        fix: SYNC,
      });
    } else {
      pepaId = assistantId;
      add({
        check: 'Pepa on the provider',
        status: 'ok',
        detail: `${found.data.name ?? ''} (${assistantId})`.trim(),
      });
      const changes = diffAssistant(found.data, pepaAssistant(env));
      const fields = [...new Set(changes.map((change) => change.path.split('.')[0]))];
      add(
        changes.length === 0
          ? { check: 'Pepa matches the repository', status: 'ok', detail: 'no changes' }
          : {
              check: 'Pepa matches the repository',
              status: 'fail',
              detail: `${fields.length} field(s) differ: ${fields.join(', ')}`,
              fix: SYNC,
            },
      );
    }
  }

  if (!keyAccepted) {
    needsKey('Public key restricted');
  } else if (!publicKey || !pepaId || siteUrl.replace(/\/+$/, '') === DEFAULTS.siteUrl) {
    add({
      check: 'Public key restricted',
      status: 'fail',
      detail: 'not checked: needs VITE_VAPI_PUBLIC_KEY, the site URL and Pepa on the provider',
      fix: 'Fix the lines above, then run `npm run key:restrict`.',
    });
  } else {
    const tokens = await tokenControllerFindAll({ client: privateClient });
    const token = tokens.data?.find(
      (candidate) => candidate.value === publicKey || candidate.id === publicKey,
    );
    const wanted = wantedRestrictions(siteUrl, pepaId);
    const changes = token ? diffAssistant(token.restrictions ?? {}, wanted) : [];
    add(
      !token
        ? {
            check: 'Public key restricted',
            status: 'fail',
            detail: 'VITE_VAPI_PUBLIC_KEY is not a key of this account',
            fix: 'Copy the public key from the dashboard.',
          }
        : changes.length > 0
          ? {
              check: 'Public key restricted',
              status: 'fail',
              detail: `differs in ${changes.map((change) => change.path).join(', ')}`,
              fix: 'Run `npm run key:restrict`.',
            }
          : {
              check: 'Public key restricted',
              status: 'ok',
              detail: `${wanted.allowedOrigins[0]} and Pepa only, no transient assistants`,
            },
    );
  }

  // The build: its CSP must let the page reach the API it was configured with.
  const dist = options.dist ?? 'dist';
  const connectSrc = await builtConnectSrc(dist);
  const apiOrigin = config ? new URL(config.voice.apiUrl).origin : undefined;
  if (typeof connectSrc === 'string') {
    add({
      check: 'CSP allows the API',
      status: 'fail',
      detail: connectSrc,
      fix: 'Run `npm run build` with these variables.',
    });
  } else if (!apiOrigin || !connectSrc.includes(apiOrigin)) {
    add({
      check: 'CSP allows the API',
      status: 'fail',
      detail: `${dist}/_headers connect-src lacks ${apiOrigin ?? 'the configured API'} (a demo build, or built with another VITE_VAPI_API_URL)`,
      fix: 'Run `npm run build` with these variables, then deploy dist/.',
    });
  } else if (!connectSrc.some((source) => source.endsWith('.daily.co'))) {
    add({
      check: 'CSP allows the API',
      status: 'fail',
      detail: `${dist} is a demo build: its CSP does not allow Daily`,
      fix: 'Run `npm run build` (not build:demo), then deploy dist/.',
    });
  } else {
    add({ check: 'CSP allows the API', status: 'ok', detail: `${apiOrigin} in ${dist}/_headers` });
  }

  // A web call, only when asked: the provider bills it.
  if (!options.call) {
    add({
      check: 'Web call',
      status: 'skip',
      detail: 'run with `-- --call` to create one (billed by the provider)',
    });
  } else {
    const publicClient = createClient(
      createConfig({ baseUrl, auth: () => publicKey, ...fetchOption }),
    );
    const created = await callControllerCreateWebCall({
      client: publicClient,
      body: { assistantId: assistantId ?? '' },
    }).catch(() => undefined);
    const room = created?.data
      ? checkRoomUrl(roomUrlOf(created.data), config?.voice.roomHosts)
      : undefined;
    add(
      room?.ok
        ? {
            check: 'Web call',
            status: 'ok',
            detail: `created ${created?.data?.id ?? ''}, room ${room.url}`,
          }
        : {
            check: 'Web call',
            status: 'fail',
            detail: room
              ? `the room "${room.url}" is not one the page joins (${room.reason})`
              : `POST /call/web answered ${statusOf(created?.response)}`,
            fix: room
              ? 'Set VITE_VAPI_ROOM_HOSTS to the provider’s room hosts.'
              : 'Check the public key, its restrictions and the assistant id.',
          },
    );
  }
  return rows;
}

/** The table `npm run doctor` prints: one line a check, the fix after an arrow. */
export function formatDoctorTable(rows: readonly DoctorRow[]): string {
  const label = { ok: 'ok', fail: 'FAIL', skip: 'skip' } as const;
  const width = Math.max(...rows.map((row) => row.check.length), 'Check'.length);
  const lines = [
    `${'Check'.padEnd(width)}  Status  Detail`,
    `${'-'.repeat(width)}  ------  ------`,
  ];
  for (const row of rows) {
    const detail = row.fix ? `${row.detail} -> ${row.fix}` : row.detail;
    lines.push(`${row.check.padEnd(width)}  ${label[row.status].padEnd(6)}  ${detail}`);
  }
  const failed = rows.filter((row) => row.status === 'fail').length;
  lines.push(
    '',
    failed === 0 ? 'Ready for a live build.' : `Not ready: ${failed} check(s) failed.`,
  );
  return lines.join('\n');
}
