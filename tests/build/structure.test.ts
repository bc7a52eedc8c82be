import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, sourceFiles } from '../support/import-graph';

const root = resolve(import.meta.dirname, '..', '..');
const ROOMS = ['src', 'gate', 'assistant', 'scripts'];
/** A module a newcomer can read in one sitting; tests and generated code are not held to it. */
const MAX_MODULE_LINES = 450;
/**
 * Known debts, each to be paid and then removed from here: a module listed may not grow past its
 * figure, and a new long module or a new cycle fails at once.
 */
const LONG_MODULES_OWED: Record<string, number> = {};
const CYCLES_OWED: string[][] = [];
const TEST_CODE = /(\.test\.[cm]?[jt]sx?$)|(^gate\/test\/)|(\/test\/)/;

describe('the import graph', () => {
  it('finds a cycle of two files and one of three, and none in a tree', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts', 'c.ts']],
      ['c.ts', []],
      ['d.ts', ['e.ts']],
      ['e.ts', ['f.ts']],
      ['f.ts', ['d.ts']],
      ['g.ts', ['g.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts'], ['d.ts', 'e.ts', 'f.ts'], ['g.ts']]);
    expect(
      importCycles(
        new Map([
          ['x.ts', ['y.ts']],
          ['y.ts', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads imports the way TypeScript does: type-only, lazy and re-exports count', () => {
    const files = sourceFiles(root, ['src/features/talk']);
    const graph = importGraph(root, files);
    // A lazy import() of the simulator, a static import of the call object.
    expect(graph.get('src/features/talk/voice-runtime.ts')).toEqual(
      expect.arrayContaining(['src/features/talk/chunk-recovery.ts']),
    );
  });

  it(`has no import cycle in ${ROOMS.join(', ')} but the one owed`, () => {
    const files = sourceFiles(root, ROOMS);
    expect(files.length).toBeGreaterThan(100);
    expect(importCycles(importGraph(root, files))).toEqual(CYCLES_OWED);
  });
});

describe('the modules', () => {
  it(`are at most ${MAX_MODULE_LINES} lines each outside tests and generated code, and no owed one grows`, () => {
    const long = sourceFiles(root, ROOMS)
      .filter((file) => !TEST_CODE.test(file))
      .map((file) => ({
        file,
        lines: readFileSync(resolve(root, file), 'utf8').split('\n').length,
      }))
      .filter(({ file, lines }) => lines > (LONG_MODULES_OWED[file] ?? MAX_MODULE_LINES));
    expect(long).toEqual([]);
  });
});
