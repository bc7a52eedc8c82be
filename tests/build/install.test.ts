// A clean install: a lockfile complete for every platform the README supports, and an install
// step that runs plain `npm ci` and keeps the happy path to two lines.
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { subset, validRange } from 'semver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let work: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'pepa-install-test-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Runs ensureDependencies on an empty checkout with `npm` replaced by `script`. */
async function install(script: string) {
  const bin = join(work, 'bin');
  const checkout = join(work, 'checkout');
  await mkdir(bin, { recursive: true });
  await mkdir(checkout, { recursive: true });
  await writeFile(join(checkout, 'package-lock.json'), '{}');
  await writeFile(join(bin, 'npm'), `#!/bin/sh\necho "$@" > "${join(work, 'args')}"\n${script}\n`);
  await chmod(join(bin, 'npm'), 0o755);
  const module = JSON.stringify(resolve(root, 'scripts/lib/ensure-deps.mjs'));
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `(await import(${module})).ensureDependencies(${JSON.stringify(checkout)})`,
    ],
    {
      env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` },
      encoding: 'utf8',
    },
  );
  const args = await readFile(join(work, 'args'), 'utf8').catch(() => '');
  return { ...result, args: args.trim().split(' ') };
}

describe('installing dependencies', () => {
  it('runs plain npm ci and prints two lines on success', async () => {
    const result = await install('echo ""; echo "added 797 packages in 40s"');
    expect(result.status).toBe(0);
    expect(result.args).toEqual(['ci', '--no-audit', '--no-fund']);
    expect(result.stdout.trim().split('\n')).toEqual([
      'Installing the locked dependencies (npm ci, about a minute on a fresh clone)…',
      'Dependencies: added 797 packages in 40s',
    ]);
    expect(result.stderr).toBe('');
  });

  it("shows npm's warnings, so an unsupported Node is seen", async () => {
    const warning = 'npm warn EBADENGINE Unsupported engine';
    // Like npm, the stand-in prints warnings unless told to log errors only.
    const result = await install(
      `case "$*" in *--loglevel=error*) ;; *) echo "${warning}" >&2 ;; esac; echo "added 1 package"`,
    );
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(warning);
  });

  it("shows npm's errors and fails in one line of its own when npm ci fails", async () => {
    const result = await install('echo "npm error code EUSAGE" >&2; exit 1');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('npm error code EUSAGE');
    expect(result.stderr.trim().split('\n').pop()).toMatch(/^Installing dependencies failed/);
  });

  it('has a lockfile with the native binaries of Linux, macOS and Windows', async () => {
    const lock = JSON.parse(await readFile(resolve(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    for (const pkg of ['@tailwindcss/oxide', '@rolldown/binding']) {
      for (const platform of ['linux-x64-gnu', 'darwin-arm64', 'darwin-x64', 'win32-x64-msvc']) {
        expect(lock.packages, `${pkg}-${platform}`).toHaveProperty([
          `node_modules/${pkg}-${platform}`,
        ]);
      }
    }
  });
});

interface LockedPackage {
  hasInstallScript?: boolean;
  engines?: { node?: string } | string[];
  optional?: boolean;
  os?: string[];
  cpu?: string[];
}

/** The systems and processors the project's Node runs on (its lockfile's native binaries'). */
const SUPPORTED_OS = ['linux', 'darwin', 'win32'];
const SUPPORTED_CPU = ['x64', 'arm64'];

/**
 * Whether npm could install the package on a machine the project supports. An optional one for
 * another (Windows on 32-bit x86, say, which no supported Node runs on) is skipped without a word.
 */
function installsOnSupportedMachine(entry: LockedPackage): boolean {
  if (!entry.optional) return true;
  const runs = (wanted: string[] | undefined, supported: string[]) =>
    wanted === undefined || supported.some((item) => wanted.includes(item));
  return runs(entry.os, SUPPORTED_OS) && runs(entry.cpu, SUPPORTED_CPU);
}

/** The package a lockfile path installs: `node_modules/a/node_modules/@b/c` → `@b/c`. */
function packageName(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(resolve(root, file), 'utf8')) as T;
}

describe('a quiet npm ci', () => {
  it('decides, in package.json, every locked package that has install scripts', async () => {
    const manifest = await readJson<{ allowScripts?: Record<string, boolean> }>('package.json');
    const lock = await readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => packageName(path));
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = withScripts.filter((name) => manifest.allowScripts?.[name] === undefined);
    expect(undecided).toEqual([]);
  });

  it("states a Node range that every locked package's own engines.node admits", async () => {
    const manifest = await readJson<{ engines: { node: string } }>('package.json');
    const lock = await readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');
    expect(validRange(manifest.engines.node)).not.toBeNull();
    const narrower = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (path === '' || node === undefined || !installsOnSupportedMachine(entry)) return [];
      const admits = validRange(node) !== null && subset(manifest.engines.node, node);
      return admits ? [] : [`${packageName(path)}: ${node}`];
    });
    expect(narrower).toEqual([]);
  });
});
