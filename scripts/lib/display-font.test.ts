import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISPLAY_FONT_FILE, DISPLAY_RANGES, inDisplayRanges } from './display-font.mjs';

const root = join(import.meta.dirname, '..', '..');

describe('the display font subset', () => {
  it('is declared in the stylesheet with exactly the ranges it was cut to', () => {
    const css = readFileSync(join(root, 'src', 'styles.css'), 'utf8');
    const face = /@font-face\s*{[^}]*font-family:\s*'Cinzel'[^}]*}/.exec(css)?.[0] ?? '';
    expect(face).toContain(`url('./${DISPLAY_FONT_FILE.replace(/^src\//, '')}')`);
    const ranges = /unicode-range:([^;]*);/
      .exec(face)?.[1]
      ?.split(',')
      .map((r) => r.trim());
    expect(ranges).toEqual(DISPLAY_RANGES);
  });

  it('is small enough to preload without delaying the first paint', () => {
    expect(readFileSync(join(root, DISPLAY_FONT_FILE)).length).toBeLessThanOrEqual(12 * 1024);
  });

  it('tells the characters it has from those it has not', () => {
    expect(inDisplayRanges('A'.codePointAt(0)!)).toBe(true);
    expect(inDisplayRanges('—'.codePointAt(0)!)).toBe(true);
    expect(inDisplayRanges('é'.codePointAt(0)!)).toBe(false);
  });
});
