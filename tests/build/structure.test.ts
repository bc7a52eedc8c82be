import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
 * Known debts, each to be paid and then removed from here (none is owed today): a module listed
 * may not grow past its figure, and a new long module or a new cycle fails at once.
 */
const LONG_MODULES_OWED: Record<string, number> = {};
const CYCLES_OWED: string[][] = [];
const TEST_CODE = /(\.test\.[cm]?[jt]sx?$)|(^gate\/test-workerd\/)|(\/test\/)/;

const TALK = 'src/features/talk';
/**
 * The parts of Talk to Pepa (its folders), and the parts each one's modules may import: the section
 * composes the rest; the call's state and runtime (voice/) know only the way out of a failed load;
 * the text conversation (text/) uses the guards and the failure words, and takes its gate client
 * and its bot check from src/api, as the call does, never from the voice part; the
 * call's controls and the text conversation offer sharing Pepa's remarks (share/), which, like the
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

// --- The court gate (gate/src): its wings over a shared floor ---------------------------------

const GATE = 'gate/src';
/**
 * The gate's folders, and the folders each one's modules may import (a folder always imports
 * itself). The floor is what every wing stands on (configuration and the limits, problems, the
 * contract, visitors, the day, the edge, the bot check, the requests an object hears) and imports
 * no wing; provider/ is the
 * provider's two clients (calls and chats) and how far its numbers are believed, over the floor.
 * Of the wings, calls/ holds the court, the one Durable Object that keeps the line, the places and
 * the day's budget, so text/ imports it for the grants it draws from that budget and the chat it
 * hands to a call, and cards/ for the judge's cost held in the same budget. cards/ imports text/
 * to prove a chat's card on the desk that holds the chat. The entry (index.ts, alone at the top)
 * routes to every wing and exports the Durable Object classes wrangler.jsonc names.
 */
const GATE_WINGS: Record<string, readonly string[]> = {
  '': ['floor', 'provider', 'calls', 'text', 'cards'],
  floor: [],
  provider: ['floor'],
  calls: ['floor', 'provider'],
  text: ['floor', 'provider', 'calls', 'text/reply', 'text/caps', 'text/openings'],
  // A reply relayed from the provider's stream as the gate's own events.
  'text/reply': ['floor'],
  // Text's caps on messages by network and by ASN, and the keeper of an ASN's day.
  'text/caps': ['floor'],
  // The openings Pepa has answered today and her replies to them: a reply is given again only if
  // a card could print it, so this part of text reads the card's word checks (cards/words, which
  // stand on nothing but cards/fold); text itself never imports a card.
  'text/openings': ['floor', 'cards/words'],
  // A card of a chat's remark reads it from the visitor's desk, named on the floor: cards never
  // import text, so text/openings may read the card's word checks without a circle of wings.
  cards: ['floor', 'provider', 'calls', 'cards/words', 'cards/fold', 'cards/judge'],
  // What a card may print: the checks, each on the words as a reader reads them (fold/).
  'cards/words': ['cards/fold'],
  // How a reader reads words: folded, look-alike letters mapped; and the scripts a card can draw.
  'cards/fold': [],
  // What a card means, by the judge: a provider chat, its cost in the court's budget.
  'cards/judge': ['floor', 'provider', 'calls', 'cards/fold'],
};
/** A folder a newcomer can hold in the head: at most this many files, each file counted, tests and declarations included. */
const MAX_GATE_FOLDER_FILES = 12;

/** Every folder under gate/src (relative to it, '' for gate/src itself) and its files. */
function gateFolders(): Map<string, string[]> {
  const folders = new Map<string, string[]>();
  const walk = (folder: string) => {
    const names = readdirSync(resolve(root, GATE, folder));
    folders.set(
      folder,
      names.filter((name) => !statSync(resolve(root, GATE, folder, name)).isDirectory()),
    );
    for (const name of names) {
      if (statSync(resolve(root, GATE, folder, name)).isDirectory()) {
        walk(folder === '' ? name : `${folder}/${name}`);
      }
    }
  };
  walk('');
  return folders;
}

const wingOf = (file: string) => {
  const inside = file.slice(GATE.length + 1);
  return inside.includes('/') ? inside.slice(0, inside.lastIndexOf('/')) : '';
};

describe('the wings of the court gate', () => {
  const folders = gateFolders();

  it(`are the named folders, each of at most ${MAX_GATE_FOLDER_FILES} files, with only the entry loose at the top`, () => {
    expect([...folders.keys()].sort()).toEqual(Object.keys(GATE_WINGS).sort());
    expect(folders.get('')).toEqual(['index.ts']);
    const over = [...folders]
      .filter(([, files]) => files.length > MAX_GATE_FOLDER_FILES)
      .map(([folder, files]) => `${folder}: ${files.length}`);
    expect(over).toEqual([]);
  });

  it('import only the wings each may import, and the floor none', () => {
    const graph = importGraph(root, sourceFiles(root, [GATE]));
    expect(graph.size).toBeGreaterThan(50);
    // A test may reach past its wing for what it checks against (the judge's test, the checks).
    const trespasses = [...graph]
      .filter(([file]) => !TEST_CODE.test(file))
      .flatMap(([file, targets]) =>
        targets
          .filter((target) => target.startsWith(`${GATE}/`))
          .filter((target) => wingOf(target) !== wingOf(file))
          .filter((target) => !(GATE_WINGS[wingOf(file)] ?? []).includes(wingOf(target)))
          .map((target) => `${file} -> ${target}`),
      );
    expect(trespasses).toEqual([]);
  });

  it("are named file by file in gate/README.md's table, which names nothing that is not there", () => {
    const readme = readFileSync(resolve(root, 'gate/README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('## Files'),
      readme.indexOf('\n## ', readme.indexOf('## Files') + 1),
    );
    const named = [...section.matchAll(/^\| `([^`]+)`/gm)].map(([, path = '']) => path);
    expect(named.length).toBeGreaterThan(40);
    const modules = [...folders]
      .flatMap(([folder, files]) =>
        files.map((name) => (folder === '' ? name : `${folder}/${name}`)),
      )
      .filter((path) => !/\.test\.ts$/.test(path))
      .map((path) => `src/${path}`);
    expect(modules.filter((path) => !named.includes(path))).toEqual([]);
    // Every row names what is there: a file, a folder (ending in /), or tests by a pattern that matches some.
    const tests = [...folders].flatMap(([, files]) =>
      files.filter((name) => name.endsWith('.test.ts')),
    );
    const missing = named.filter((path) =>
      path.includes('*')
        ? !(path === 'src/**/*.test.ts' && tests.length > 0)
        : !existsSync(resolve(root, 'gate', path)),
    );
    expect(missing).toEqual([]);
  });
});
// --- end of the court gate's block -------------------------------------------------------------

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
