/** The folded readings every card check and takedown matches on. */
import { describe, expect, it } from 'vitest';
import { latinSkeleton } from './card-confusables';
import { cleanWords, foldForMatch, readingsOf } from './card-fold';

describe('the cleaned words a card stores and draws', () => {
  it('drops zero-widths, soft hyphens, joiners, variation selectors and direction controls', () => {
    expect(
      cleanWords('Rib\u200bbit\u00ad \u200c\u200d\u2060\ufe0f\u202e\u2066court\u2069\ufeff'),
    ).toBe('Ribbit court');
  });

  it('makes every run of whitespace within a line a single space, and keeps a break a break', () => {
    expect(cleanWords('  Ribbit.\n\t Welcome\u00a0\u3000 to court! ')).toBe(
      'Ribbit.\nWelcome to court!',
    );
    expect(cleanWords('pond\r\n\r\nSend\u2028it\tnow')).toBe('pond\nSend\nit now');
  });

  it('reads a line break as a space, never gluing the words on either side', () => {
    expect(foldForMatch('the pond\nSend it')).toBe('the pond send it');
  });

  it('folds the words as the card draws them, signs without a glyph left out', () => {
    expect(foldForMatch('Send 🐸 1 SOL ★ now')).toBe(foldForMatch('Send 1 SOL now'));
    expect(foldForMatch('guar🐸anteed')).toBe('guaranteed');
  });

  it('composes what was written decomposed, and keeps what a reader sees', () => {
    expect(cleanWords('e\u0301te\u0301 — Привет, ğüşİı')).toBe('été — Привет, ğüşİı');
  });
});

describe('the folded form', () => {
  it.each([
    ['fullwidth letters', 'ａｂａｎｄｏｎ', 'abandon'],
    ['Cyrillic look-alikes', 'аbаndоn', 'abandon'],
    ['Greek look-alikes', 'αbαndοn', 'abandon'],
    ['Cyrillic capitals', 'ВТС', 'btc'],
    ['diacritics', 'fück àbóve', 'fuck above'],
    ['a zero-width space inside a word', 'guar\u200banteed', 'guaranteed'],
    ['a soft hyphen inside a word', 'aban\u00addon', 'abandon'],
    ['a word spelt out', 'f u c k', 'fuck'],
    ['a word spelt out with dots', 'f.u.c.k', 'fuck'],
    ['a hyphen inside a word', 'guaran-teed', 'guaranteed'],
    ['digits inside a word', 'gu4r4nt33d m00n 5h1t', 'guaranteed moon shit'],
    ['a sign inside a word', 'sh!t b@by', 'shit baby'],
    ['mathematical letters', '𝐦𝐨𝐨𝐧', 'moon'],
  ])('reads %s as a reader does', (_name, text, folded) => {
    expect(foldForMatch(text)).toBe(folded);
  });

  it('leaves numbers and the token’s name as they are', () => {
    expect(foldForMatch('$PEPA: 1,024 frogs at 8 pm!')).toBe('$pepa 1 024 frogs at 8 pm');
  });

  it('folds two spellings a reader takes for one line to the same form', () => {
    expect(foldForMatch('Send 1 SOL to join the airdrop!')).toBe(
      foldForMatch('Ѕend 1 ЅОL tо јоin the\u200b аirdrор'),
    );
  });

  it('reads a letter with a stroke through it as the letter: ø as o, ł as l, đ as d', () => {
    expect(foldForMatch('The cøurt, the łily and the đew')).toBe('the court the lily and the dew');
  });
});

describe('the digits reading', () => {
  it.each([
    ['"1OOx"', '1OOx', '100x'],
    ['"1 0 0 x"', 'an easy 1 0 0 x', 'an easy 100x'],
    ['a phone number with O for zero', '+44 2O 7946 O958', '+44 20 7946 0958'],
    ['a phone number with l for one', '555 l234 567', '555 1234 567'],
  ])('reads %s as digits', (_name, text, digits) => {
    expect(readingsOf(text).digits).toBe(digits);
  });

  it('keeps words that are only letters as they are', () => {
    expect(readingsOf('Oh lol, I love it').digits).toBe('oh lol, i love it');
  });
});

describe('the Latin skeleton', () => {
  it('keeps the case, as the confusables data is case-aware', () => {
    expect(latinSkeleton('ВАТ вот')).toBe('BAT вoт');
  });

  it('reads a multiplication sign and fullwidth brackets as a reader does', () => {
    expect(latinSkeleton('100× 【at】')).toBe('100x [at]');
  });
});
