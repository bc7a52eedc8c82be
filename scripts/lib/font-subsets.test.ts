import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FONT_SUBSETS, SUBSET_RANGES, inSubsetRanges } from './font-subsets.mjs';

const root = join(import.meta.dirname, '..', '..');
const css = readFileSync(join(root, 'src', 'styles.css'), 'utf8');

/** The stylesheet's @font-face rule for `family`, or '' when it has none. */
const faceOf = (family: string) =>
  new RegExp(`@font-face\\s*{[^}]*font-family:\\s*'${family}'[^}]*}`).exec(css)?.[0] ?? '';

describe.each(FONT_SUBSETS)('the $family subset', (font) => {
  it('is declared in the stylesheet with exactly the ranges it was cut to', () => {
    const face = faceOf(font.family);
    expect(face).toContain(`url('./${font.file.replace(/^src\//, '')}')`);
    const ranges = /unicode-range:([^;]*);/
      .exec(face)?.[1]
      ?.split(',')
      .map((r) => r.trim());
    expect(ranges).toEqual(SUBSET_RANGES);
  });

  it('is declared with the weights it keeps', () => {
    const face = faceOf(font.family);
    const weight = /font-weight:\s*([^;]*);/.exec(face)?.[1]?.trim();
    expect(weight).toBe(font.axes?.wght ? font.axes.wght.join(' ') : '700');
  });

  it('is small enough to travel inside the page', () => {
    expect(readFileSync(join(root, font.file)).length).toBeLessThanOrEqual(16 * 1024);
  });
});

describe('the subset ranges', () => {
  it('tell the characters the fonts have from those they have not', () => {
    expect(inSubsetRanges('A'.codePointAt(0)!)).toBe(true);
    expect(inSubsetRanges('—'.codePointAt(0)!)).toBe(true);
    expect(inSubsetRanges('…'.codePointAt(0)!)).toBe(true);
    expect(inSubsetRanges('é'.codePointAt(0)!)).toBe(false);
  });
});
