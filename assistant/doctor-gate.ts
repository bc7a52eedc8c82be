/**
 * `npm run doctor`'s lines about the court gate: how the page reaches the provider (through the
 * gate, or with a public key anyone can copy), the gate's secrets and limits, the page's bot-check
 * key, and whether Pepa's server messages reach the gate with its webhook credential.
 * `npm run deploy` refuses to deploy while one of these fails.
 */
import type { Client } from '../generated/client';
import { credentialControllerFindAll } from '../generated/sdk.gen';
import type { DoctorRow } from './doctor-row';
import {
  effectiveGateVars,
  GATE_LIMIT_VARS,
  GATE_SECRETS,
  gateLimitsFrom,
  isTurnstileTestKey,
  MADE_UP_SECRETS,
  siteOriginOf,
  WRANGLER_CONFIG,
  wranglerVars,
  MODEL_KEY_SECRET,
  textEngineOf,
} from './gate-settings';
import { gateEventsUrl, PEPA_GATE_CREDENTIAL_NAME, PEPA_GATE_SERVER_MESSAGES } from './pepa';
import { gateOrigin, MIN_SECRET_LENGTH } from './sync';

type Env = Record<string, string | undefined>;
type ProviderClient = Client;

const SYNC_GATE =
  'Run `npm run assistant:sync` with GATE_URL and GATE_WEBHOOK_SECRET set (docs/going-live.md).';
const PUT =
  'Export each in this shell and put it on the Worker: `npx wrangler secret put NAME -c gate/wrangler.jsonc` (never as a VITE_ variable).';

/** A build with the public key in the page talks to the provider directly: no gate at all. */
export function isStaticSetup(env: Env): boolean {
  return Boolean(env.VITE_VAPI_PUBLIC_KEY?.trim());
}

/** The line saying whether visitors' calls go through the gate. */
export function protectionRow(env: Env): DoctorRow {
  return isStaticSetup(env)
    ? {
        check: 'Court gate',
        status: 'warn',
        gate: true,
        detail:
          'UNPROTECTED: VITE_VAPI_PUBLIC_KEY puts the public key in the page, and anyone can make billed calls with it from a script (no line, no rate limit, no spend cap)',
        fix: 'Move to the gate: unset VITE_VAPI_PUBLIC_KEY, set VITE_TURNSTILE_SITE_KEY and the gate secrets, run `npm run assistant:sync` with GATE_URL, then `npm run deploy` (docs/going-live.md).',
      }
    : {
        check: 'Court gate',
        status: 'ok',
        gate: true,
        detail: 'the page holds no provider key; calls go through the gate',
      };
}

function secretsRow(env: Env): DoctorRow {
  const missing = GATE_SECRETS.filter((name) => !env[name]?.trim());
  const short = MADE_UP_SECRETS.filter((name) => {
    const value = env[name]?.trim();
    return value && value.length < MIN_SECRET_LENGTH;
  });
  const turnstile = env.TURNSTILE_SECRET_KEY?.trim();
  const secretValues = new Set(GATE_SECRETS.map((name) => env[name]?.trim()).filter(Boolean));
  const exposed = Object.keys(env).filter(
    (name) => name.startsWith('VITE_') && secretValues.has(env[name]?.trim()),
  );
  const problems = [
    ...(missing.length ? [`${missing.join(', ')} not set`] : []),
    ...(short.length ? [`${short.join(', ')} shorter than ${MIN_SECRET_LENGTH} characters`] : []),
    ...(turnstile && isTurnstileTestKey(turnstile)
      ? ["TURNSTILE_SECRET_KEY is one of Cloudflare's test keys"]
      : []),
    ...(exposed.length ? [`${exposed.join(', ')} would put a gate secret in the page`] : []),
  ];
  if (problems.length === 0) {
    return { check: 'Gate secrets', status: 'ok', gate: true, detail: GATE_SECRETS.join(', ') };
  }
  return {
    check: 'Gate secrets',
    status: 'fail',
    gate: true,
    detail: problems.join('; '),
    fix: short.length
      ? `${PUT} Make them with \`openssl rand -hex 32\`.`
      : exposed.length
        ? 'Unset those VITE_ variables: gate secrets live only on the Worker.'
        : PUT,
  };
}

async function limitsRow(
  env: Env,
  wranglerConfig: string,
): Promise<{ row: DoctorRow; maxCallSeconds?: number }> {
  const read = await wranglerVars(wranglerConfig);
  if ('problem' in read) {
    return {
      row: {
        check: 'Gate limits',
        status: 'fail',
        gate: true,
        detail: read.problem,
        fix: `Restore ${WRANGLER_CONFIG}.`,
      },
    };
  }
  const { values, from } = effectiveGateVars(env, read.vars);
  const unset = GATE_LIMIT_VARS.filter((name) => !values[name]);
  const fail = (detail: string, fix: string) => ({
    row: { check: 'Gate limits', status: 'fail' as const, gate: true, detail, fix },
  });
  if (unset.length > 0) {
    return fail(
      `${unset.join(', ')} not set`,
      `Set them in the "vars" of ${wranglerConfig} (or export them for \`npm run deploy\`).`,
    );
  }
  let limits;
  try {
    limits = gateLimitsFrom(values);
  } catch (error) {
    return fail(
      error instanceof Error ? error.message : String(error),
      `Fix it in ${wranglerConfig} "vars" or in this shell.`,
    );
  }
  if (limits.dailyBudgetUsd <= 0) {
    return fail(
      'GATE_DAILY_BUDGET_USD is 0: the court would never open',
      'Set the most you will spend a day.',
    );
  }
  if (limits.costPerMinuteUsd <= 0) {
    return fail(
      'GATE_COST_PER_MINUTE_USD is 0: no call would count against the budget',
      "Set the provider's cost of a call minute (its dashboard shows the rate).",
    );
  }
  const worstCall = (limits.costPerMinuteUsd * limits.maxCallSeconds) / 60;
  const sources = [...new Set(GATE_LIMIT_VARS.map((name) => from[name]))]
    .map((source) => (source === 'environment' ? 'this shell' : wranglerConfig))
    .join(' and ');
  return {
    maxCallSeconds: limits.maxCallSeconds,
    row: {
      check: 'Gate limits',
      status: 'ok',
      gate: true,
      detail: `${limits.maxConcurrent} calls at once, ${limits.dailyBudgetUsd} USD a day at ${limits.costPerMinuteUsd} USD a minute, ${limits.maxCallSeconds} s a call (at least ${Math.floor(limits.dailyBudgetUsd / worstCall)} calls a day), from ${sources}`,
    },
  };
}

/** A reply as text usually is: its prompt (Pepa's and a few lines), its completion, in tokens. */
const TYPICAL_REPLY = { prompt: 1500, completion: 100 };

/**
 * Which engine writes Pepa's text replies, checked by the gate's own parser: for the model
 * engine, its endpoint, its prices (never nothing) and its key, exported here to be put on the
 * Worker. A bad one fails: the gate would refuse text rather than serve it unmetered.
 */
async function textEngineRow(env: Env, wranglerConfig: string): Promise<DoctorRow> {
  const check = 'Text engine';
  const read = await wranglerVars(wranglerConfig);
  if ('problem' in read) {
    return {
      check,
      status: 'fail',
      gate: true,
      detail: read.problem,
      fix: `Restore ${WRANGLER_CONFIG}.`,
    };
  }
  const { values } = effectiveGateVars(env, read.vars);
  let engine;
  try {
    engine = textEngineOf({ ...values, [MODEL_KEY_SECRET]: env[MODEL_KEY_SECRET] });
  } catch (error) {
    return {
      check,
      status: 'fail',
      gate: true,
      detail: `${error instanceof Error ? error.message : String(error)}: the gate refuses text until it is fixed`,
      fix: `Set GATE_TEXT_ENGINE (model or provider-chat) and, for model, GATE_MODEL_API_URL and its prices in ${wranglerConfig} "vars" (or this shell), and export ${MODEL_KEY_SECRET} here and put it on the Worker: \`npx wrangler secret put ${MODEL_KEY_SECRET} -c gate/wrangler.jsonc\`.`,
    };
  }
  if (engine.kind === 'provider-chat') {
    return {
      check,
      status: 'ok',
      gate: true,
      detail:
        "the provider's chat: each reply costs its per-message fee besides the model (GATE_TEXT_ENGINE=model writes them at the model's own price)",
    };
  }
  const { input, cachedInput, output } = engine.prices;
  const typical = (TYPICAL_REPLY.prompt * input + TYPICAL_REPLY.completion * output) / 1e6;
  return {
    check,
    status: 'ok',
    gate: true,
    detail: `the model at ${engine.apiUrl}, USD ${input} / ${cachedInput} / ${output} per million tokens (prompt / cached / completion): a reply of ${TYPICAL_REPLY.prompt} prompt and ${TYPICAL_REPLY.completion} completion tokens costs about USD ${typical.toFixed(6)}; ${MODEL_KEY_SECRET} set here (put it on the Worker too)`,
  };
}

function siteKeyRow(env: Env): DoctorRow {
  const key = env.VITE_TURNSTILE_SITE_KEY?.trim();
  if (!key) {
    return {
      check: 'Bot check site key',
      status: 'fail',
      gate: true,
      detail: 'VITE_TURNSTILE_SITE_KEY is not set',
      fix: 'Create an invisible Turnstile widget for the site in the Cloudflare dashboard and set its site key (its secret is TURNSTILE_SECRET_KEY).',
    };
  }
  if (isTurnstileTestKey(key)) {
    return {
      check: 'Bot check site key',
      status: 'fail',
      gate: true,
      detail: "VITE_TURNSTILE_SITE_KEY is one of Cloudflare's test keys",
      fix: "Use the site key of the site's own Turnstile widget.",
    };
  }
  return { check: 'Bot check site key', status: 'ok', gate: true, detail: key };
}

function gateUrlRow(env: Env): { row: DoctorRow; origin?: string } {
  const raw = env.GATE_URL?.trim();
  if (!raw) {
    return {
      row: {
        check: 'Gate URL',
        status: 'fail',
        gate: true,
        detail: 'GATE_URL is not set',
        fix: "Set GATE_URL to the site's public origin, where the Worker answers /api/.",
      },
    };
  }
  const parsed = gateOrigin(raw);
  if ('problem' in parsed) {
    return {
      row: {
        check: 'Gate URL',
        status: 'fail',
        gate: true,
        detail: parsed.problem,
        fix: "Set GATE_URL to the site's public origin.",
      },
    };
  }
  const site = env.VITE_SITE_URL?.trim();
  const siteOrigin = site ? URL.parse(site)?.origin : undefined;
  if (siteOrigin && siteOrigin !== parsed.origin) {
    return {
      origin: parsed.origin,
      row: {
        check: 'Gate URL',
        status: 'warn',
        gate: true,
        detail: `${parsed.origin} is not the site's origin ${siteOrigin}`,
        fix: 'The gate serves the site: use the same origin for both unless the Worker answers on both.',
      },
    };
  }
  return {
    origin: parsed.origin,
    row: { check: 'Gate URL', status: 'ok', gate: true, detail: parsed.origin },
  };
}

/** The origin every card names: set, an origin, and the one the gate answers on. */
async function siteOriginRow(env: Env, wranglerConfig: string): Promise<DoctorRow> {
  const read = await wranglerVars(wranglerConfig);
  const values = 'problem' in read ? env : effectiveGateVars(env, read.vars).values;
  const check = 'Site origin';
  let origin: string;
  try {
    origin = siteOriginOf(values);
  } catch (error) {
    return {
      check,
      status: 'fail',
      gate: true,
      detail: `${error instanceof Error ? error.message : String(error)}: no quote card can be made`,
      fix: `Export GATE_SITE_ORIGIN, the site's public origin that cards print and link to (e.g. https://pepa.example), for \`npm run deploy\`, or set it in ${wranglerConfig} "vars".`,
    };
  }
  const gate = env.GATE_URL?.trim() ? gateOrigin(env.GATE_URL) : undefined;
  if (gate && 'origin' in gate && gate.origin !== origin) {
    return {
      check,
      status: 'warn',
      gate: true,
      detail: `cards name ${origin}, but the gate is at ${gate.origin}`,
      fix: 'Cards link to their pages on GATE_SITE_ORIGIN: use the origin the Worker answers on.',
    };
  }
  return { check, status: 'ok', gate: true, detail: `${origin}, printed on every card` };
}

export interface GateCheckContext {
  env: Env;
  wranglerConfig?: string;
  /** The provider, with the private key; `undefined` when the key is missing or refused. */
  client?: ProviderClient;
  /** Pepa as the provider holds her, when found. */
  assistant?: Record<string, unknown>;
  /** The call limit the page shows (VITE_PEPA_MAX_CALL_SECONDS), when the site config is valid. */
  pageMaxCallSeconds?: number;
}

export interface GateChecks {
  rows: DoctorRow[];
  /** The webhook credential's id, when found. */
  credentialId?: string;
  gateOrigin?: string;
}

/** The gate's lines after {@link protectionRow} (none for a static build, which has no gate). */
export async function gateChecks(context: GateCheckContext): Promise<GateChecks> {
  const { env, client, assistant } = context;
  const rows: DoctorRow[] = [];
  if (isStaticSetup(env)) return { rows };

  rows.push(secretsRow(env));
  const limits = await limitsRow(env, context.wranglerConfig ?? WRANGLER_CONFIG);
  rows.push(limits.row, await textEngineRow(env, context.wranglerConfig ?? WRANGLER_CONFIG));
  rows.push(siteKeyRow(env));
  const url = gateUrlRow(env);
  rows.push(url.row, await siteOriginRow(env, context.wranglerConfig ?? WRANGLER_CONFIG));

  const notChecked = (check: string, why: string, fix: string): DoctorRow => ({
    check,
    status: 'fail',
    gate: true,
    detail: `not checked: ${why}`,
    fix,
  });
  const KEY_FIX = 'Set VAPI_PRIVATE_KEY to your private API key (dashboard > API keys).';

  let credentialId: string | undefined;
  if (!client) {
    rows.push(
      notChecked('Webhook credential', 'the provider refused or lacks the private key', KEY_FIX),
    );
  } else {
    const all = await credentialControllerFindAll({ client }).catch(() => undefined);
    const found = all?.data?.find(
      (candidate) =>
        candidate.name === PEPA_GATE_CREDENTIAL_NAME && candidate.provider === 'webhook',
    );
    credentialId = found?.id;
    rows.push(
      found
        ? {
            check: 'Webhook credential',
            status: 'ok',
            gate: true,
            detail: `${PEPA_GATE_CREDENTIAL_NAME} (${found.id})`,
          }
        : {
            check: 'Webhook credential',
            status: 'fail',
            gate: true,
            detail: all?.data
              ? `no webhook credential named ${PEPA_GATE_CREDENTIAL_NAME}`
              : `listing credentials answered ${all?.response ? `HTTP ${all.response.status}` : 'nothing'}`,
            fix: SYNC_GATE,
          },
    );
  }

  if (!assistant) {
    rows.push(
      notChecked('Pepa reports to the gate', 'Pepa was not found on the provider', SYNC_GATE),
    );
    rows.push(notChecked('Call limit agrees', 'Pepa was not found on the provider', SYNC_GATE));
    return {
      rows,
      ...(credentialId ? { credentialId } : {}),
      ...(url.origin ? { gateOrigin: url.origin } : {}),
    };
  }

  const server = (assistant.server ?? {}) as { url?: unknown; credentialId?: unknown };
  const messages = Array.isArray(assistant.serverMessages) ? assistant.serverMessages : [];
  const wantedUrl = url.origin ? gateEventsUrl(url.origin) : undefined;
  const lacking = PEPA_GATE_SERVER_MESSAGES.filter((type) => !messages.includes(type));
  const serverProblems = [
    ...(wantedUrl && server.url !== wantedUrl
      ? [`server URL is ${server.url ? String(server.url) : 'unset'}, not ${wantedUrl}`]
      : []),
    ...(server.credentialId !== credentialId || !credentialId
      ? [
          `server credential is ${server.credentialId ? String(server.credentialId) : 'unset'}, not ${PEPA_GATE_CREDENTIAL_NAME}${credentialId ? ` (${credentialId})` : ''}`,
        ]
      : []),
    ...(lacking.length ? [`serverMessages lack ${lacking.join(', ')}`] : []),
  ];
  rows.push(
    !wantedUrl
      ? notChecked('Pepa reports to the gate', 'GATE_URL is not set', SYNC_GATE)
      : serverProblems.length === 0
        ? {
            check: 'Pepa reports to the gate',
            status: 'ok',
            gate: true,
            detail: `${wantedUrl} with ${PEPA_GATE_CREDENTIAL_NAME}: ${PEPA_GATE_SERVER_MESSAGES.join(', ')}`,
          }
        : {
            check: 'Pepa reports to the gate',
            status: 'fail',
            gate: true,
            detail: serverProblems.join('; '),
            fix: SYNC_GATE,
          },
  );

  const pepaSeconds = assistant.maxDurationSeconds;
  const gateSeconds = limits.maxCallSeconds;
  const pageSeconds = context.pageMaxCallSeconds;
  const agree =
    gateSeconds !== undefined &&
    pepaSeconds === gateSeconds &&
    (pageSeconds === undefined || pageSeconds === gateSeconds);
  rows.push(
    agree
      ? { check: 'Call limit agrees', status: 'ok', gate: true, detail: `${gateSeconds} s a call` }
      : {
          check: 'Call limit agrees',
          status: 'fail',
          gate: true,
          detail: `Pepa's maxDurationSeconds ${String(pepaSeconds ?? 'unset')}, the gate's GATE_MAX_CALL_SECONDS ${String(gateSeconds ?? 'invalid')}${pageSeconds === undefined ? '' : `, the page's VITE_PEPA_MAX_CALL_SECONDS ${pageSeconds}`}`,
          fix: 'Set VITE_PEPA_MAX_CALL_SECONDS and GATE_MAX_CALL_SECONDS to the same number, then run `npm run assistant:sync` and `npm run deploy`.',
        },
  );
  return {
    rows,
    ...(credentialId ? { credentialId } : {}),
    ...(url.origin ? { gateOrigin: url.origin } : {}),
  };
}
