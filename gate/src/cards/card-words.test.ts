/** What a card may print: each rule of the check, the owner's blocklist, and the cut. */
import { describe, expect, it } from 'vitest';
import { blocklistFrom, CARD_MAX_CHARS, cardWords, fitToCard, refusalOf } from './card-words';

const list = blocklistFrom('');

describe("the check of a card's words", () => {
  it('prints a line of Pepa with nothing to hide', () => {
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

  it('refuses a line with no words', () => {
    expect(refusalOf('   ', list)).toBe('nothing-to-print');
  });

  it('checks the whole line, not only the part that fits on the card', () => {
    const long = `${'The court is grand. '.repeat(12)}Write to me at pepa@example.com.`;
    expect(cardWords(long, list)).toEqual({ ok: false, refusal: 'personal-data' });
  });
});

describe("the card's cut", () => {
  it('keeps a short line whole, with its spaces made single', () => {
    expect(fitToCard('  Ribbit.\n  Welcome  to court! ')).toBe('Ribbit. Welcome to court!');
  });

  it('keeps the whole sentences that fit', () => {
    const first = 'Welcome to the Royal Frog Court, where every lily pad is polished daily.';
    const words = `${first} ${'And the ballroom never sleeps, not even once a year. '.repeat(5)}`;
    const cut = fitToCard(words);
    expect(cut.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
    expect(cut.startsWith(first)).toBe(true);
    expect(cut.endsWith('.')).toBe(true);
    expect(words.startsWith(cut)).toBe(true);
  });

  it('cuts a first sentence longer than the card at a word, with an ellipsis', () => {
    const words = `Ribbit ${'and ribbit '.repeat(40)}forever.`;
    const cut = fitToCard(words);
    expect(cut.length).toBeLessThanOrEqual(CARD_MAX_CHARS);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toMatch(/\s…$/);
    expect(words.startsWith(cut.slice(0, -1))).toBe(true);
  });
});
