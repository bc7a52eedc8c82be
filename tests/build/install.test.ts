// A clean install: a lockfile complete for every platform the README supports, and an install
// step that runs plain `npm ci` and keeps the happy path to two lines.
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
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
  it('runs plain npm ci with warnings off and prints two lines on success', async () => {
    const result = await install('echo ""; echo "added 797 packages in 40s"');
    expect(result.status).toBe(0);
    expect(result.args[0]).toBe('ci');
    expect(result.args).toContain('--loglevel=error');
    expect(result.stdout.trim().split('\n')).toEqual([
      'Installing the locked dependencies (npm ci, about a minute on a fresh clone)…',
      'Dependencies: added 797 packages in 40s',
    ]);
    expect(result.stderr).toBe('');
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
  engines?: { node?: string };
  hasInstallScript?: boolean;
  optional?: boolean;
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(resolve(root, file), 'utf8')) as T;
}

type Version = [number, number, number];

/** `20.19`, `v12.22.7`, `6.*`, `4.x`: the lowest version it names and how many parts it fixes. */
function partial(text: string): { version: Version; fixed: number } {
  const parts = text.replace(/^v/, '').split('.');
  const numbers = parts.filter((part) => /^\d+$/.test(part)).map(Number);
  const fixed = parts.findIndex((part) => !/^\d+$/.test(part));
  const [major = 0, minor = 0, patch = 0] = numbers;
  return { version: [major, minor, patch], fixed: fixed === -1 ? parts.length : fixed };
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Whether `version` satisfies one comparator of a node-semver range (`>=18`, `^20.9.0`, `14`). */
function satisfiesComparator(version: Version, comparator: string): boolean {
  const match = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
  if (!match) return false;
  const [, operator = '=', rest = ''] = match;
  if (rest === '*' || rest === 'x') return true;
  const { version: bound, fixed } = partial(rest);
  const order = compare(version, bound);
  /** The first version past the range a partial or caret/tilde bound allows. */
  const ceiling = (level: number): Version =>
    level <= 0 ? [bound[0] + 1, 0, 0] : level === 1 ? [bound[0], bound[1] + 1, 0] : [...bound];
  switch (operator) {
    case '>=':
      return order >= 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '<':
      return order < 0;
    case '^': {
      const level = bound[0] > 0 || fixed < 2 ? 0 : bound[1] > 0 || fixed < 3 ? 1 : 2;
      return order >= 0 && (level === 2 ? order === 0 : compare(version, ceiling(level)) < 0);
    }
    case '~':
      return order >= 0 && compare(version, ceiling(fixed < 2 ? 0 : 1)) < 0;
    default:
      return fixed >= 3 ? order === 0 : order >= 0 && compare(version, ceiling(fixed - 1)) < 0;
  }
}

/** Whether `version` satisfies a node-semver range of comparator sets joined by `||`. */
function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((set) =>
    set
      .trim()
      .replace(/(\^|~|>=|<=|>|<|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean)
      .every((comparator) => satisfiesComparator(version, comparator)),
  );
}

describe('a quiet npm ci', () => {
  it('reads node-semver ranges as npm does', () => {
    expect(satisfies([20, 19, 0], '>=22.14.0')).toBe(false);
    expect(satisfies([20, 19, 0], '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
    expect(satisfies([20, 19, 0], '>=22.12.0 || >=20.19.0 <21.0.0')).toBe(true);
    expect(satisfies([20, 19, 0], '6.* || 8.* || >= 10.*')).toBe(true);
    expect(satisfies([20, 19, 0], '18 || 20 || >=22')).toBe(true);
    expect(satisfies([20, 19, 0], '^20.20.0 || >=22')).toBe(false);
    expect(satisfies([20, 19, 0], '~20.18.0')).toBe(false);
    expect(satisfies([20, 19, 0], '20.18')).toBe(false);
  });

  it("states a Node range every installed package's engines accept, from its lowest version", async () => {
    const manifest = await readJson<{ engines: { node: string } }>('package.json');
    const floor = /^>=\s*(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)?.[1];
    expect(floor, 'engines.node is a lower bound, >=x.y.z').toBeDefined();
    const lowest = partial(floor ?? '').version;
    const lock = await readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => entry.engines?.node && !satisfies(lowest, entry.engines.node))
      .map(([path, entry]) => `${path} wants Node ${entry.engines?.node}`);
    expect(refusing).toEqual([]);
  });

  it('decides, in package.json, every locked package that has install scripts', async () => {
    const manifest = await readJson<{ allowScripts?: Record<string, boolean> }>('package.json');
    const lock = await readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = withScripts.filter((name) => manifest.allowScripts?.[name] === undefined);
    expect(undecided).toEqual([]);
  });
});
