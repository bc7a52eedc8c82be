// The README stays a five-minute read, and every relative link in it and in docs/ leads somewhere:
// to a file or folder that exists and, where the link names a heading, to that heading.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const MAX_README_LINES = 200;

/** The Markdown files under `dir`, at any depth, as absolute paths. */
function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = resolve(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The text a reader sees as prose: fenced blocks and inline code taken out. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of inline links and images, `[text](target)` and `![alt](target)`. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map(([, target = '']) => target);
}

/** A heading's anchor as the forge makes it: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets -1, -2, …). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading = ''] of markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** Each relative link of `file` that leads nowhere, as `file: target`. */
function brokenLinks(file: string): string[] {
  const markdown = readFileSync(file, 'utf8');
  return linkTargets(markdown)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target))
    .filter((target) => {
      const [path = '', anchor] = target.split('#');
      const destination = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(destination)) return true;
      if (anchor === undefined || !destination.endsWith('.md')) return false;
      return !anchors(readFileSync(destination, 'utf8')).has(anchor);
    })
    .map((target) => `${relative(root, file)}: ${target}`);
}

const documents = [resolve(root, 'README.md'), ...markdownUnder(resolve(root, 'docs'))];

describe('the README', () => {
  it(`is at most ${MAX_README_LINES} lines`, () => {
    const lines = readFileSync(resolve(root, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('links every guide in docs/', () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const guides = readdirSync(resolve(root, 'docs')).filter((name) => name.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(10);
    expect(guides.filter((name) => !readme.includes(`(docs/${name}`))).toEqual([]);
  });
});

describe('relative links in the README and docs/', () => {
  it('finds links to check', () => {
    expect(
      documents.flatMap((file) => linkTargets(readFileSync(file, 'utf8'))).length,
    ).toBeGreaterThan(50);
  });

  it('each lead to an existing file, and to an existing heading where they name one', () => {
    expect(documents.flatMap(brokenLinks)).toEqual([]);
  });
});
