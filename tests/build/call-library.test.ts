// The call library has one front door and one map: code outside it imports only
// src/lib/call/index.ts, and docs/call-library.md names every file in the folder, and no other.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, sourceFiles } from '../support/import-graph';

const root = resolve(import.meta.dirname, '..', '..');
const LIBRARY = 'src/lib/call';
const FRONT_DOOR = `${LIBRARY}/index.ts`;
/** The library's test kit (fakes and harnesses), which tests outside the library may drive. */
const TEST_KIT = `${LIBRARY}/test/`;
const TEST_CODE = /(\.test\.[cm]?[jt]sx?$)|(^gate\/test\/)|(^e2e\/)|(^tests\/)|(\/test\/)/;
const HOUSE = ['src', 'e2e', 'tests', 'assistant', 'scripts', 'gate'];

/**
 * The files a map names: the first fenced block whose first line is `folder/`, one entry a line,
 * each indented two spaces deeper than its folder; a name ending in `/` is a folder of its own.
 */
function mapEntries(markdown: string, folder: string): string[] {
  const blocks = [...markdown.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)].map(([, body = '']) =>
    body.split('\n').filter((line) => line.trim() !== ''),
  );
  const block = blocks.find((lines) => lines[0]?.trim() === `${folder}/`);
  if (!block) throw new Error(`no map of ${folder}/ in the document`);
  const files: string[] = [];
  const folders: string[] = [];
  for (const line of block.slice(1)) {
    const indent = line.length - line.trimStart().length;
    const name = line.trim().split(/\s+/)[0] ?? '';
    if (indent % 2 !== 0 || indent < 2) throw new Error(`badly indented map line: ${line}`);
    const depth = indent / 2 - 1;
    if (depth > folders.length) throw new Error(`map line deeper than its folder: ${line}`);
    folders.length = depth;
    if (name.endsWith('/')) folders.push(name.slice(0, -1));
    else files.push([...folders, name].join('/'));
  }
  return files.sort();
}

/** Every file under `folder`, relative to it. */
function filesUnder(folder: string): string[] {
  const dir = resolve(root, folder);
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('the map reader', () => {
  it('reads nested folders and refuses a line deeper than its folder', () => {
    const doc = [
      'Intro.',
      '```',
      'lib/',
      '  a.ts          the first',
      '  sub/',
      '    b.ts        the second',
      '    deeper/',
      '      c.json    data',
      '  d.ts          back at the top',
      '```',
    ].join('\n');
    expect(mapEntries(doc, 'lib')).toEqual(['a.ts', 'd.ts', 'sub/b.ts', 'sub/deeper/c.json']);
    expect(() => mapEntries('```\nlib/\n  a.ts\n      b.ts\n```\n', 'lib')).toThrow(/deeper/);
    expect(() => mapEntries('```\nother/\n  a.ts\n```\n', 'lib')).toThrow(/no map/);
  });
});

describe('the call library', () => {
  const readMap = () =>
    mapEntries(readFileSync(resolve(root, 'docs/call-library.md'), 'utf8'), LIBRARY);
  const files = filesUnder(LIBRARY);

  it('has one map, docs/call-library.md, that names every file in the folder', () => {
    const map = readMap();
    expect(files.length).toBeGreaterThan(40);
    expect(files.filter((file) => !map.includes(file))).toEqual([]);
  });

  it('has a map that names no file the folder does not have', () => {
    const map = readMap();
    expect(map.filter((file) => !files.includes(file))).toEqual([]);
  });

  it('is entered from the rest of the house only through its front door', () => {
    const graph = importGraph(root, sourceFiles(root, HOUSE));
    const breaches = [...graph].flatMap(([file, targets]) =>
      file.startsWith(`${LIBRARY}/`)
        ? []
        : targets
            .filter((target) => target.startsWith(`${LIBRARY}/`) && target !== FRONT_DOOR)
            .filter((target) => !(TEST_CODE.test(file) && target.startsWith(TEST_KIT)))
            .map((target) => `${file} -> ${target}`),
    );
    expect(breaches).toEqual([]);
    // The door is used: the page's composition root and the API layer come in through it.
    expect(graph.get('src/api/gate-client.ts')).toContain(FRONT_DOOR);
  });
});
