import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, sourceFiles } from '../support/import-graph';

const root = resolve(import.meta.dirname, '..', '..');
const ROOMS = ['src', 'gate', 'assistant', 'scripts'];
/** Every folder of the project's own code, tests and test kits included (generated code is not). */
const ALL_CODE = [...ROOMS, 'tests', 'e2e'];
/** A module a newcomer can read in one sitting: code, test kits and tests alike. */
const MAX_MODULE_LINES = 450;
/**
 * Known debts, each to be paid and then removed from here: a module listed may not grow past its
 * figure, and a new long module or a new cycle fails at once. All are tests, each a long list of
 * cases to be split by what they test.
 */
const LONG_MODULES_OWED: Record<string, number> = {
  'e2e/engines/arrivals.engine.ts': 568,
  'e2e/talk-field.spec.ts': 557,
  'e2e/text-with-pepa.spec.ts': 521,
  'e2e/visitor-call.spec.ts': 500,
  'src/lib/call/official-client.differential.test.ts': 701,
  'src/lib/call/simulator/room-simulator.test.ts': 780,
  'tests/local-stack/provider-stand-in.test.ts': 524,
};
const CYCLES_OWED: string[][] = [];
const TEST_CODE = /(\.test\.[cm]?[jt]sx?$)|(^gate\/test-workerd\/)|(\/test\/)/;

const TALK = 'src/features/talk';
/**
 * The parts of Talk to Pepa (its folders), and the parts each one's modules may import: the section composes
 * the rest; the call's state and runtime (voice/) know only the way out of a failed load; the
 * text conversation (text/) uses the guards and the failure words, and takes its gate client and
 * its bot check from src/api, as the call does, never from the voice part; the
 * call's controls and the text conversation offer sharing Pepa's lines (share/), which, like the
 * guards and recovery, stands alone. thread/ is what the chat and the call share of one
 * conversation (its lines, the message's measure). status/ decides what the panel says of the
 * call (for the panel and any other view of the call). `test/` is the parts' shared test kit.
 */
const TALK_PARTS: Record<string, readonly string[]> = {
  section: ['voice', 'controls', 'page-tools', 'guards', 'recovery', 'text', 'thread', 'status'],
  controls: ['voice', 'guards', 'share', 'thread'],
  text: ['guards', 'recovery', 'share', 'thread'],
  // The one conversation, typed and spoken: its lines and marks, the message field's measure,
  // Copy and Download, Write to Pepa. Used by the call's controls and the chat alike.
  thread: ['voice', 'share'],
  'page-tools': ['voice'],
  // What the panel says of the call and how it is said: the one truth of its lines, Escape's
  // question, the toasts' lane, the one scroll at a press.
  status: ['voice'],
  share: [],
  guards: [],
  recovery: [],
  voice: ['recovery'],
  test: ['voice'],
};
/** A part a newcomer can hold in the head: at most this many files, tests included. */
const MAX_PART_FILES = 12;

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
    // A lazy import() of the direct web call, a static import of the way out of a failed load.
    expect(graph.get('src/features/talk/voice/voice-runtime.ts')).toEqual(
      expect.arrayContaining([
        'src/features/talk/recovery/chunk-recovery.ts',
        'src/features/talk/voice/direct-web-call.ts',
      ]),
    );
  });

  it(`has no import cycle in ${ROOMS.join(', ')} but the one owed`, () => {
    const files = sourceFiles(root, ROOMS);
    expect(files.length).toBeGreaterThan(100);
    expect(importCycles(importGraph(root, files))).toEqual(CYCLES_OWED);
  });
});

describe('the modules', () => {
  it(`are at most ${MAX_MODULE_LINES} lines each, tests and test kits included, and no owed one grows`, () => {
    const files = sourceFiles(root, ALL_CODE);
    // The test kits are held like the rest: the workerd bench, the parts' kit, the browser tests'.
    expect(files).toEqual(
      expect.arrayContaining([
        'gate/test-workerd/bench.ts',
        'src/features/talk/test/fake-voice-call.ts',
        'e2e/engines/engine.ts',
        'tests/support/import-graph.ts',
      ]),
    );
    const long = files
      .map((file) => ({
        file,
        lines: readFileSync(resolve(root, file), 'utf8').split('\n').length,
      }))
      .filter(({ file, lines }) => lines > (LONG_MODULES_OWED[file] ?? MAX_MODULE_LINES));
    expect(long).toEqual([]);
  });

  it('owe only modules that are still over the bound', () => {
    const paid = Object.keys(LONG_MODULES_OWED).filter(
      (file) => readFileSync(resolve(root, file), 'utf8').split('\n').length <= MAX_MODULE_LINES,
    );
    expect(paid).toEqual([]);
  });
});

describe('the parts of Talk to Pepa', () => {
  const files = sourceFiles(root, [TALK]);
  const partOf = (file: string) => file.slice(TALK.length + 1).split('/')[0] ?? '';

  it(`are the named folders, each of at most ${MAX_PART_FILES} files, with no file loose beside them`, () => {
    expect([...new Set(files.map(partOf))].sort()).toEqual(Object.keys(TALK_PARTS).sort());
    const sizes = Object.keys(TALK_PARTS).map((part) => ({
      part,
      files: files.filter((file) => partOf(file) === part).length,
    }));
    expect(sizes.filter(({ files: count }) => count > MAX_PART_FILES)).toEqual([]);
  });

  it('import only the parts each may import', () => {
    const graph = importGraph(root, files);
    const trespasses = [...graph]
      .filter(([file]) => !TEST_CODE.test(file))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => target.startsWith(`${TALK}/`))
          .filter((target) => partOf(target) !== partOf(file))
          .filter((target) => !(TALK_PARTS[partOf(file)] ?? []).includes(partOf(target)))
          .map((target) => `${file} -> ${target}`),
      );
    expect(trespasses).toEqual([]);
  });

  it('keep logic apart from views: no .ts module imports a component (.tsx)', () => {
    const graph = importGraph(root, files);
    const logicOnViews = [...graph]
      .filter(([file]) => file.endsWith('.ts') && !TEST_CODE.test(file))
      .flatMap(([file, targets]) =>
        targets.filter((target) => target.endsWith('.tsx')).map((target) => `${file} -> ${target}`),
      );
    expect(logicOnViews).toEqual([]);
  });
});

// --- The browser tests (e2e/): support code, engine modules and specs ------------------------
// Held to the same rules as the rest: no import cycle (specs included); their sizes are held
// with every other module's, above. The engine specs reach a browser only through the shared
// interface (e2e/engines/engine.ts) and the launcher (e2e/engines/launch.ts), and no
// engine's module reaches into another's.

const BROWSER_TESTS = ['e2e'];
/** Each engine's own modules, by engine. */
const ENGINE_MODULES: Record<string, RegExp> = {
  chromium: /^e2e\/engines\/chromium\.ts$/,
  firefox: /^e2e\/engines\/firefox\.ts$/,
  webkit: /^e2e\/engines\/webkit(-[a-z-]+)?\.ts$/,
  puppeteer: /^e2e\/engines\/puppeteer\.ts$/,
};
/** Which engines' modules each may use: Puppeteer's page serves Chromium and Gecko alike. */
const ENGINE_MAY_USE: Record<string, string[]> = {
  chromium: ['chromium', 'puppeteer'],
  firefox: ['firefox', 'puppeteer'],
  webkit: ['webkit'],
  puppeteer: ['puppeteer'],
};
const engineOf = (file: string) =>
  Object.keys(ENGINE_MODULES).find((engine) => ENGINE_MODULES[engine]!.test(file));

describe('the browser tests (e2e/)', () => {
  const files = sourceFiles(root, BROWSER_TESTS);
  const graph = importGraph(root, files);

  it('have no import cycle', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(importCycles(graph)).toEqual([]);
  });

  it('give each engine a module of its own, reached by the specs only through the launcher', () => {
    for (const engine of ['chromium', 'firefox', 'webkit']) {
      expect(files.filter((file) => ENGINE_MODULES[engine]!.test(file)).length).toBeGreaterThan(0);
    }
    const crossings: string[] = [];
    for (const [file, targets] of graph) {
      const from = engineOf(file);
      for (const target of targets) {
        const to = engineOf(target);
        if (to === undefined) continue;
        const allowed =
          from === undefined
            ? file === 'e2e/engines/launch.ts'
            : ENGINE_MAY_USE[from]!.includes(to);
        if (!allowed) crossings.push(`${file} -> ${target}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
// --- end of the browser tests' block ----------------------------------------------------------
