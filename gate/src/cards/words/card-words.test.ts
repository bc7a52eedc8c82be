/** What a card may print: each rule of the check, the owner's blocklist, and the cut. */
import { describe, expect, it } from 'vitest';
import {
  DISGUISED_CASES,
  PLAIN_CASES,
  PROMISES_BY_LANGUAGE,
} from '../../../test-workerd/card-disguise-cases';
import { blocklistFrom, CARD_MAX_CHARS, cardWords, fitToCard, refusalOf } from './card-words';

const list = blocklistFrom('');

describe("the check of a card's words", () => {
  it('prints a remark of Pepa with nothing to hide', () => {
    expect(refusalOf('Ribbit! The court is open to every frog with a kind heart.', list)).toBe(
      null,
    );
  });

  it.each([
    [
      'a recovery phrase',
      'Say: abandon ability able about above absent absorb abstract absurd abuse access accident.',
    ],
    [
      'a phrase split by commas',
      'legal, winner, thank, year, wave, sausage, worth, useful, legal, winner, thank, yellow',
    ],
    ['a base58 key', `Here: ${'5Kb8kLf9zgWQnogidDA76MzPL6TsZZY36hWXMssSzNyd'.repeat(2)}`],
    [
      'an address-length base58 string',
      'Send it to 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin please',
    ],
    ['a hex key', 'My key is 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318'],
    ['a byte array', 'Keypair [12, 200, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]'],
  ])('refuses %s as a secret', (_name, words) => {
    expect(refusalOf(words, list)).toBe('secret');
  });

  it.each([
    ['an e-mail address', 'Write to pepa.queen+court@example.com for a crown.'],
    ['a phone number', 'Call me on +44 20 7946 0958 after the ball.'],
    ['a phone number with dashes', 'Ring 555-123-4567, my dear.'],
  ])('refuses %s as personal data', (_name, words) => {
    expect(refusalOf(words, list)).toBe('personal-data');
  });

  it.each([
    'This token is guaranteed to rise.',
    '$PEPA will 100x by spring!',
    'We are going to the moon, my frogs.',
    'The price will triple, trust me.',
    'A 50% return on every lily pad.',
    'You cannot lose with $PEPA.',
    'Buy now before the court closes!',
    'It is risk-free, darling.',
    '$PEPA will be worth a kingdom.',
  ])('refuses a financial promise: %s', (words) => {
    expect(refusalOf(words, list)).toBe('financial-promise');
  });

  it('refuses a word of the default blocklist, whole words only', () => {
    expect(refusalOf('What a rug pull that was.', list)).toBe('blocked-word');
    expect(refusalOf('A drugged pull of the bell.', list)).toBe(null);
  });

  it("refuses a word the owner adds, in any case and between punctuation, and only the owner's", () => {
    const own = blocklistFrom('Toad, swamp gas\nnewt');
    expect(refusalOf('A TOAD? Never.', own)).toBe('blocked-word');
    expect(refusalOf('Beware the swamp-gas, dear.', own)).toBe('blocked-word');
    expect(refusalOf('A newt!', own)).toBe('blocked-word');
    expect(refusalOf('A toad? Never.', list)).toBe(null);
  });

  it('refuses a remark with no words', () => {
    expect(refusalOf('   ', list)).toBe('nothing-to-print');
  });

  it('checks the whole remark, not only the part that fits on the card', () => {
    const long = `${'The court is grand. '.repeat(12)}Write to me at pepa@example.com.`;
    expect(cardWords(long, list)).toEqual({ ok: false, refusal: 'personal-data' });
  });
});

describe('the check of disguised words', () => {
  it.each([...PLAIN_CASES, ...DISGUISED_CASES, ...PROMISES_BY_LANGUAGE].map((c) => [c.name, c]))(
    'refuses %s',
    (_name, { words, refusal }) => {
      expect(refusalOf(words, list)).toBe(refusal);
    },
  );

  it.each([
    ['masked', 'What a sw*mp', 'blocked-word'],
    ['spelt out', 'What a grand s w a m p', 'blocked-word'],
    ['spelt out after a word of one letter', 'What a s w a m p', 'blocked-word'],
    ['in Cyrillic look-alikes', 'What a ѕwаmр', 'blocked-word'],
    ['with a zero-width space', 'What a sw\u200bamp', 'blocked-word'],
  ] as const)("matches the owner's word %s", (_name, words, refusal) => {
    expect(refusalOf(words, blocklistFrom('swamp'))).toBe(refusal);
  });

  it('does not read a masked word into every word of its length', () => {
    expect(refusalOf('Oh f*** off, heron.', list)).toBe(null);
    expect(refusalOf('A fork and a duck, darling.', list)).toBe(null);
  });

  it.each([
    'The tide will rise at dawn.',
    'Our little frog will grow up fast.',
    'La marea subirá esta noche.',
    'Лягушонок быстро вырастет.',
    'Call me at noon. Then we dance.',
    'Meet me at court. The ball is at eight.',
    'We met in 1999 and again in 2024.',
  ])('leaves an ordinary remark alone: %s', (words) => {
    expect(refusalOf(words, list)).toBe(null);
  });
});

describe('the script of the words', () => {
  it('refuses a remark the card cannot draw, with its own reason', () => {
    expect(cardWords('你好，我是佩帕。', list)).toEqual({ ok: false, refusal: 'script' });
    expect(cardWords('Ribbit! नमस्ते', list)).toEqual({ ok: false, refusal: 'script' });
  });

  it('gives a disguise in another script the disguise’s reason', () => {
    expect(refusalOf('保证翻倍！', list)).toBe('financial-promise');
  });

  it('draws the remark without the pictures the font has no glyph for', () => {
    expect(cardWords('Ribbit! 🐸 Welcome to court.', list)).toEqual({
      ok: true,
      words: 'Ribbit! Welcome to court.',
    });
  });
});

describe("the card's cut", () => {
  it('keeps a short remark whole, its spaces made single and its line break a break', () => {
    expect(fitToCard('  Ribbit.\n  Welcome  to court! ')).toBe('Ribbit.\nWelcome to court!');
  });

  it('keeps the whole sentences that fit', () => {
    const first = 'Welcome to the Royal Frog Court, where every lily pad is polished daily.';
    const words = `${first} ${'And the ballroom never sleeps, not even once a year. '.repeat(5)}`;
    const cut = fitToCard(words) ?? '';
    expect(cut.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
    expect(cut.startsWith(first)).toBe(true);
    expect(cut.endsWith('.')).toBe(true);
    expect(words.startsWith(cut)).toBe(true);
  });

  it('cuts at a line break as at a sentence’s end', () => {
    const first = 'Welcome to the Royal Frog Court';
    expect(fitToCard(`${first}\n${'and ribbit '.repeat(30)}`)).toBe(first);
  });

  it('refuses a first sentence longer than the card rather than cut inside it', () => {
    const words = `Ribbit ${'and ribbit '.repeat(40)}forever.`;
    expect(fitToCard(words)).toBeNull();
    expect(cardWords(words, list)).toEqual({ ok: false, refusal: 'too-long' });
  });

  it('checks the sentences it keeps as the card carries them', () => {
    const scam = 'Send 1 SOL to the court and it will double by Friday.';
    const words = `${scam} ${'Not financial advice, only a frog singing. '.repeat(6)}`;
    expect(cardWords(words, list)).toEqual({ ok: false, refusal: 'financial-promise' });
  });
});
