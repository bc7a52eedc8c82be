/**
 * `npm run doctor`: whether a live build is ready to go out, as a table. Each failing line says
 * what to do. It only reads, except with `--call`, which creates one (billed) web call. A build
 * without a public key goes through the court gate, whose lines are in doctor-gate.ts; a build
 * with the public key in the page is possible and flagged as unprotected.
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
import { checkRoomUrl, roomUrlOf } from '../src/lib/call';
import { gateChecks, isStaticSetup, protectionRow } from './doctor-gate';
import type { CheckStatus, DoctorRow } from './doctor-row';
import { pepaAssistant, withCourtGate } from './pepa';
import { wantedRestrictions } from './restrict-key';
import { diffAssistant, gateOrigin, providerUrl } from './sync';

export type { CheckStatus, DoctorRow };

export interface DoctorOptions {
  env: Record<string, string | undefined>;
  /** The build to inspect (default `dist`). */
  dist?: string;
  /** Create a web call with the public key (billed by the provider). */
  call?: boolean;
  /** The Worker's configuration, for the gate's limits (default `gate/wrangler.jsonc`). */
  wranglerConfig?: string;
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

/** The built site's Content-Security-Policy from its `_headers`, or why it could not be read. */
async function builtPolicy(dist: string): Promise<Map<string, string[]> | string> {
  const file = join(dist, '_headers');
  if (!existsSync(file)) return `no build at ${file}`;
  const text = await readFile(file, 'utf8');
  const policy = /Content-Security-Policy:\s*(.+)/.exec(text)?.[1] ?? '';
  const directives = new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...sources]) => [name, sources] as const),
  );
  return directives.has('connect-src') ? directives : `${file} has no connect-src`;
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
          fix: 'Set the variables named (docs/configuration.md).',
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

  // Whether visitors reach the provider through the gate or with a key anyone can copy.
  add(protectionRow(env));

  // The provider, with the private key.
  const baseUrl = providerUrl(env);
  const privateKey = env.VAPI_PRIVATE_KEY?.trim();
  // The gate holds the id as VAPI_ASSISTANT_ID; a static build puts it in the page.
  const assistantId = env.VAPI_ASSISTANT_ID?.trim() || env.VITE_VAPI_ASSISTANT_ID?.trim();
  const staticSetup = isStaticSetup(env);
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

  const idName = staticSetup ? 'VITE_VAPI_ASSISTANT_ID' : 'VAPI_ASSISTANT_ID';
  const findFix = `Run \`npm run assistant:sync\` and set ${idName} to the id it prints.`;
  let pepaId: string | undefined;
  let remotePepa: Record<string, unknown> | undefined;
  let matches: DoctorRow;
  if (!keyAccepted) {
    needsKey('Pepa on the provider');
    matches = {
      check: 'Pepa matches the repository',
      status: 'fail',
      detail: 'not checked: the provider refused or lacks the private key',
      fix: 'Set VAPI_PRIVATE_KEY to your private API key (dashboard > API keys).',
    };
  } else if (!assistantId) {
    add({
      check: 'Pepa on the provider',
      status: 'fail',
      detail: `${idName} is not set`,
      fix: findFix,
    });
    matches = {
      check: 'Pepa matches the repository',
      status: 'fail',
      detail: 'not checked: no assistant id',
      fix: SYNC,
    };
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
        fix: findFix,
      });
      matches = {
        check: 'Pepa matches the repository',
        status: 'fail',
        detail: 'not checked: assistant not found',
        fix: SYNC,
      };
    } else {
      pepaId = assistantId;
      remotePepa = found.data as Record<string, unknown>;
      add({
        check: 'Pepa on the provider',
        status: 'ok',
        detail: `${found.data.name ?? ''} (${assistantId})`.trim(),
      });
      matches = { check: 'Pepa matches the repository', status: 'ok', detail: 'no changes' };
    }
  }

  // The gate's lines; they also find the webhook credential Pepa's definition refers to.
  const gate = await gateChecks({
    env,
    ...(options.wranglerConfig ? { wranglerConfig: options.wranglerConfig } : {}),
    ...(keyAccepted ? { client: privateClient } : {}),
    ...(remotePepa ? { assistant: remotePepa } : {}),
    ...(config ? { pageMaxCallSeconds: config.voice.maxCallSeconds } : {}),
  });
  if (remotePepa) {
    // As `assistant:sync` defines her: with GATE_URL, her server messages go to the gate.
    const target = env.GATE_URL?.trim() ? gateOrigin(env.GATE_URL) : undefined;
    const wanted =
      target && 'origin' in target
        ? withCourtGate(pepaAssistant(env), {
            url: target.origin,
            credentialId: gate.credentialId ?? '(no webhook credential)',
          })
        : pepaAssistant(env);
    const changes = diffAssistant(remotePepa, wanted);
    const fields = [...new Set(changes.map((change) => change.path.split('.')[0]))];
    if (changes.length > 0) {
      matches = {
        check: 'Pepa matches the repository',
        status: 'fail',
        detail: `${fields.length} field(s) differ: ${fields.join(', ')}`,
        fix: SYNC,
      };
    }
  }
  add(matches);

  if (!staticSetup) {
    add({
      check: 'Public key restricted',
      status: 'skip',
      detail: 'the page holds no public key (court gate)',
    });
  } else if (!keyAccepted) {
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
  for (const row of gate.rows) add(row);

  // The build: its CSP must let the page reach the API it was configured with (a static build),
  // or the gate on its own origin, Daily's rooms and the bot check (a gate build).
  const dist = options.dist ?? 'dist';
  const policy = await builtPolicy(dist);
  const connectSrc = typeof policy === 'string' ? [] : (policy.get('connect-src') ?? []);
  const allows = (host: string) =>
    typeof policy !== 'string' &&
    [...policy.values()].some((sources) => sources.some((source) => source.includes(host)));
  const apiOrigin = config ? new URL(config.voice.apiUrl).origin : undefined;
  const hasDaily = connectSrc.some((source) => source.endsWith('.daily.co'));
  const cspCheck = staticSetup ? 'CSP allows the API' : 'CSP allows the gate';
  if (typeof policy === 'string') {
    add({
      check: cspCheck,
      status: 'fail',
      detail: policy,
      fix: 'Run `npm run build` with these variables.',
    });
  } else if (!staticSetup) {
    const lacking = [
      ...(connectSrc.includes("'self'") ? [] : ["connect-src 'self'"]),
      ...(hasDaily ? [] : ['Daily']),
      ...(allows('challenges.cloudflare.com') ? [] : ['the bot check (challenges.cloudflare.com)']),
    ];
    add(
      lacking.length === 0
        ? {
            check: cspCheck,
            status: 'ok',
            detail: `the gate, Daily and the bot check in ${dist}/_headers`,
          }
        : {
            check: cspCheck,
            status: 'fail',
            detail: `${dist}/_headers lacks ${lacking.join(', ')} (a demo build, or a build with VITE_VAPI_PUBLIC_KEY)`,
            fix: 'Run `npm run build` with these variables (or `npm run deploy`, which builds).',
          },
    );
  } else if (!apiOrigin || !connectSrc.includes(apiOrigin)) {
    add({
      check: cspCheck,
      status: 'fail',
      detail: `${dist}/_headers connect-src lacks ${apiOrigin ?? 'the configured API'} (a demo build, or built with another VITE_VAPI_API_URL)`,
      fix: 'Run `npm run build` with these variables, then deploy dist/.',
    });
  } else if (!hasDaily) {
    add({
      check: cspCheck,
      status: 'fail',
      detail: `${dist} is a demo build: its CSP does not allow Daily`,
      fix: 'Run `npm run build` (not build:demo), then deploy dist/.',
    });
  } else {
    add({ check: cspCheck, status: 'ok', detail: `${apiOrigin} in ${dist}/_headers` });
  }

  // A web call, only when asked: the provider bills it.
  if (!staticSetup) {
    add({
      check: 'Web call',
      status: 'skip',
      detail: 'the gate creates calls only after the bot check: try the deployed site',
    });
  } else if (!options.call) {
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
  const label = { ok: 'ok', fail: 'FAIL', warn: 'WARN', skip: 'skip' } as const;
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
  const warned = rows.filter((row) => row.status === 'warn').length;
  lines.push(
    '',
    failed > 0
      ? `Not ready: ${failed} check(s) failed.`
      : warned > 0
        ? `Ready for a live build, with ${warned} warning(s): read the WARN lines.`
        : 'Ready for a live build.',
  );
  return lines.join('\n');
}
