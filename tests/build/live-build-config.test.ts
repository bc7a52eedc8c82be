// The deployment build as a process. Every build here goes to a temporary folder, never dist/.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffSnapshots, snapshotTree } from '../support/tree-snapshot';

const root = resolve(import.meta.dirname, '../..');

/** The caller's environment without the site's variables and without Vitest's own markers. */
function cleanEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([key]) => !key.startsWith('VITE_') && !key.startsWith('VITEST') && key !== 'NODE_ENV',
  );
  return { ...Object.fromEntries(kept), ...extra };
}

let outDir: string;
const sentinel = () => join(outDir, 'sentinel.txt');

beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'pepa-build-test-'));
  await writeFile(sentinel(), 'left by the test');
});
afterEach(async () => {
  await rm(outDir, { recursive: true, force: true });
});

function build(env: NodeJS.ProcessEnv, args: string[] = []) {
  return spawnSync(process.execPath, ['scripts/build.mjs', `--out=${outDir}`, ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('a deployment build', () => {
  it('fails, naming the missing bot check key and the demo command, when a gate build lacks it', () => {
    const result = build(cleanEnvironment({ VITE_VAPI_PUBLIC_KEY: '' }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Build failed: Invalid site configuration:');
    expect(result.stderr).toContain(
      'VITE_TURNSTILE_SITE_KEY must be set for a live build: the gate checks every visitor with Turnstile before a call (for the offline demo, run `npm run build:demo` instead)',
    );
    // Refused before the output folder was emptied.
    expect(existsSync(sentinel())).toBe(true);
  });

  it('names a malformed variable too, before anything is built', () => {
    const result = build(
      cleanEnvironment({
        VITE_VAPI_PUBLIC_KEY: 'pk',
        VITE_VAPI_ASSISTANT_ID: 'asst',
        VITE_COURT_URL: 'not a url',
      }),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('VITE_COURT_URL must be an absolute URL (got "not a url")');
    expect(existsSync(sentinel())).toBe(true);
  });

  it("still validates when spawned from a test (Vitest's variables inherited)", () => {
    const inherited: NodeJS.ProcessEnv = {
      ...process.env,
      VITEST: 'true',
      VITE_VAPI_PUBLIC_KEY: '',
    };
    delete inherited.VITE_PEPA_DEMO;
    const result = build(inherited);
    expect(result.stderr).toContain('Invalid site configuration');
    expect(result.status).toBe(1);
    expect(existsSync(sentinel())).toBe(true);
  });

  it('refuses a MOCK_PORT that is not a port, in one line', () => {
    const result = build(cleanEnvironment({ MOCK_PORT: 'abc' }), ['--demo']);
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'Build failed: MOCK_PORT must be a port number from 1 to 65535 (got "abc"); try MOCK_PORT=4010',
    );
  });
});

describe('the tree guard of `npm test`', () => {
  it('sees a file added, removed or changed under a guarded folder', async () => {
    await writeFile(join(outDir, 'a.txt'), 'a');
    const before = snapshotTree(outDir, ['.']);
    await writeFile(join(outDir, 'a.txt'), 'b');
    await writeFile(join(outDir, 'c.txt'), 'c');
    await rm(sentinel());
    expect(diffSnapshots(before, snapshotTree(outDir, ['.']))).toEqual([
      'added: c.txt',
      'changed: a.txt',
      'removed: sentinel.txt',
    ]);
  });

  it('finds the working tree as it was so far in this run', () => {
    // The guard itself compares at the end of the run; this checks the fingerprint is stable.
    expect(diffSnapshots(snapshotTree(root), snapshotTree(root))).toEqual([]);
  });
});
