import { describe, expect, it } from 'vitest';
import { hasVisibleCharacter } from './visible-text';

describe('a message with something to see', () => {
  it.each([
    ['nothing', ''],
    ['spaces, tabs and new lines', ' \t\n\r \u00a0\u3000'],
    ['zero-width spaces and joiners', '\u200b\u200c\u200d\u2060\ufeff'],
    ['direction marks and overrides', '\u200e\u200f\u202a\u202e\u2066\u2069'],
    ['soft hyphens and tags', '\u00ad\u00ad\u{e0041}\u{e007f}'],
    ['variation selectors', '\ufe0f\ufe0e\u{e0100}'],
    ['Hangul fillers', '\u3164\u115f\u1160\uffa0'],
    ['marks with nothing to mark', '\u0301\u0308\u20dd'],
    ['control characters', '\u0000\u0007\u001b'],
    ['blank Braille', '\u2800\u2800'],
    ['all of them at once', ' \u200b\u202e\ufe0f\u3164\u0301\u2800 '],
  ])('has none in %s', (_name, text) => {
    expect(hasVisibleCharacter(text)).toBe(false);
  });

  it.each([
    ['a word', 'Ribbit'],
    ['one letter among the invisible', '\u200b\u202ea\u200b'],
    ['a letter with its mark', 'e\u0301'],
    ['an emoji with its selector', '\u2764\ufe0f'],
    ['a digit', '7'],
    ['punctuation', '?'],
    ['Chinese', '你好'],
    ['Arabic', 'مرحبا'],
    ['Devanagari', 'नमस्ते'],
  ])('sees %s', (_name, text) => {
    expect(hasVisibleCharacter(text)).toBe(true);
  });
});
