// The README's "Where things are" map and the glossary name the tree as it is.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(resolve(root, path), 'utf8');
/** Tool and editor folders, and what builds and tests write, are not the project's rooms. */
const NOT_MAPPED = new Set([
  'node_modules',
  'dist',
  'dist-ssr',
  'test-results',
  'playwright-report',
  'bench',
]);

/** The folders the map names: the first word of each line of the block under the heading. */
function mappedFolders(readme: string): string[] {
  const section = readme.slice(readme.indexOf('## Where things are'));
  const block = /^```\n([\s\S]*?)^```/m.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => /^(\S+\/)\s/.exec(line)?.[1])
    .filter((folder): folder is string => folder !== undefined);
}

/** The folders directly under `dir` (relative to the root), hidden and unmapped ones left out. */
function foldersUnder(dir: string): string[] {
  return readdirSync(resolve(root, dir))
    .filter((name) => !name.startsWith('.') && !NOT_MAPPED.has(name))
    .filter((name) => statSync(resolve(root, dir, name)).isDirectory())
    .map((name) => `${dir === '.' ? '' : `${dir}/`}${name}/`);
}

describe("the README's map", () => {
  const readme = read('README.md');
  const mapped = mappedFolders(readme);

  it('names only folders that exist', () => {
    expect(mapped.length).toBeGreaterThan(10);
    expect(mapped.filter((folder) => !existsSync(resolve(root, folder)))).toEqual([]);
  });

  it('names every top-level folder and every folder of src/', () => {
    const unnamed = [...foldersUnder('.'), ...foldersUnder('src')].filter(
      (folder) => !mapped.some((line) => line === folder || line.startsWith(folder)),
    );
    expect(unnamed).toEqual([]);
  });

  it('names each part of Talk to Pepa', () => {
    const section = readme.slice(readme.indexOf('## Where things are'));
    const talk = section.slice(section.indexOf('src/features/talk/'), section.indexOf('src/api/'));
    const parts = foldersUnder('src/features/talk')
      .map((folder) => folder.split('/').at(-2) ?? '')
      .filter((part) => part !== 'test');
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.filter((part) => !talk.includes(`${part}/`))).toEqual([]);
  });
});

describe('the glossary', () => {
  it('is linked from the README, and every file it names exists', () => {
    expect(read('README.md')).toContain('(docs/glossary.md)');
    const glossary = read('docs/glossary.md');
    const named = [...glossary.matchAll(/`([\w./-]+\/[\w.-]+\.(?:ts|tsx|mjs|json|md))`/g)].map(
      ([, path = '']) => path,
    );
    expect(named.length).toBeGreaterThan(10);
    // A path in the glossary is from the root, or from src/features/talk/ for its parts.
    const missing = named.filter(
      (path) =>
        !existsSync(resolve(root, path)) && !existsSync(resolve(root, 'src/features/talk', path)),
    );
    expect(missing).toEqual([]);
  });
});
