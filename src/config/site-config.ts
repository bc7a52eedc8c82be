/**
 * The site's configuration: every link, key, id and constant the page uses lives here.
 *
 * Values come from `VITE_*` variables when set, otherwise from the defaults below. The same
 * parser runs when Vite starts (so a bad deployment fails at build time with a readable list of
 * problems) and when the page loads.
 */

/** How the call view is wired: the real provider and Daily, or the offline demo. */
export type VoiceMode = 'live' | 'demo';

/**
 * How a call is created: through the site's own court gate (`/api/calls`, which alone holds the
 * provider's private key), or, on a static-only host, straight from the page with the provider's
 * public key (unprotected: anyone can make billed calls with a key in the page).
 */
export type VoiceRoute = 'gate' | 'direct';

export interface VoiceConfig {
  mode: VoiceMode;
  route: VoiceRoute;
  /** The bot check's (Cloudflare Turnstile) site key: the demo uses Cloudflare's test key. */
  botCheckSiteKey: string;
  /** The provider's public (client-side) key, sent as `Authorization: Bearer <key>`. */
  publicKey: string;
  /** The fixed Pepa assistant every call is created with. */
  assistantId: string;
  /** Base URL of the provider's REST API (the local mock in the demo). */
  apiUrl: string;
  /** Hosts a call's room may be on: Daily's by default; others for self-hosted rooms. */
  roomHosts: readonly string[];
  /**
   * Whether the provider records calls: said to the visitor before the microphone opens. It
   * must match the assistant's `artifactPlan.recordingEnabled` (assistant:sync reads the same
   * variable; `npm run doctor` checks the provider agrees).
   */
  recording: boolean;
  /** The longest a call may last, in seconds (the assistant's `maxDurationSeconds`). */
  maxCallSeconds: number;
}

export interface SiteLinks {
  /** 'Join the Court NOW': the messaging group's entry portal. */
  court: string;
  /** The social-network profile shown in the hero. */
  social: string;
  /** Footer social icons (placeholders until the owners set them). */
  footerX: string;
  footerTelegram: string;
  footerDiscord: string;
}

export interface SiteConfig {
  ticker: '$PEPA';
  /** The public origin the site is deployed at (for canonical and social-card URLs). */
  siteUrl: string;
  /** The token's mint address on Solana (the swap page's output). */
  tokenMint: string;
  links: SiteLinks;
  /** 'Buy $PEPA': a swap page prefilled with SOL as input and the token as output. */
  buyUrl: string;
  voice: VoiceConfig;
}

/** The native coin's mint (wrapped SOL), the swap's input. */
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';

export const DEFAULT_API_URL = 'https://api.vapi.ai';
export const DEMO_PUBLIC_KEY = 'demo-public-key';
export const DEMO_ASSISTANT_ID = 'demo-pepa-assistant';
/** Cloudflare's documented test site key that always passes, invisibly. */
export const TEST_BOT_CHECK_SITE_KEY = '1x00000000000000000000BB';
export const DEFAULT_MOCK_PORT = 4010;
/** Daily's rooms live on `<domain>.daily.co`. */
export const DEFAULT_ROOM_HOSTS: readonly string[] = ['*.daily.co'];
/** A promotional chat of a few minutes; it also caps what one call can cost. */
export const DEFAULT_MAX_CALL_SECONDS = 180;
/** The provider's own bounds for `maxDurationSeconds`. */
const MAX_CALL_SECONDS_RANGE = [10, 43_200] as const;
const HOST_PATTERN = /^(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/;

/** Placeholders: replace them through the variables in docs/configuration.md before launch. */
export const DEFAULTS = {
  siteUrl: 'https://pepa.example',
  tokenMint: 'PEPAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxpump',
  court: 'https://t.me/pepa_court',
  social: 'https://x.com/pepa_court',
  footerX: 'https://x.com/',
  footerTelegram: 'https://t.me/',
  footerDiscord: 'https://discord.com/',
} as const;

/** The variables the site reads. Anything else in the environment is ignored. */
export interface SiteEnv {
  VITE_SITE_URL?: string | undefined;
  VITE_VAPI_PUBLIC_KEY?: string | undefined;
  VITE_VAPI_ASSISTANT_ID?: string | undefined;
  VITE_VAPI_API_URL?: string | undefined;
  VITE_VAPI_ROOM_HOSTS?: string | undefined;
  VITE_TURNSTILE_SITE_KEY?: string | undefined;
  VITE_PEPA_RECORDING?: string | undefined;
  VITE_PEPA_MAX_CALL_SECONDS?: string | undefined;
  VITE_PEPA_DEMO?: string | undefined;
  VITE_TOKEN_MINT?: string | undefined;
  VITE_COURT_URL?: string | undefined;
  VITE_SOCIAL_URL?: string | undefined;
  VITE_FOOTER_X_URL?: string | undefined;
  VITE_FOOTER_TELEGRAM_URL?: string | undefined;
  VITE_FOOTER_DISCORD_URL?: string | undefined;
}

export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid site configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const BASE58_MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

function read(env: SiteEnv, name: keyof SiteEnv): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function httpsUrl(
  env: SiteEnv,
  name: keyof SiteEnv,
  fallback: string,
  problems: string[],
  allowHttp = false,
): string {
  const value = read(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${name} must be an absolute URL (got "${value}")`);
    return fallback;
  }
  const allowed = allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(url.protocol)) {
    problems.push(`${name} must use ${allowed.join(' or ')} (got "${value}")`);
    return fallback;
  }
  return value;
}

function isTrue(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

/**
 * Parses and validates the environment. Throws a {@link ConfigError} that lists every problem
 * (not only the first), naming the variable each one is about.
 */
export function parseSiteConfig(env: SiteEnv): SiteConfig {
  const problems: string[] = [];

  const tokenMint = read(env, 'VITE_TOKEN_MINT') ?? DEFAULTS.tokenMint;
  if (!BASE58_MINT.test(tokenMint)) {
    problems.push(`VITE_TOKEN_MINT must be a base58 mint address of 32 to 44 characters`);
  }

  const siteUrl = httpsUrl(env, 'VITE_SITE_URL', DEFAULTS.siteUrl, problems).replace(/\/+$/, '');

  const links: SiteLinks = {
    court: httpsUrl(env, 'VITE_COURT_URL', DEFAULTS.court, problems),
    social: httpsUrl(env, 'VITE_SOCIAL_URL', DEFAULTS.social, problems),
    footerX: httpsUrl(env, 'VITE_FOOTER_X_URL', DEFAULTS.footerX, problems),
    footerTelegram: httpsUrl(env, 'VITE_FOOTER_TELEGRAM_URL', DEFAULTS.footerTelegram, problems),
    footerDiscord: httpsUrl(env, 'VITE_FOOTER_DISCORD_URL', DEFAULTS.footerDiscord, problems),
  };

  const demoRequested = isTrue(read(env, 'VITE_PEPA_DEMO'));
  const publicKey = read(env, 'VITE_VAPI_PUBLIC_KEY');
  const assistantId = read(env, 'VITE_VAPI_ASSISTANT_ID');
  const botCheckSiteKey = read(env, 'VITE_TURNSTILE_SITE_KEY');
  const mode: VoiceMode = demoRequested ? 'demo' : 'live';
  // A public key in the page means a static-only host; otherwise the site's gate creates calls.
  const route: VoiceRoute = mode === 'live' && publicKey ? 'direct' : 'gate';

  if (mode === 'live' && route === 'direct' && !assistantId) {
    problems.push(
      "VITE_VAPI_ASSISTANT_ID must be set for a static-only build with VITE_VAPI_PUBLIC_KEY (without the public key, the site's gate creates calls and holds the assistant id)",
    );
  }
  if (mode === 'live' && route === 'gate' && !botCheckSiteKey) {
    problems.push(
      'VITE_TURNSTILE_SITE_KEY must be set for a live build: the gate checks every visitor with Turnstile before a call (for the offline demo, run `npm run build:demo` instead)',
    );
  }

  const apiUrl = httpsUrl(
    env,
    'VITE_VAPI_API_URL',
    mode === 'demo' ? `http://127.0.0.1:${DEFAULT_MOCK_PORT}` : DEFAULT_API_URL,
    problems,
    // The demo talks to the local mock over plain HTTP; a live build must use HTTPS.
    mode === 'demo',
  ).replace(/\/+$/, '');

  const roomHostsValue = read(env, 'VITE_VAPI_ROOM_HOSTS');
  const roomHosts = roomHostsValue
    ? roomHostsValue.split(',').map((host) => host.trim().toLowerCase())
    : DEFAULT_ROOM_HOSTS;
  const badHosts = roomHosts.filter((host) => !HOST_PATTERN.test(host));
  if (badHosts.length > 0) {
    problems.push(
      `VITE_VAPI_ROOM_HOSTS must list host names or *.domain patterns, comma-separated (got "${badHosts.join(', ')}")`,
    );
  }

  const recordingValue = read(env, 'VITE_PEPA_RECORDING') ?? 'off';
  if (recordingValue !== 'on' && recordingValue !== 'off') {
    problems.push(`VITE_PEPA_RECORDING must be "on" or "off" (got "${recordingValue}")`);
  }
  const maxCallValue = read(env, 'VITE_PEPA_MAX_CALL_SECONDS');
  const maxCallSeconds =
    maxCallValue === undefined ? DEFAULT_MAX_CALL_SECONDS : Number(maxCallValue);
  const [fewest, most] = MAX_CALL_SECONDS_RANGE;
  if (!Number.isInteger(maxCallSeconds) || maxCallSeconds < fewest || maxCallSeconds > most) {
    problems.push(
      `VITE_PEPA_MAX_CALL_SECONDS must be a whole number of seconds from ${fewest} to ${most} (got "${maxCallValue}")`,
    );
  }

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    ticker: '$PEPA',
    siteUrl,
    tokenMint,
    links,
    buyUrl: `https://jup.ag/swap?sell=${NATIVE_MINT}&buy=${tokenMint}`,
    voice: {
      mode,
      route,
      botCheckSiteKey: botCheckSiteKey ?? TEST_BOT_CHECK_SITE_KEY,
      publicKey: publicKey ?? DEMO_PUBLIC_KEY,
      assistantId: assistantId ?? DEMO_ASSISTANT_ID,
      apiUrl,
      roomHosts,
      recording: recordingValue === 'on',
      maxCallSeconds,
    },
  };
}
