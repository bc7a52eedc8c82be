import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_API_URL,
  DEMO_ASSISTANT_ID,
  DEMO_PUBLIC_KEY,
  NATIVE_MINT,
  TEST_BOT_CHECK_SITE_KEY,
  parseSiteConfig,
  type SiteEnv,
} from './site-config';

const gated: SiteEnv = { VITE_TURNSTILE_SITE_KEY: '0x4AAAAAAApepaSiteKey' };
const live: SiteEnv = {
  VITE_VAPI_PUBLIC_KEY: 'pk-live-123',
  VITE_VAPI_ASSISTANT_ID: 'asst-456',
};

function problemsOf(env: SiteEnv): readonly string[] {
  try {
    parseSiteConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('parseSiteConfig', () => {
  it('builds a live configuration that creates calls through the gate, with the bot check key and no provider key', () => {
    const config = parseSiteConfig(gated);
    expect(config.voice).toEqual({
      mode: 'live',
      route: 'gate',
      botCheckSiteKey: '0x4AAAAAAApepaSiteKey',
      publicKey: DEMO_PUBLIC_KEY,
      assistantId: DEMO_ASSISTANT_ID,
      apiUrl: DEFAULT_API_URL,
      roomHosts: ['*.daily.co'],
      recording: false,
      maxCallSeconds: 180,
    });
  });

  it('builds a static-only configuration from the public key and assistant id, straight to the provider', () => {
    const config = parseSiteConfig(live);
    expect(config.voice).toMatchObject({
      mode: 'live',
      route: 'direct',
      publicKey: 'pk-live-123',
      assistantId: 'asst-456',
      apiUrl: DEFAULT_API_URL,
    });
  });

  it('needs the bot check key for a live build through the gate', () => {
    const problems = problemsOf({});
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^VITE_TURNSTILE_SITE_KEY must be set for a live build/);
    expect(problems[0]).toContain('npm run build:demo');
  });

  it('needs the assistant id with a public key (a static-only build)', () => {
    expect(problemsOf({ VITE_VAPI_PUBLIC_KEY: 'pk' })[0]).toMatch(/^VITE_VAPI_ASSISTANT_ID must/);
  });

  it('treats a blank public key as none: the build goes through the gate', () => {
    expect(
      parseSiteConfig({ ...gated, VITE_VAPI_PUBLIC_KEY: '  ', VITE_VAPI_ASSISTANT_ID: 'a' }).voice
        .route,
    ).toBe('gate');
    expect(problemsOf({ VITE_TURNSTILE_SITE_KEY: ' ' })[0]).toMatch(
      /^VITE_TURNSTILE_SITE_KEY must/,
    );
  });

  it('runs the demo through the gate against the local mock, with the test bot check key', () => {
    const config = parseSiteConfig({ VITE_PEPA_DEMO: 'true' });
    expect(config.voice).toEqual({
      mode: 'demo',
      route: 'gate',
      botCheckSiteKey: TEST_BOT_CHECK_SITE_KEY,
      publicKey: DEMO_PUBLIC_KEY,
      assistantId: DEMO_ASSISTANT_ID,
      apiUrl: 'http://127.0.0.1:4010',
      roomHosts: ['*.daily.co'],
      recording: false,
      maxCallSeconds: 180,
    });
  });

  it('joins rooms on Daily by default, and on listed hosts for self-hosted rooms', () => {
    expect(parseSiteConfig(live).voice.roomHosts).toEqual(['*.daily.co']);
    const config = parseSiteConfig({
      ...live,
      VITE_VAPI_ROOM_HOSTS: 'rooms.pepa.example, *.Daily.co',
    });
    expect(config.voice.roomHosts).toEqual(['rooms.pepa.example', '*.daily.co']);
    expect(problemsOf({ ...live, VITE_VAPI_ROOM_HOSTS: 'https://x.example/, *' })).toEqual([
      'VITE_VAPI_ROOM_HOSTS must list host names or *.domain patterns, comma-separated (got "https://x.example/, *")',
    ]);
  });

  it('tells visitors about recording and the call limit as the assistant is set up', () => {
    expect(parseSiteConfig(live).voice).toMatchObject({ recording: false, maxCallSeconds: 180 });
    expect(
      parseSiteConfig({ ...live, VITE_PEPA_RECORDING: 'on', VITE_PEPA_MAX_CALL_SECONDS: '300' })
        .voice,
    ).toMatchObject({ recording: true, maxCallSeconds: 300 });
    expect(
      problemsOf({ ...live, VITE_PEPA_RECORDING: 'yes', VITE_PEPA_MAX_CALL_SECONDS: '2.5' }),
    ).toEqual([
      'VITE_PEPA_RECORDING must be "on" or "off" (got "yes")',
      'VITE_PEPA_MAX_CALL_SECONDS must be a whole number of seconds from 10 to 43200 (got "2.5")',
    ]);
  });

  it('lets the demo point at another mock port', () => {
    const config = parseSiteConfig({
      VITE_PEPA_DEMO: '1',
      VITE_VAPI_API_URL: 'http://127.0.0.1:4099/',
    });
    expect(config.voice.apiUrl).toBe('http://127.0.0.1:4099');
  });

  it('refuses a plain-HTTP provider URL in a live build', () => {
    expect(problemsOf({ ...live, VITE_VAPI_API_URL: 'http://api.example.com' })).toEqual([
      'VITE_VAPI_API_URL must use https: (got "http://api.example.com")',
    ]);
  });

  it('prefills the swap page with the native coin as input and the token mint as output', () => {
    const mint = 'PepaMint1111111111111111111111111111111111';
    const config = parseSiteConfig({ ...live, VITE_TOKEN_MINT: mint });
    const url = new URL(config.buyUrl);
    expect(url.origin).toBe('https://jup.ag');
    expect(url.searchParams.get('sell')).toBe(NATIVE_MINT);
    expect(url.searchParams.get('buy')).toBe(mint);
  });

  it('lists every problem at once, each naming its variable', () => {
    const problems = problemsOf({
      VITE_TOKEN_MINT: 'not a mint!',
      VITE_COURT_URL: 'telegram',
      VITE_SOCIAL_URL: 'javascript:alert(1)',
    });
    expect(problems).toEqual([
      'VITE_TOKEN_MINT must be a base58 mint address of 32 to 44 characters',
      'VITE_COURT_URL must be an absolute URL (got "telegram")',
      'VITE_SOCIAL_URL must use https: (got "javascript:alert(1)")',
      expect.stringContaining('VITE_TURNSTILE_SITE_KEY must be set'),
    ]);
  });

  it('says what is wrong in the error message itself', () => {
    expect(() => parseSiteConfig({ ...live, VITE_FOOTER_X_URL: 'x.com' })).toThrow(
      /Invalid site configuration:\n {2}- VITE_FOOTER_X_URL must be an absolute URL/,
    );
  });

  it('uses the marked placeholders for links that are not configured', () => {
    const config = parseSiteConfig(live);
    expect(config.links.court).toMatch(/^https:\/\//);
    expect(config.siteUrl).toBe('https://pepa.example');
  });
});
