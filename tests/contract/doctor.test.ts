// npm run doctor's table, for a configuration ready to go live and for ones that are not. The
// provider is a stateful stand-in whose every request is also validated by Prism serving the
// vendored spec; calls are Prism's own answers.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatDoctorTable, runDoctor, type DoctorRow } from '../../assistant/doctor';
import { wranglerVars } from '../../assistant/gate-settings';
import { PEPA_GATE_CREDENTIAL_NAME, pepaAssistant } from '../../assistant/pepa';
import { restrictKey } from '../../assistant/restrict-key';
import { syncAssistant } from '../../assistant/sync';
import { providerStandIn } from '../../assistant/testing/provider-stand-in';
import { headersFile } from '../../scripts/site-html-plugin';
import { parseSiteConfig } from '../../src/config/site-config';

/** The run's Prism mock of the provider spec (tests/support/shared-prism.ts). */
const prismUrl = inject('prismUrl');
let work: string;

const LIVE = {
  VITE_SITE_URL: 'https://pepa-court.example.org',
  VITE_TOKEN_MINT: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  VITE_VAPI_PUBLIC_KEY: 'pk-live-1',
  VAPI_PRIVATE_KEY: 'secret',
};

/** A build folder with the `_headers` the site's build writes for `env`. */
async function builtSite(name: string, env: Record<string, string | undefined>) {
  const dist = join(work, name);
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  await writeFile(join(dist, '_headers'), headersFile(parseSiteConfig(env)));
  return dist;
}

const byCheck = (rows: readonly DoctorRow[]) =>
  Object.fromEntries(rows.map((row) => [row.check, row.status]));

/** A provider where Pepa was synced and the public key restricted, as in docs/going-live.md. */
async function readyProvider() {
  const provider = providerStandIn({ validateWith: prismUrl });
  provider.addToken({ value: LIVE.VITE_VAPI_PUBLIC_KEY, tag: 'public' });
  const log = () => {};
  const common = { privateKey: LIVE.VAPI_PRIVATE_KEY, baseUrl: 'http://provider.test', log };
  const synced = await syncAssistant({
    ...common,
    assistant: pepaAssistant(),
    fetch: provider.fetch,
  });
  await restrictKey({
    ...common,
    publicKey: LIVE.VITE_VAPI_PUBLIC_KEY,
    siteUrl: LIVE.VITE_SITE_URL,
    assistantId: synced.id,
    fetch: provider.fetch,
  });
  const env = { ...LIVE, VITE_VAPI_ASSISTANT_ID: synced.id, VAPI_API_URL: 'http://provider.test' };
  return { provider, env };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pepa-doctor-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('npm run doctor', () => {
  it('reports a synced assistant, a restricted key and a static build as ready but unprotected', async () => {
    const { provider, env } = await readyProvider();
    const dist = await builtSite('live', env);
    provider.requests.length = 0;

    const rows = await runDoctor({ env, dist, fetch: provider.fetch });

    expect(byCheck(rows)).toEqual({
      'Site configuration': 'ok',
      'Site URL': 'ok',
      'Token mint': 'ok',
      'Court gate': 'warn',
      'Private key': 'ok',
      'Pepa on the provider': 'ok',
      'Pepa matches the repository': 'ok',
      'Public key restricted': 'ok',
      'CSP allows the API': 'ok',
      'Web call': 'skip',
    });
    const table = formatDoctorTable(rows);
    expect(table).toMatch(/^Check\s+Status\s+Detail$/m);
    expect(table).toMatch(
      /^Public key restricted\s+ok\s+https:\/\/pepa-court\.example\.org and Pepa only/m,
    );
    // The public key in the page is flagged, with the way to the gate.
    expect(table).toMatch(
      /^Court gate\s+WARN\s+UNPROTECTED: .*anyone can make billed calls with it.* -> Move to the gate: unset VITE_VAPI_PUBLIC_KEY.*npm run deploy/m,
    );
    expect(table.split('\n').at(-1)).toBe(
      'Ready for a live build, with 1 warning(s): read the WARN lines.',
    );
    // It only reads, and every request is one the provider's contract accepts.
    expect(provider.requests.map((request) => request.method)).toEqual(['GET', 'GET', 'GET']);
    for (const request of provider.requests) {
      expect(request.contract).toEqual({ status: 200, violations: null });
    }
  });

  it('with --call creates one web call with the public key and checks its room', async () => {
    const { provider, env } = await readyProvider();
    const dist = await builtSite('live-call', env);
    provider.requests.length = 0;

    const rows = await runDoctor({ env, dist, call: true, fetch: provider.fetch });

    expect(rows.find((row) => row.check === 'Web call')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^created \S+, room https:\/\/[a-z-]+\.daily\.co\//),
    });
    const calls = provider.requests.filter((request) => request.path === '/call/web');
    expect(calls).toEqual([
      expect.objectContaining({ method: 'POST', auth: `Bearer ${LIVE.VITE_VAPI_PUBLIC_KEY}` }),
    ]);
  });

  it('lists each problem of a configuration that is not ready, with what to do', async () => {
    const { provider, env } = await readyProvider();
    // The assistant drifted on the provider and the key lost its restrictions.
    const pepa = provider.assistants.get(env.VITE_VAPI_ASSISTANT_ID ?? '');
    if (pepa) pepa.firstMessage = 'gm';
    for (const token of provider.tokens.values()) token.restrictions = { enabled: false };
    const demoDist = await builtSite('demo', { VITE_PEPA_DEMO: 'true' });

    const rows = await runDoctor({
      env: { ...env, VITE_SITE_URL: undefined, VITE_TOKEN_MINT: undefined },
      dist: demoDist,
      fetch: provider.fetch,
    });

    const failed = Object.fromEntries(
      rows.filter((row) => row.status === 'fail').map((row) => [row.check, row.fix]),
    );
    expect(failed).toEqual({
      'Site URL': 'Set VITE_SITE_URL to the address the site is served from.',
      'Token mint': "Set VITE_TOKEN_MINT to $PEPA's mint address.",
      'Pepa matches the repository': expect.stringContaining('npm run assistant:sync'),
      'Public key restricted': expect.stringContaining('npm run key:restrict'),
      'CSP allows the API': expect.stringContaining('npm run build'),
    });
    expect(rows.find((row) => row.check === 'Pepa matches the repository')?.detail).toBe(
      '1 field(s) differ: firstMessage',
    );
    expect(formatDoctorTable(rows).split('\n').at(-1)).toBe('Not ready: 5 check(s) failed.');
  });

  it('says in its line when the private key is missing or refused, and when there is no build', async () => {
    const rows = await runDoctor({
      env: { ...LIVE, VAPI_PRIVATE_KEY: undefined, VAPI_API_URL: prismUrl },
      dist: join(work, 'missing'),
    });
    expect(rows.find((row) => row.check === 'Private key')).toMatchObject({
      status: 'fail',
      detail: 'VAPI_PRIVATE_KEY is not set',
    });
    expect(rows.find((row) => row.check === 'CSP allows the API')).toMatchObject({
      status: 'fail',
      detail: `no build at ${join(work, 'missing', '_headers')}`,
    });
    const wrong = providerStandIn();
    const refused = await runDoctor({
      env: { ...LIVE, VAPI_PRIVATE_KEY: 'pk-live-1', VAPI_API_URL: 'http://provider.test' },
      dist: join(work, 'missing'),
      fetch: wrong.fetch,
    });
    expect(refused.find((row) => row.check === 'Private key')).toMatchObject({
      status: 'fail',
      detail: 'http://provider.test answered HTTP 401',
      fix: expect.stringContaining('private key, not the public one'),
    });
  });
});

/** A gate as docs/going-live.md's steps leave it: secrets exported, Pepa synced with GATE_URL. */
const GATE = {
  VITE_SITE_URL: 'https://pepa-court.example.org',
  VITE_TOKEN_MINT: LIVE.VITE_TOKEN_MINT,
  VITE_TURNSTILE_SITE_KEY: '0x4AAAAAAAPepaCourtSiteKey',
  VAPI_PRIVATE_KEY: 'secret',
  TURNSTILE_SECRET_KEY: '0x4AAAAAAAPepaCourtSecretKeyxxxxxxxx',
  GATE_URL: 'https://pepa-court.example.org',
  GATE_SITE_ORIGIN: 'https://pepa-court.example.org',
  GATE_WEBHOOK_SECRET: 'w'.repeat(64),
  GATE_VISITOR_SALT: 's'.repeat(64),
  GATE_ADMIN_TOKEN: 'a'.repeat(64),
  MODEL_API_KEY: 'sk-pepa-court',
  VAPI_API_URL: 'http://provider.test',
};

async function gateProvider(env: Record<string, string | undefined> = GATE) {
  const provider = providerStandIn({ validateWith: prismUrl });
  const synced = await syncAssistant({
    privateKey: GATE.VAPI_PRIVATE_KEY,
    baseUrl: 'http://provider.test',
    assistant: pepaAssistant(env),
    gate: { url: GATE.GATE_URL, secret: GATE.GATE_WEBHOOK_SECRET },
    fetch: provider.fetch,
    log: () => {},
  });
  const ready: Record<string, string | undefined> = { ...env, VAPI_ASSISTANT_ID: synced.id };
  return { provider, env: ready };
}

/**
 * A gate build's `_headers`: the gate on the page's own origin, Daily's rooms and the bot check.
 * Written out here because the CSP's shape is what the doctor reads, not how it is produced.
 */
async function gateBuild(name: string) {
  const dist = join(work, name);
  await mkdir(dist, { recursive: true });
  await writeFile(
    join(dist, '_headers'),
    [
      '/*',
      "  Content-Security-Policy: default-src 'self'; script-src 'self' https://challenges.cloudflare.com https://*.daily.co; connect-src 'self' https://*.daily.co wss://*.daily.co; frame-src https://challenges.cloudflare.com",
      '',
    ].join('\n'),
  );
  return dist;
}

const GATE_ROWS = [
  'Court gate',
  'Gate secrets',
  'Gate limits',
  'Text engine',
  'Bot check site key',
  'Gate URL',
  'Site origin',
  'Webhook credential',
  'Pepa reports to the gate',
  'Call limit agrees',
];

describe('npm run doctor for the court gate', () => {
  it('passes a gate setup: secrets, limits, bot-check key, webhook credential and call limit', async () => {
    const { provider, env } = await gateProvider();
    const dist = await gateBuild('gate');
    provider.requests.length = 0;

    const rows = await runDoctor({ env, dist, fetch: provider.fetch });

    const gateRows = rows.filter((row) => row.gate);
    expect(gateRows.map((row) => row.check)).toEqual(GATE_ROWS);
    expect(gateRows.filter((row) => row.status !== 'ok')).toEqual([]);
    expect(byCheck(rows)).toMatchObject({
      'Private key': 'ok',
      'Pepa on the provider': 'ok',
      'Pepa matches the repository': 'ok',
      'Public key restricted': 'skip',
      'CSP allows the gate': 'ok',
      'Web call': 'skip',
    });
    const table = formatDoctorTable(rows);
    expect(table).toMatch(
      /^Gate limits\s+ok\s+10 calls at once, 25 USD a day at 0\.15 USD a minute, 180 s a call \(at least 55 calls a day\), from gate\/wrangler\.jsonc$/m,
    );
    expect(table).toMatch(
      /^Text engine\s+ok\s+the model at https:\/\/api\.openai\.com\/v1, USD 0\.15 \/ 0\.075 \/ 0\.6 per million tokens \(prompt \/ cached \/ completion\): a reply of 1500 prompt and 100 completion tokens costs about USD 0\.000285; MODEL_API_KEY set here/m,
    );
    expect(table).toMatch(
      new RegExp(
        `^Pepa reports to the gate\\s+ok\\s+https://pepa-court\\.example\\.org/api/provider-events with ${PEPA_GATE_CREDENTIAL_NAME}: status-update, end-of-call-report$`,
        'm',
      ),
    );
    // Still read-only, and every request is one the provider's contract accepts.
    expect(provider.requests.every((request) => request.method === 'GET')).toBe(true);
    expect(provider.requests.map((request) => request.path)).toContain('/credential');
    for (const request of provider.requests) {
      expect(request.contract).toEqual({ status: 200, violations: null });
    }
  });

  it('names each missing, weak or test secret, and a secret in a VITE_ variable', async () => {
    const { provider, env } = await gateProvider();
    const rows = await runDoctor({
      env: {
        ...env,
        GATE_ADMIN_TOKEN: undefined,
        GATE_VISITOR_SALT: 'salt',
        TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA',
        VITE_GATE_WEBHOOK_SECRET: env.GATE_WEBHOOK_SECRET,
        VITE_TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
      },
      dist: await gateBuild('gate-secrets'),
      fetch: provider.fetch,
    });
    expect(rows.find((row) => row.check === 'Gate secrets')).toMatchObject({
      status: 'fail',
      detail:
        "GATE_ADMIN_TOKEN not set; GATE_VISITOR_SALT shorter than 32 characters; TURNSTILE_SECRET_KEY is one of Cloudflare's test keys; VITE_GATE_WEBHOOK_SECRET would put a gate secret in the page",
      fix: expect.stringContaining('wrangler secret put'),
    });
    expect(rows.find((row) => row.check === 'Bot check site key')).toMatchObject({
      status: 'fail',
      detail: "VITE_TURNSTILE_SITE_KEY is one of Cloudflare's test keys",
    });
    const missing = await runDoctor({
      env: { ...env, VITE_TURNSTILE_SITE_KEY: undefined },
      dist: await gateBuild('gate-secrets'),
      fetch: provider.fetch,
    });
    expect(missing.find((row) => row.check === 'Bot check site key')).toMatchObject({
      status: 'fail',
      detail: 'VITE_TURNSTILE_SITE_KEY is not set',
    });
  });

  it('checks the limits the Worker will run with: set, valid and a budget that can open', async () => {
    const { provider, env } = await gateProvider();
    const dist = await gateBuild('gate-limits');
    // The Worker's other limits, as the project's wrangler.jsonc sets them: the Worker has no
    // defaults, so the doctor requires every one.
    const project = await wranglerVars();
    if ('problem' in project) throw new Error(project.problem);
    const {
      GATE_MAX_CONCURRENT_CALLS: _concurrent,
      GATE_DAILY_BUDGET_USD: _daily,
      GATE_COST_PER_MINUTE_USD: _rate,
      GATE_MAX_CALL_SECONDS: _seconds,
      ...others
    } = project.vars;
    const limitsWith = async (vars: Record<string, string>, shell: Record<string, string> = {}) => {
      const config = join(work, `wrangler-${Object.keys(vars).length}-${Math.random()}.jsonc`);
      const all = { ...others, ...vars };
      await writeFile(
        config,
        `// the Worker\n{\n  "name": "pepa-site", // site\n  "vars": ${JSON.stringify(all)},\n}\n`,
      );
      const rows = await runDoctor({
        env: { ...env, ...shell },
        dist,
        wranglerConfig: config,
        fetch: provider.fetch,
      });
      return rows.find((row) => row.check === 'Gate limits');
    };
    const valid = {
      GATE_MAX_CONCURRENT_CALLS: '10',
      GATE_DAILY_BUDGET_USD: '25',
      GATE_COST_PER_MINUTE_USD: '0.15',
      GATE_MAX_CALL_SECONDS: '180',
    };
    const { GATE_DAILY_BUDGET_USD: _budget, ...noBudget } = valid;
    expect(await limitsWith(noBudget)).toMatchObject({
      status: 'fail',
      detail: 'GATE_DAILY_BUDGET_USD not set',
    });
    expect(await limitsWith({ ...valid, GATE_MAX_CONCURRENT_CALLS: 'ten' })).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^GATE_MAX_CONCURRENT_CALLS must be a whole number/),
    });
    expect(await limitsWith({ ...valid, GATE_DAILY_BUDGET_USD: '0' })).toMatchObject({
      status: 'fail',
      detail: 'GATE_DAILY_BUDGET_USD is 0: the court would never open',
    });
    // A pace out of range: a clear error, and the Worker serves neither calls nor text.
    expect(await limitsWith({ ...valid, GATE_PACE_RELEASES: '0' })).toMatchObject({
      status: 'fail',
      detail: 'GATE_PACE_RELEASES must be a whole number from 1 to 96 (got "0")',
    });
    expect(await limitsWith({ ...valid, GATE_PACE_BURST_SHARES: '-1' })).toMatchObject({
      status: 'fail',
      detail: 'GATE_PACE_BURST_SHARES must be a number from 0 to 96 (got "-1")',
    });
    // A simulated clock for the pace is a local simulation's: a deployed site never runs it.
    const fast = { ...valid, GATE_PACE_CLOCK: '2030-01-15T00:00:00Z@1764633600000 360' };
    const local = expect.stringMatching(/^GATE_PACE_CLOCK is a local simulation's clock/);
    expect(await limitsWith(fast)).toMatchObject({ status: 'fail', detail: local });
    // What the shell exports overrides wrangler.jsonc (npm run deploy passes it on).
    expect(await limitsWith(noBudget, { GATE_DAILY_BUDGET_USD: '100' })).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/100 USD a day.*, from \S+\.jsonc and this shell$/),
    });
  });

  it('fails while no site origin is set for the cards, and warns when it is not the gate’s', async () => {
    const { provider, env } = await gateProvider();
    const dist = await gateBuild('gate-origin');
    const originRow = async (shell: Record<string, string | undefined>) =>
      (await runDoctor({ env: { ...env, ...shell }, dist, fetch: provider.fetch })).find(
        (row) => row.check === 'Site origin',
      );
    expect(await originRow({ GATE_SITE_ORIGIN: undefined })).toMatchObject({
      status: 'fail',
      detail: 'GATE_SITE_ORIGIN is not set: no quote card can be made',
      fix: expect.stringContaining('npm run deploy'),
    });
    expect(await originRow({ GATE_SITE_ORIGIN: 'http://pepa-court.example.org' })).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/^GATE_SITE_ORIGIN must be the site's origin/),
    });
    expect(await originRow({ GATE_SITE_ORIGIN: 'https://pepa.example' })).toMatchObject({
      status: 'warn',
      detail: 'cards name https://pepa.example, but the gate is at https://pepa-court.example.org',
    });
  });

  it("fails when Pepa does not report to the gate, or her call limit is not the gate's", async () => {
    // Synced without GATE_URL: no server, no server messages.
    const provider = providerStandIn({ validateWith: prismUrl });
    const synced = await syncAssistant({
      privateKey: GATE.VAPI_PRIVATE_KEY,
      baseUrl: 'http://provider.test',
      assistant: pepaAssistant(),
      fetch: provider.fetch,
      log: () => {},
    });
    const env = { ...GATE, VAPI_ASSISTANT_ID: synced.id, GATE_MAX_CALL_SECONDS: '300' };

    const rows = await runDoctor({
      env,
      dist: await gateBuild('gate-drift'),
      fetch: provider.fetch,
    });

    const failed = Object.fromEntries(
      rows.filter((row) => row.status === 'fail').map((row) => [row.check, row.detail]),
    );
    expect(failed).toEqual({
      'Webhook credential': `no webhook credential named ${PEPA_GATE_CREDENTIAL_NAME}`,
      'Pepa reports to the gate':
        'server URL is unset, not https://pepa-court.example.org/api/provider-events; server credential is unset, not pepa-court-gate; serverMessages lack status-update, end-of-call-report',
      'Call limit agrees': expect.stringMatching(
        /^Pepa's maxDurationSeconds 180, the gate's GATE_MAX_CALL_SECONDS 300/,
      ),
      'Pepa matches the repository': '2 field(s) differ: serverMessages, server',
      ...(failed['Site configuration']
        ? { 'Site configuration': failed['Site configuration'] }
        : {}),
    });
    expect(rows.find((row) => row.check === 'Pepa reports to the gate')?.fix).toMatch(
      /npm run assistant:sync.*GATE_URL and GATE_WEBHOOK_SECRET/,
    );
  });
});
