// The README opens with the point: small first-screen pictures inline, whole-page captures linked.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const MAX_INLINE_BYTES = 300 * 1024;

const inlined = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map(([, path = '']) => path);
const linked = [...readme.matchAll(/(?<!!)\[[^\]]*\]\((docs\/screenshots\/[^)]+)\)/g)].map(
  ([, path = '']) => path,
);

describe('the README', () => {
  it('inlines only first-screen pictures, each within 300 KB', () => {
    expect(inlined.length).toBeGreaterThan(0);
    for (const path of inlined) {
      const file = resolve(root, path);
      expect(existsSync(file), path).toBe(true);
      expect(statSync(file).size, path).toBeLessThanOrEqual(MAX_INLINE_BYTES);
    }
  });

  it('shows the pictures before Quick start and links the whole-page captures', () => {
    expect(readme.indexOf('![')).toBeLessThan(readme.indexOf('## Quick start'));
    expect(linked).toEqual([
      'docs/screenshots/phone-full.png',
      'docs/screenshots/desktop-full.png',
    ]);
    for (const path of linked) expect(existsSync(resolve(root, path)), path).toBe(true);
    expect(inlined.some((path) => path.includes('-full'))).toBe(false);
  });

  it('is refreshed by one command', () => {
    const scripts = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).scripts;
    expect(scripts.screenshots).toBe('node scripts/screenshots.mjs');
  });
});
