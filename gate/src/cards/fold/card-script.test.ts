/** What the card can draw: its quote font's subsets, held to @fontsource/inter's own CSS. */
import { describe, expect, it } from 'vitest';
import { drawableWords, isDrawable, QUOTE_FONT_SUBSETS } from './card-script';

/** Node's file reading (these tests run in Node; the gate's types are the Workers'). */
const { readFileSync } = (await import('node:fs' as string)) as {
  readFileSync(path: string, encoding: 'utf8'): string;
};
/** The rules' tests run from the repository's root. */
const FONT_CSS = readFileSync('node_modules/@fontsource/inter/500.css', 'utf8');

describe('the drawable set', () => {
  it.each(Object.entries(QUOTE_FONT_SUBSETS))(
    'is the %s subset’s unicode-range, as @fontsource/inter declares it',
    (subset, range) => {
      const block = FONT_CSS.split(`/* inter-${subset}-500-normal */`)[1]?.split('/*')[0] ?? '';
      expect(block).toContain(`unicode-range: ${range};`);
    },
  );

  it('holds Latin, Latin Extended and Russian Cyrillic, and not CJK, Arabic, Devanagari or Greek', () => {
    for (const char of 'aZé€ğŞİıŁřжЁ') expect(isDrawable(char.codePointAt(0) ?? 0)).toBe(true);
    for (const char of '的あ한عहΩ') expect(isDrawable(char.codePointAt(0) ?? 0)).toBe(false);
  });
});

describe('the words as the card draws them', () => {
  it('keeps a remark of drawable letters whole', () => {
    expect(drawableWords('Привет, ğüş!')).toBe('Привет, ğüş!');
  });

  it('leaves out signs and pictures without a glyph, never refusing for them', () => {
    expect(drawableWords('Ribbit 🐸 ★ darling')).toBe('Ribbit darling');
  });

  it('refuses a letter or digit without a glyph', () => {
    expect(drawableWords('Ribbit 你好')).toBeNull();
    expect(drawableWords('Ribbit ٣')).toBeNull();
  });
});
