// `npm run typecheck` keeps the compiler's state in .cache/typecheck, and spec:update starts each
// candidate's check from the repository's: a state moved to another tree must point at that
// tree's own files and at the dependencies where they really are, and a stale one (from another
// tree, or from before a change) may cost time but never hide an error.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TYPECHECK_CACHE,
  copyTypecheckCache,
  movedBuildInfo,
} from '../../scripts/lib/spec-project-checks.mjs';

const repoRoot = resolve(import.meta.dirname, '../..');
// The compiler `npm run typecheck` runs (TypeScript 7; the 5.x package beside it is the library
// ESLint and the client generator load).
const tsc = join(repoRoot, 'node_modules', 'typescript-native', 'bin', 'tsc');

describe('a typecheck cache moved to another tree', () => {
  /** A state of the checkout at /checkout, moved to a candidate's copy of it, read back. */
  function movedToCandidate(state: object): unknown {
    const moved = movedBuildInfo(
      JSON.stringify(state),
      { root: '/checkout', dir: '/checkout/.cache/typecheck' },
      { root: '/tmp/candidate/project', dir: '/tmp/candidate/project/.cache/typecheck' },
    );
    return moved === undefined ? undefined : JSON.parse(moved);
  }

  it("keeps the tree's own files in their place and the dependencies at their real location", () => {
    const state = {
      fileNames: [
        '../../node_modules/typescript/lib/lib.es5.d.ts',
        '../../src/app.ts',
        '../../generated/types.gen.ts',
      ],
      version: '5.9.3',
    };
    expect(movedToCandidate(state)).toEqual({
      fileNames: [
        '../../../../../checkout/node_modules/typescript/lib/lib.es5.d.ts',
        '../../src/app.ts',
        '../../generated/types.gen.ts',
      ],
      version: '5.9.3',
    });
  });

  it('moves the package.json files the compiler read or looked for with its files', () => {
    const state = {
      fileNames: ['lib.es5.d.ts', '../../src/app.ts'],
      packageJsons: ['../../node_modules/react/package.json', '../../package.json'],
      missingPackageJsons: ['../../src/package.json'],
      version: '7.0.2',
    };
    expect(movedToCandidate(state)).toEqual({
      fileNames: ['lib.es5.d.ts', '../../src/app.ts'],
      packageJsons: [
        '../../../../../checkout/node_modules/react/package.json',
        '../../package.json',
      ],
      missingPackageJsons: ['../../src/package.json'],
      version: '7.0.2',
    });
  });

  it('is not used when it was cut short or is not a compiler state', () => {
    const places = { root: '/a', dir: '/a/.cache/typecheck' };
    expect(movedBuildInfo('{"fileNames":["../../src/app.ts"', places, places)).toBeUndefined();
    expect(movedBuildInfo('{"files":[]}', places, places)).toBeUndefined();
    expect(movedBuildInfo('{"fileNames":[1]}', places, places)).toBeUndefined();
    expect(
      movedBuildInfo('{"fileNames":[],"packageJsons":[null]}', places, places),
    ).toBeUndefined();
  });
});

describe('the compiler started from a stale cache of another tree', () => {
  let work: string;

  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'pepa-typecheck-cache-'));
  });

  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  /** A project like the repository's: incremental, its state in .cache, node_modules linked. */
  async function project(name: string, shape: string) {
    const root = join(work, name);
    await mkdir(join(root, 'src'), { recursive: true });
    await symlink(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
    const compilerOptions = {
      strict: true,
      noEmit: true,
      incremental: true,
      tsBuildInfoFile: `${TYPECHECK_CACHE}/app.tsbuildinfo`,
      module: 'ESNext',
      moduleResolution: 'Bundler',
      target: 'ES2022',
      types: [],
    };
    await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions }));
    await writeFile(join(root, 'src', 'shape.ts'), `export type Shape = ${shape};\n`);
    await writeFile(
      join(root, 'src', 'use.ts'),
      "import type { Shape } from './shape';\nexport const shape: Shape = { name: 'Pepa' };\n",
    );
    return root;
  }

  function typecheck(root: string) {
    const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], {
      cwd: root,
      encoding: 'utf8',
    });
    return { code: run.status, output: `${run.stdout}${run.stderr}` };
  }

  it('still reports the errors a change causes in files the cache knew as clean', async () => {
    const clean = await project('clean', '{ name: string }');
    expect(typecheck(clean)).toEqual({ code: 0, output: '' });
    expect(existsSync(join(clean, TYPECHECK_CACHE, 'app.tsbuildinfo'))).toBe(true);

    // Another tree, where the type changed under a file the clean state has without errors.
    const changed = await project('changed', '{ title: string }');
    copyTypecheckCache(clean, changed);
    const seeded = await readFile(join(changed, TYPECHECK_CACHE, 'app.tsbuildinfo'), 'utf8');
    expect(JSON.parse(seeded).fileNames).toContain('../../src/use.ts');

    const result = typecheck(changed);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/src\/use\.ts\(2,31\): error TS2353: .*'name' does not exist/);
  });
});
