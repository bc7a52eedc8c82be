// npm run doctor's table, for a configuration ready to go live and for ones that are not. The
// provider is a stateful stand-in whose every request is also validated by Prism serving the
// vendored spec; calls are Prism's own answers.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDoctorTable, runDoctor, type DoctorRow } from '../../assistant/doctor';
import { pepaAssistant } from '../../assistant/pepa';
import { restrictKey } from '../../assistant/restrict-key';
import { syncAssistant } from '../../assistant/sync';
import { providerStandIn } from '../../assistant/testing/provider-stand-in';
import { startPrism } from '../../scripts/lib/prism.mjs';
import { headersFile } from '../../scripts/site-html-plugin';
import { parseSiteConfig } from '../../src/config/site-config';

let prism: Awaited<ReturnType<typeof startPrism>>;
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

/** A provider where Pepa was synced and the public key restricted, as the README's steps do. */
async function readyProvider() {
  const provider = providerStandIn({ validateWith: prism.url });
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
  prism = await startPrism({ quiet: true });
  work = await mkdtemp(join(tmpdir(), 'pepa-doctor-'));
});
afterAll(async () => {
  await prism?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('npm run doctor', () => {
  it('reports a synced assistant, a restricted key and a live build as ready', async () => {
    const { provider, env } = await readyProvider();
    const dist = await builtSite('live', env);
    provider.requests.length = 0;

    const rows = await runDoctor({ env, dist, fetch: provider.fetch });

    expect(byCheck(rows)).toEqual({
      'Site configuration': 'ok',
      'Site URL': 'ok',
      'Token mint': 'ok',
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
    expect(table.split('\n').at(-1)).toBe('Ready for a live build.');
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
      env: { ...LIVE, VAPI_PRIVATE_KEY: undefined, VAPI_API_URL: prism.url },
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
