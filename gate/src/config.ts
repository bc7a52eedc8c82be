/**
 * The gate's settings, from the Worker's variables and secrets (wrangler.jsonc `vars`,
 * `wrangler secret put`, or `.dev.vars` locally). Limits have safe defaults; secrets have none:
 * without them the gate refuses calls (fails closed) and `npm run doctor` names what is missing.
 */
import type { Court } from './court';
import { DEFAULT_LIMITS, type CourtLimits } from './court-state';

export interface GateEnv {
  ASSETS?: Fetcher;
  COURT: DurableObjectNamespace<Court>;
  /** The edge limiter in front of /api/* (wrangler.jsonc `ratelimits`), per visitor. */
  API_LIMITER?: RateLimit;
  /** Where refusals decided in the Worker are counted (Workers Analytics Engine). */
  GATE_REFUSALS?: AnalyticsEngineDataset;
  /** The provider's private key: only the gate holds it. */
  VAPI_PRIVATE_KEY?: string;
  VAPI_ASSISTANT_ID?: string;
  VAPI_API_URL?: string;
  TURNSTILE_SECRET_KEY?: string;
  /** Where tokens are verified (Cloudflare's siteverify; the demo's stand-in locally). */
  TURNSTILE_VERIFY_URL?: string;
  /** The token the provider's webhook credential sends with every server message. */
  GATE_WEBHOOK_SECRET?: string;
  /** The owner's token for the report. */
  GATE_ADMIN_TOKEN?: string;
  /** Salt for the hash that keys per-visitor limits (addresses are never kept). */
  GATE_VISITOR_SALT?: string;
  /**
   * The site's hosts, comma-separated, that a bot-check token may have been solved on. Unset,
   * the host the request came to (the page and the gate share an origin).
   */
  GATE_SITE_HOSTS?: string;
  GATE_MAX_CONCURRENT_CALLS?: string;
  GATE_DAILY_BUDGET_USD?: string;
  GATE_COST_PER_MINUTE_USD?: string;
  GATE_MAX_CALL_SECONDS?: string;
  GATE_VISITOR_CONCURRENT?: string;
  GATE_VISITOR_STARTS_PER_WINDOW?: string;
  GATE_VISITOR_WINDOW_SECONDS?: string;
  GATE_VISITOR_STARTS_PER_DAY?: string;
  GATE_VISITOR_DAILY_USD?: string;
  GATE_NETWORK_CONCURRENT?: string;
  GATE_NETWORK_STARTS_PER_WINDOW?: string;
  GATE_ASN_CONCURRENT?: string;
  /** Past this estimated wait, newcomers are told the court is full instead of given a ticket. */
  GATE_MAX_WAIT_MINUTES?: string;
}

export const TURNSTILE_SITEVERIFY = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

export class GateConfigError extends Error {}

function number(
  env: GateEnv,
  name: keyof GateEnv,
  fallback: number,
  { min, max, integer }: { min: number; max: number; integer: boolean },
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    throw new GateConfigError(
      `${String(name)} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max} (got "${String(raw)}")`,
    );
  }
  return value;
}

/** The court's limits from the environment; throws {@link GateConfigError} naming a bad one. */
export function limitsFrom(env: GateEnv): CourtLimits {
  return {
    ...DEFAULT_LIMITS,
    maxConcurrent: number(env, 'GATE_MAX_CONCURRENT_CALLS', DEFAULT_LIMITS.maxConcurrent, {
      min: 1,
      max: 10_000,
      integer: true,
    }),
    dailyBudgetUsd: number(env, 'GATE_DAILY_BUDGET_USD', DEFAULT_LIMITS.dailyBudgetUsd, {
      min: 0,
      max: 1_000_000,
      integer: false,
    }),
    costPerMinuteUsd: number(env, 'GATE_COST_PER_MINUTE_USD', DEFAULT_LIMITS.costPerMinuteUsd, {
      min: 0,
      max: 100,
      integer: false,
    }),
    maxCallSeconds: number(env, 'GATE_MAX_CALL_SECONDS', DEFAULT_LIMITS.maxCallSeconds, {
      min: 10,
      max: 43_200,
      integer: true,
    }),
    visitorConcurrent: number(env, 'GATE_VISITOR_CONCURRENT', DEFAULT_LIMITS.visitorConcurrent, {
      min: 1,
      max: 100,
      integer: true,
    }),
    visitorStartsPerWindow: number(
      env,
      'GATE_VISITOR_STARTS_PER_WINDOW',
      DEFAULT_LIMITS.visitorStartsPerWindow,
      { min: 1, max: 10_000, integer: true },
    ),
    visitorWindowSeconds: number(
      env,
      'GATE_VISITOR_WINDOW_SECONDS',
      DEFAULT_LIMITS.visitorWindowSeconds,
      { min: 1, max: 86_400, integer: true },
    ),
    visitorStartsPerDay: number(
      env,
      'GATE_VISITOR_STARTS_PER_DAY',
      DEFAULT_LIMITS.visitorStartsPerDay,
      { min: 1, max: 1_000_000, integer: true },
    ),
    visitorDailyUsd: number(env, 'GATE_VISITOR_DAILY_USD', DEFAULT_LIMITS.visitorDailyUsd, {
      min: 0,
      max: 1_000_000,
      integer: false,
    }),
    networkConcurrent: number(env, 'GATE_NETWORK_CONCURRENT', DEFAULT_LIMITS.networkConcurrent, {
      min: 1,
      max: 100_000,
      integer: true,
    }),
    networkStartsPerWindow: number(
      env,
      'GATE_NETWORK_STARTS_PER_WINDOW',
      DEFAULT_LIMITS.networkStartsPerWindow,
      { min: 1, max: 1_000_000, integer: true },
    ),
    asnConcurrent: number(env, 'GATE_ASN_CONCURRENT', DEFAULT_LIMITS.asnConcurrent, {
      min: 1,
      max: 1_000_000,
      integer: true,
    }),
    maxWaitMinutes: number(env, 'GATE_MAX_WAIT_MINUTES', DEFAULT_LIMITS.maxWaitMinutes, {
      min: 1,
      max: 1440,
      integer: true,
    }),
  };
}

/** The secrets a gate cannot admit anyone without, by name, that are missing. */
export function missingSecrets(env: GateEnv): string[] {
  const required: (keyof GateEnv)[] = [
    'VAPI_PRIVATE_KEY',
    'VAPI_ASSISTANT_ID',
    'TURNSTILE_SECRET_KEY',
    'GATE_WEBHOOK_SECRET',
    'GATE_VISITOR_SALT',
  ];
  return required.filter((name) => !env[name]);
}

/** The hosts a bot-check token may have been solved on (see {@link GateEnv.GATE_SITE_HOSTS}). */
export function siteHosts(env: GateEnv, request: Request): string[] {
  const listed = (env.GATE_SITE_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  return listed.length > 0 ? listed : [new URL(request.url).hostname.toLowerCase()];
}
