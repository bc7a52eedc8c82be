/**
 * The gate's settings, from the Worker's variables and secrets as gate/wrangler.jsonc declares
 * them (`vars`, `secrets.required`; `wrangler types` writes their type, the global `Env`, to
 * gate/worker-configuration.d.ts). Every limit's value lives in `vars` alone: the Worker has no
 * defaults of its own, and a missing or bad one, like a missing secret, makes it refuse starts
 * (fails closed) while `npm run doctor` names what is wrong.
 */
import { FIXED_LIMITS, type CourtLimits, type PaceClock } from './court-limits';

/**
 * The Worker's secrets: what `wrangler types` types as plain `string` (it types each of `vars`
 * by its literal value, and bindings by their kind).
 */
type SecretName = { [K in keyof Env]: string extends Env[K] ? K : never }[keyof Env];

/** What the gate cannot run without: gate/wrangler.jsonc `secrets.required`, every one of them. */
export const REQUIRED_SECRETS = [
  'VAPI_PRIVATE_KEY',
  'VAPI_ASSISTANT_ID',
  'TURNSTILE_SECRET_KEY',
  'GATE_WEBHOOK_SECRET',
  'GATE_VISITOR_SALT',
  'GATE_ADMIN_TOKEN',
] as const satisfies readonly SecretName[];

/** A secret declared in wrangler.jsonc but missing above fails the type check here. */
type Unlisted = Exclude<SecretName, (typeof REQUIRED_SECRETS)[number]>;
const _everySecretListed: [Unlisted] extends [never] ? true : Unlisted = true;

/** The variables the court's limits are read from. */
type TextName = { [K in keyof Env]: Env[K] extends string ? K : never }[keyof Env];
type LimitVar = Exclude<Extract<TextName, `GATE_${string}`>, SecretName>;
/** The variables that hold a number. */
type NumberVar = Exclude<
  LimitVar,
  | 'GATE_SITE_HOSTS'
  | 'GATE_CARD_BLOCKLIST'
  | 'GATE_SITE_ORIGIN'
  | 'GATE_TEXT_ENGINE'
  | 'GATE_MODEL_API_URL'
  | 'GATE_CHAT_OPENINGS'
  | 'GATE_PACE_CLOCK'
>;
/**
 * The model engine's key: a secret only that engine needs, so not one of wrangler.jsonc's
 * required secrets (a site on the provider's chat has none).
 */
export const MODEL_KEY_SECRET = 'MODEL_API_KEY';
/** What the settings are read from: the Worker's env, or the owner's shell (Node). */
export type Settings = Partial<
  Record<LimitVar | SecretName | typeof MODEL_KEY_SECRET, string | undefined>
>;

export class GateConfigError extends Error {}

function number(
  env: Settings,
  name: NumberVar,
  { min, max, integer }: { min: number; max: number; integer: boolean },
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') throw new GateConfigError(`${name} is not set`);
  const value = Number(raw);
  if (
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    throw new GateConfigError(
      `${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max} (got "${raw}")`,
    );
  }
  return value;
}

/** The court's limits from the environment; throws {@link GateConfigError} naming a bad one. */
export function limitsFrom(env: Settings): CourtLimits {
  return {
    ...FIXED_LIMITS,
    maxConcurrent: number(env, 'GATE_MAX_CONCURRENT_CALLS', {
      min: 1,
      max: 10_000,
      integer: true,
    }),
    dailyBudgetUsd: number(env, 'GATE_DAILY_BUDGET_USD', {
      min: 0,
      max: 1_000_000,
      integer: false,
    }),
    textShare: number(env, 'GATE_TEXT_SHARE', { min: 0, max: 1, integer: false }),
    paceReleases: number(env, 'GATE_PACE_RELEASES', { min: 1, max: 96, integer: true }),
    paceBurstShares: number(env, 'GATE_PACE_BURST_SHARES', { min: 0, max: 96, integer: false }),
    ...paceClockFrom(env),
    costPerMinuteUsd: number(env, 'GATE_COST_PER_MINUTE_USD', {
      min: 0,
      max: 100,
      integer: false,
    }),
    maxCallSeconds: number(env, 'GATE_MAX_CALL_SECONDS', {
      min: 10,
      max: 43_200,
      integer: true,
    }),
    visitorConcurrent: number(env, 'GATE_VISITOR_CONCURRENT', {
      min: 1,
      max: 100,
      integer: true,
    }),
    visitorStartsPerWindow: number(env, 'GATE_VISITOR_STARTS_PER_WINDOW', {
      min: 1,
      max: 10_000,
      integer: true,
    }),
    visitorWindowSeconds: number(env, 'GATE_VISITOR_WINDOW_SECONDS', {
      min: 1,
      max: 86_400,
      integer: true,
    }),
    visitorStartsPerDay: number(env, 'GATE_VISITOR_STARTS_PER_DAY', {
      min: 1,
      max: 1_000_000,
      integer: true,
    }),
    visitorDailyUsd: number(env, 'GATE_VISITOR_DAILY_USD', {
      min: 0,
      max: 1_000_000,
      integer: false,
    }),
    networkConcurrent: number(env, 'GATE_NETWORK_CONCURRENT', {
      min: 1,
      max: 100_000,
      integer: true,
    }),
    networkStartsPerWindow: number(env, 'GATE_NETWORK_STARTS_PER_WINDOW', {
      min: 1,
      max: 1_000_000,
      integer: true,
    }),
    asnConcurrent: number(env, 'GATE_ASN_CONCURRENT', {
      min: 1,
      max: 1_000_000,
      integer: true,
    }),
    maxWaitMinutes: number(env, 'GATE_MAX_WAIT_MINUTES', {
      min: 1,
      max: 1440,
      integer: true,
    }),
  };
}

/** What text with Pepa may take: a visitor's, their network's and each reply's limits. */
export interface TextLimits {
  /** The longest message, in characters. */
  messageChars: number;
  turnsPerChat: number;
  /** A visitor's messages per minute and per UTC day. */
  turnsPerMinute: number;
  turnsPerDay: number;
  /** A network's (/24 or /48) messages per minute and per UTC day. */
  networkTurnsPerMinute: number;
  networkTurnsPerDay: number;
  /** An ASN's messages per UTC day, across every desk its networks fall to. */
  asnTurnsPerDay: number;
  /** Chats a visitor may start per UTC day. */
  startsPerDay: number;
  /** The most one reply can cost: held against the budget until its real cost is read. */
  turnWorstUsd: number;
  /** What one visitor's text may commit per UTC day. */
  visitorDailyUsd: number;
  /** Replies being written at once, the gate's own limit; 0: none. */
  maxConcurrentReplies: number;
  /**
   * Whether a chat's first message that repeats an opening Pepa has already answered today is
   * answered from her own earlier replies to it, at no model cost (`GATE_CHAT_OPENINGS`).
   */
  openings: boolean;
}

/** A setting that is "on" or "off"; throws {@link GateConfigError} for anything else. */
function onOff(env: Settings, name: 'GATE_CHAT_OPENINGS'): boolean {
  const raw = env[name]?.trim();
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new GateConfigError(`${name} must be "on" or "off" (got "${raw ?? ''}")`);
}

/** Text's limits from the environment; throws {@link GateConfigError} naming a bad one. */
export function textLimitsFrom(env: Settings): TextLimits {
  const whole = (name: NumberVar, min: number, max: number) =>
    number(env, name, { min, max, integer: true });
  return {
    messageChars: whole('GATE_CHAT_MESSAGE_CHARS', 1, 4000),
    turnsPerChat: whole('GATE_CHAT_TURNS_PER_CHAT', 1, 1000),
    turnsPerMinute: whole('GATE_CHAT_TURNS_PER_MINUTE', 1, 600),
    turnsPerDay: whole('GATE_CHAT_TURNS_PER_DAY', 1, 100_000),
    networkTurnsPerMinute: whole('GATE_CHAT_NETWORK_TURNS_PER_MINUTE', 1, 1_000_000),
    networkTurnsPerDay: whole('GATE_CHAT_NETWORK_TURNS_PER_DAY', 1, 10_000_000),
    asnTurnsPerDay: whole('GATE_CHAT_ASN_TURNS_PER_DAY', 1, 10_000_000),
    startsPerDay: whole('GATE_CHAT_STARTS_PER_DAY', 1, 10_000),
    turnWorstUsd: number(env, 'GATE_CHAT_TURN_WORST_USD', { min: 0.0001, max: 10, integer: false }),
    visitorDailyUsd: number(env, 'GATE_CHAT_VISITOR_DAILY_USD', {
      min: 0,
      max: 1_000_000,
      integer: false,
    }),
    maxConcurrentReplies: whole('GATE_MAX_CONCURRENT_REPLIES', 0, 100_000),
    openings: onOff(env, 'GATE_CHAT_OPENINGS'),
  };
}

/**
 * Quote cards' limits: cards a visitor, their network (/24 or /48) and one conversation may make
 * a UTC day, and the owner's blocklist.
 */
export interface CardLimits {
  perDay: number;
  networkPerDay: number;
  perConversation: number;
  blocklist: string | undefined;
}

/** The cards' limits from the environment; throws {@link GateConfigError} naming a bad one. */
export function cardLimitsFrom(env: Settings): CardLimits {
  return {
    perDay: number(env, 'GATE_CARDS_PER_DAY', { min: 0, max: 1000, integer: true }),
    networkPerDay: number(env, 'GATE_CARDS_NETWORK_PER_DAY', {
      min: 0,
      max: 100_000,
      integer: true,
    }),
    perConversation: number(env, 'GATE_CARDS_PER_CONVERSATION', {
      min: 0,
      max: 1000,
      integer: true,
    }),
    blocklist: env.GATE_CARD_BLOCKLIST,
  };
}

/** Hosts a local run may serve the site from over plain HTTP. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The most times faster than real time a simulated clock may run. */
const MAX_CLOCK_SCALE = 100_000;

/**
 * The pace's simulated clock (`GATE_PACE_CLOCK`), with which `npm run surge` plays a whole day in
 * minutes: empty for the real clock, as on every deployed site. It reads `<simulated start>@<real
 * start> <scale>:<seconds> … <scale>`, e.g. `2030-01-15T00:00:00Z@1764633600000 10:90 360`: from
 * the real moment 1764633600000 (epoch ms) the pace's clock reads 00:00 of 2030-01-15 and runs
 * ten times faster than real time for 90 real seconds, then 360 times faster. It is refused
 * unless GATE_SITE_ORIGIN is this machine's loopback, so a deployed pace never runs fast.
 */
export function paceClockFrom(env: Settings): { paceClock?: PaceClock } {
  const raw = env.GATE_PACE_CLOCK?.trim() ?? '';
  if (!raw) return {};
  let origin: URL | null = null;
  try {
    origin = new URL(env.GATE_SITE_ORIGIN ?? '');
  } catch {
    // No origin: refused below.
  }
  if (origin?.protocol !== 'http:' || !LOOPBACK.has(origin.hostname)) {
    throw new GateConfigError(
      "GATE_PACE_CLOCK is a local simulation's clock: it may be set only where GATE_SITE_ORIGIN is this machine's loopback, never on a deployed site",
    );
  }
  const bad = (why: string) => new GateConfigError(`GATE_PACE_CLOCK ${why} (got "${raw}")`);
  const [start = '', ...written] = raw.split(/\s+/);
  const at = /^(.+)@(\d+)$/.exec(start);
  const simStartMs = at?.[1] ? Date.parse(at[1]) : NaN;
  const realStartMs = Number(at?.[2]);
  if (!Number.isFinite(simStartMs) || !Number.isFinite(realStartMs)) {
    throw bad(
      'must begin with the simulated start and the real one, as 2030-01-15T00:00:00Z@1764633600000',
    );
  }
  const steps = written.map((step, i) => {
    const [scaleText = '', secondsText] = step.split(':');
    const scale = Number(scaleText);
    const last = i === written.length - 1;
    const seconds = last ? Infinity : Number(secondsText);
    if (
      !Number.isFinite(scale) ||
      scale < 1 ||
      scale > MAX_CLOCK_SCALE ||
      (last ? secondsText !== undefined : !(seconds > 0 && Number.isFinite(seconds)))
    ) {
      throw bad(
        `steps must each be <scale>:<real seconds>, the last a scale alone, each scale from 1 to ${MAX_CLOCK_SCALE}`,
      );
    }
    return { scale, seconds };
  });
  if (steps.length === 0) throw bad('needs at least one scale after its start');
  return { paceClock: { simStartMs, realStartMs, steps } };
}

/**
 * The site's own origin (`GATE_SITE_ORIGIN`), the one a card prints and links to whatever host a
 * request named: `https://` and nothing after the host, or `http://` on this machine's loopback;
 * throws {@link GateConfigError} when it is unset or not one.
 */
export function siteOriginFrom(env: Settings): string {
  const raw = env.GATE_SITE_ORIGIN?.trim();
  if (!raw) throw new GateConfigError('GATE_SITE_ORIGIN is not set');
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // Not an address at all: refused below with the rest.
  }
  const local = url?.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (
    !url ||
    (url.protocol !== 'https:' && !local) ||
    url.username ||
    url.password ||
    url.origin !== raw.toLowerCase().replace(/\/$/, '')
  ) {
    throw new GateConfigError(
      `GATE_SITE_ORIGIN must be the site's origin, https://host with nothing after it (got "${raw}")`,
    );
  }
  return url.origin;
}

/** The secrets the gate cannot run without, by name, that are missing. */
export function missingSecrets(env: Settings): string[] {
  return REQUIRED_SECRETS.filter((name) => !env[name]);
}

/** The hosts a bot-check token may have been solved on (wrangler.jsonc `GATE_SITE_HOSTS`). */
export function siteHosts(env: Settings, request: Request): string[] {
  const listed = (env.GATE_SITE_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  return listed.length > 0 ? listed : [new URL(request.url).hostname.toLowerCase()];
}

/** The engines that can write Pepa's text replies (`GATE_TEXT_ENGINE`). */
export const TEXT_ENGINES = ['model', 'provider-chat'] as const;

/** Which engine writes Pepa's text replies, and what the model engine needs. */
export type TextEngineSetting =
  | { kind: 'provider-chat' }
  | {
      kind: 'model';
      apiUrl: string;
      apiKey: string;
      /** USD per million tokens: prompt, prompt read from the endpoint's cache, completion. */
      prices: { input: number; cachedInput: number; output: number };
    };

/** The most a million tokens may be priced at: past it, a setting is a typing slip. */
const MAX_USD_PER_MTOK = 1000;

/** An endpoint's base URL: https, or http on this machine's loopback; no credentials in it. */
function endpointUrl(raw: string | undefined): string {
  const text = raw?.trim() ?? '';
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // Not an address: refused below.
  }
  const local = url?.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (!url || (url.protocol !== 'https:' && !local) || url.username || url.password) {
    throw new GateConfigError(
      `GATE_MODEL_API_URL must be the endpoint's https:// base URL, e.g. https://api.openai.com/v1 (got "${text}")`,
    );
  }
  return text.replace(/\/+$/, '');
}

/**
 * Text's engine from the environment (`GATE_TEXT_ENGINE`, and for the model engine its endpoint,
 * key and prices); throws {@link GateConfigError} naming a bad one. Prices must be above zero (a
 * cached prompt's may be zero, never above the prompt's): a reply is never metered at nothing.
 */
export function textEngineFrom(env: Settings): TextEngineSetting {
  const kind = env.GATE_TEXT_ENGINE?.trim();
  if (kind === 'provider-chat') return { kind };
  if (kind !== 'model') {
    throw new GateConfigError(
      `GATE_TEXT_ENGINE must be one of ${TEXT_ENGINES.join(', ')} (got "${kind ?? ''}")`,
    );
  }
  const price = (name: NumberVar) => {
    const usd = number(env, name, { min: 0, max: MAX_USD_PER_MTOK, integer: false });
    if (usd > 0) return usd;
    throw new GateConfigError(`${name} must be above 0: a reply is never metered at nothing`);
  };
  const input = price('GATE_MODEL_INPUT_USD_PER_MTOK');
  const cachedInput = number(env, 'GATE_MODEL_CACHED_INPUT_USD_PER_MTOK', {
    min: 0,
    max: input,
    integer: false,
  });
  const output = price('GATE_MODEL_OUTPUT_USD_PER_MTOK');
  const apiUrl = endpointUrl(env.GATE_MODEL_API_URL);
  const apiKey = env[MODEL_KEY_SECRET]?.trim() ?? '';
  if (!apiKey) {
    throw new GateConfigError(
      `${MODEL_KEY_SECRET} is not set: GATE_TEXT_ENGINE is "model", which needs the endpoint's key`,
    );
  }
  return { kind, apiUrl, apiKey, prices: { input, cachedInput, output } };
}
