/**
 * The court gate's settings as the owner's shell and `gate/wrangler.jsonc` give them, read from
 * Node for `npm run doctor` and `npm run deploy`: which secrets are set, and the limits the
 * deployed Worker will run with.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Wrangler from 'wrangler';

/** Secrets the owner makes up, which must be long enough not to be guessed. */
export const MADE_UP_SECRETS = ['GATE_WEBHOOK_SECRET', 'GATE_VISITOR_SALT', 'GATE_ADMIN_TOKEN'];

/** The limits `npm run doctor` requires to be set, and `npm run deploy` passes on when exported. */
export const GATE_LIMIT_VARS = [
  'GATE_MAX_CONCURRENT_CALLS',
  'GATE_DAILY_BUDGET_USD',
  'GATE_COST_PER_MINUTE_USD',
  'GATE_MAX_CALL_SECONDS',
] as const;

/** Every variable of the gate that the shell may override at deploy time (`--var`). */
export const GATE_OVERRIDABLE_VARS = [
  ...GATE_LIMIT_VARS,
  'GATE_VISITOR_CONCURRENT',
  'GATE_VISITOR_STARTS_PER_WINDOW',
  'GATE_VISITOR_WINDOW_SECONDS',
  'GATE_VISITOR_STARTS_PER_DAY',
  'GATE_VISITOR_DAILY_USD',
  'GATE_NETWORK_CONCURRENT',
  'GATE_NETWORK_STARTS_PER_WINDOW',
  'GATE_ASN_CONCURRENT',
  'GATE_MAX_WAIT_MINUTES',
  'GATE_TEXT_SHARE',
  'GATE_PACE_RELEASES',
  'GATE_PACE_BURST_SHARES',
  'GATE_CHAT_MESSAGE_CHARS',
  'GATE_CHAT_TURNS_PER_CHAT',
  'GATE_CHAT_TURNS_PER_MINUTE',
  'GATE_CHAT_TURNS_PER_DAY',
  'GATE_CHAT_NETWORK_TURNS_PER_MINUTE',
  'GATE_CHAT_NETWORK_TURNS_PER_DAY',
  'GATE_CHAT_ASN_TURNS_PER_DAY',
  'GATE_CHAT_STARTS_PER_DAY',
  'GATE_CHAT_TURN_WORST_USD',
  'GATE_CHAT_VISITOR_DAILY_USD',
  'GATE_MAX_CONCURRENT_REPLIES',
  'GATE_CHAT_OPENINGS',
  'GATE_TEXT_ENGINE',
  'GATE_MODEL_API_URL',
  'GATE_MODEL_INPUT_USD_PER_MTOK',
  'GATE_MODEL_CACHED_INPUT_USD_PER_MTOK',
  'GATE_MODEL_OUTPUT_USD_PER_MTOK',
  'GATE_CARDS_PER_DAY',
  'GATE_CARDS_NETWORK_PER_DAY',
  'GATE_CARDS_PER_CONVERSATION',
  'GATE_CARD_BLOCKLIST',
  'GATE_SITE_HOSTS',
  'GATE_SITE_ORIGIN',
] as const;

export const WRANGLER_CONFIG = 'gate/wrangler.jsonc';

/**
 * Cloudflare Turnstile's published test keys (always pass, always fail, force a challenge…):
 * right for the demo and tests, never for a live site.
 */
export function isTurnstileTestKey(key: string): boolean {
  return /^[123]x0{10,}[A-F]{2}$/.test(key);
}

/** The `vars` of the Worker's configuration, read by wrangler's own reader, or why they could not be read. */
export async function wranglerVars(
  file: string = WRANGLER_CONFIG,
): Promise<{ vars: Record<string, string> } | { problem: string }> {
  if (!existsSync(file)) return { problem: `cannot read ${file}` };
  // Loaded when asked for: wrangler is large, and most of the go-live scripts never need it. By
  // Node's own require, not import(): the scripts' module runner is closed by the time a script
  // asks (wrangler is CommonJS).
  const { experimental_readRawConfig: readRawConfig } = createRequire(import.meta.url)(
    'wrangler',
  ) as typeof Wrangler;
  try {
    const { rawConfig } = readRawConfig({ config: file });
    const vars = Object.fromEntries(
      Object.entries(rawConfig.vars ?? {}).map(([name, value]) => [name, String(value)]),
    );
    return { vars };
  } catch (error) {
    return { problem: `${file} is not valid JSONC (${(error as Error).message})` };
  }
}

/** The gate's limits (the subset the go-live scripts read). */
export interface GateLimits {
  maxConcurrent: number;
  dailyBudgetUsd: number;
  costPerMinuteUsd: number;
  maxCallSeconds: number;
}

type LimitsFrom = (env: Record<string, string | undefined>) => GateLimits;

// Loaded by path when this module loads: the gate's module graph is typed against the Workers
// runtime, which these Node scripts are not, but `limitsFrom` itself is plain TypeScript. Reading
// the limits with the gate's own parser means the doctor and the gate cannot disagree. (Loaded
// up front: the scripts' module runner closes once their modules are imported.)
const GATE_CONFIG_MODULE = '../gate/src/floor/config.ts';
const gateConfig = (await import(/* @vite-ignore */ GATE_CONFIG_MODULE)) as {
  limitsFrom: LimitsFrom;
  textLimitsFrom: (env: Record<string, string | undefined>) => unknown;
  cardLimitsFrom: (env: Record<string, string | undefined>) => unknown;
  siteOriginFrom: (env: Record<string, string | undefined>) => string;
  textEngineFrom: (env: Record<string, string | undefined>) => TextEngineSetting;
  REQUIRED_SECRETS: readonly string[];
  MODEL_KEY_SECRET: string;
};

/** Which engine writes Pepa's text replies, as the gate reads it (gate/src/config.ts). */
export type TextEngineSetting =
  | { kind: 'provider-chat' }
  | {
      kind: 'model';
      apiUrl: string;
      apiKey: string;
      prices: { input: number; cachedInput: number; output: number };
    };

/** The model engine's key: a secret only that engine needs. */
export const MODEL_KEY_SECRET: string = gateConfig.MODEL_KEY_SECRET;

/**
 * Text's engine from the gate's variables and the shell's secrets, by the gate's own parser;
 * throws its message naming a bad setting.
 */
export function textEngineOf(env: Record<string, string | undefined>): TextEngineSetting {
  return gateConfig.textEngineFrom(env);
}

/**
 * The site's origin cards print and link to (`GATE_SITE_ORIGIN`), checked by the gate's own
 * parser; throws its message when it is unset or not an origin.
 */
export function siteOriginOf(env: Record<string, string | undefined>): string {
  return gateConfig.siteOriginFrom(env);
}

/**
 * What the gate cannot run without (gate/wrangler.jsonc `secrets.required`, as the gate itself
 * lists them); each is put with `wrangler secret put NAME`.
 */
export const GATE_SECRETS: readonly string[] = gateConfig.REQUIRED_SECRETS;

/**
 * The gate's limits from its variables; throws the gate's own message naming a bad one, text's
 * limits included (a bad one of those closes the gate's starts too), and the cards' (a bad one
 * of those closes card making).
 */
export function gateLimitsFrom(env: Record<string, string | undefined>): GateLimits {
  const limits = gateConfig.limitsFrom(env);
  gateConfig.textLimitsFrom(env);
  gateConfig.cardLimitsFrom(env);
  return limits;
}

/** The variables the deployed gate runs with: the shell's overrides over wrangler.jsonc `vars`. */
export function effectiveGateVars(
  env: Record<string, string | undefined>,
  vars: Record<string, string>,
): { values: Record<string, string>; from: Record<string, 'environment' | 'wrangler'> } {
  const values: Record<string, string> = { ...vars };
  const from: Record<string, 'environment' | 'wrangler'> = Object.fromEntries(
    Object.keys(vars).map((name) => [name, 'wrangler' as const]),
  );
  for (const name of GATE_OVERRIDABLE_VARS) {
    const value = env[name]?.trim();
    if (value) {
      values[name] = value;
      from[name] = 'environment';
    }
  }
  return { values, from };
}
