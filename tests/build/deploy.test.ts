// npm run deploy: the gate's checks first, then the live build, then `wrangler deploy`. Its dry run
// bundles the Worker offline; here it builds into a temporary folder, never dist/.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDeployArgs, wranglerArgs } from '../../scripts/deploy.mjs';

const root = resolve(import.meta.dirname, '../..');
const PRIVATE_KEY = 'sk-private-canary-5f1d2c9a7b3e4d6f';
const WEBHOOK_SECRET = 'webhook-canary-'.padEnd(48, 'x');

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pepa-deploy-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A live gate build's variables, with secrets exported as the owner would before deploying. */
const gateEnv = () => ({
  PATH: process.env.PATH ?? '',
  HOME: join(work, 'home'),
  VITE_SITE_URL: 'https://pepa-court.example.org',
  VITE_TOKEN_MINT: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
  VITE_TURNSTILE_SITE_KEY: '0x4AAAAAAAPepaCourtSiteKey',
  VAPI_PRIVATE_KEY: PRIVATE_KEY,
  GATE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  GATE_DAILY_BUDGET_USD: '40',
  // Nothing answers here: the doctor's provider lines fail at once, offline.
  VAPI_API_URL: 'http://127.0.0.1:9',
  WRANGLER_SEND_METRICS: 'false',
});

function runDeploy(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn(process.execPath, ['scripts/deploy.mjs', ...args], { cwd: root, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => done({ code, output }));
  });
}

async function textOfTree(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  const texts = await Promise.all(
    files.map((entry) => readFile(join(entry.parentPath, entry.name), 'latin1')),
  );
  return texts.join('\n');
}

describe('npm run deploy', () => {
  it('with --dry-run builds into the given folder and bundles the Worker offline, with no secret in either', async () => {
    const site = join(work, 'site');
    const bundle = join(work, 'bundle');

    const { code, output } = await runDeploy(
      ['--dry-run', '--out', site, '--outdir', bundle],
      gateEnv(),
    );

    expect(code, output).toBe(0);
    // The gate's checks were shown, and a real deploy would have stopped on them.
    expect(output).toMatch(/Gate URL\s+FAIL\s+GATE_URL is not set/);
    expect(output).toContain('deploy: a real deploy would stop here (');
    // wrangler was given the temporary build and the shell's budget.
    expect(output).toContain(
      `deploy: wrangler deploy -c gate/wrangler.jsonc --assets ${site} --var GATE_DAILY_BUDGET_USD:40 --dry-run --outdir ${bundle}`,
    );
    expect(output).toContain('--dry-run: exiting now.');
    expect(existsSync(join(site, 'index.html'))).toBe(true);
    expect(existsSync(join(site, '_headers'))).toBe(true);

    const worker = await readFile(join(bundle, 'index.js'), 'utf8');
    // The bundler numbers a name imported by several modules: DurableObject, DurableObject2…
    expect(worker).toMatch(/\bvar Court = class extends DurableObject\d*\b/);
    expect(worker).toMatch(/\bvar TextDesk = class extends DurableObject\d*\b/);
    expect(worker).toMatch(/export\s*\{[^}]*\bCourt\b[^}]*\}/);
    for (const text of [worker, await textOfTree(site)]) {
      expect(text).not.toContain(PRIVATE_KEY);
      expect(text).not.toContain(WEBHOOK_SECRET);
    }
  }, 240_000);

  it('refuses a real deploy while a gate check fails, before building anything', async () => {
    const site = join(work, 'refused');
    const { code, output } = await runDeploy(['--out', site], gateEnv());
    expect(code).toBe(1);
    expect(output).toMatch(
      /^deploy: not deploying: \d+ gate check\(s\) need attention \(Gate secrets, Text engine, Gate URL, .*\)\. Fix them \(npm run doctor\), or pass --force\.$/m,
    );
    expect(existsSync(site)).toBe(false);
    expect(output).not.toContain('wrangler deploy');
  }, 60_000);

  it('refuses a real deploy of a page that holds the public key, naming the risk', async () => {
    const site = join(work, 'static');
    const { code, output } = await runDeploy(['--out', site], {
      ...gateEnv(),
      VITE_VAPI_PUBLIC_KEY: 'pk-live-1',
      VITE_VAPI_ASSISTANT_ID: 'a1',
    });
    expect(code).toBe(1);
    expect(output).toMatch(/Court gate\s+WARN\s+UNPROTECTED: .*anyone can make billed calls/);
    expect(output).toMatch(/not deploying: 1 gate check\(s\) need attention \(Court gate\)/);
    expect(existsSync(site)).toBe(false);
  }, 60_000);

  it('with --skip-build deploys only a folder that holds a build', async () => {
    const empty = join(work, 'empty');
    const { code, output } = await runDeploy(
      ['--dry-run', '--skip-build', '--out', empty],
      gateEnv(),
    );
    expect(code).toBe(1);
    expect(output).toContain(`deploy: --skip-build, but ${empty} holds no build.`);
    expect(output).not.toContain('wrangler deploy');
  }, 60_000);

  it('keeps its own options and passes every other one to wrangler', () => {
    expect(parseDeployArgs(['--dry-run', '--out=tmp/site', '--force', '--outdir', 'b'])).toEqual({
      options: { dryRun: true, force: true, skipBuild: false, out: 'tmp/site' },
      wrangler: ['--dry-run', '--outdir', 'b'],
    });
    expect(() => parseDeployArgs(['--out'])).toThrow('--out needs a folder');
    expect(() => parseDeployArgs(['-c', 'other.jsonc'])).toThrow(/gate\/wrangler\.jsonc/);
    expect(
      wranglerArgs({
        out: 'dist',
        env: { GATE_MAX_CONCURRENT_CALLS: ' 4 ', GATE_DAILY_BUDGET_USD: '' },
        overridable: ['GATE_MAX_CONCURRENT_CALLS', 'GATE_DAILY_BUDGET_USD'],
        extra: ['--minify'],
      }),
    ).toEqual([
      'deploy',
      '-c',
      'gate/wrangler.jsonc',
      '--assets',
      resolve(root, 'dist'),
      '--var',
      'GATE_MAX_CONCURRENT_CALLS:4',
      '--minify',
    ]);
  });
});
