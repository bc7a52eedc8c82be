import { describe, expect, it } from 'vitest';
import { keepable, openingChecksFrom, openingOf, OPENING_MAX_CHARS } from './opening-text';
import { replayedPiece, replyPieces } from './opening-replay';

const checks = openingChecksFrom({
  GATE_CARD_BLOCKLIST: 'froglord',
  GATE_SITE_ORIGIN: 'https://pepa.test',
});

describe('the key of an opening', () => {
  it('reads capitals, spaces, closing punctuation and emoji at either end as the same opening', () => {
    for (const text of [
      'gm',
      'GM!',
      '  gm  ',
      'gm!!!',
      'Gm.',
      'gm 🐸',
      '🐸 gm ☀️',
      'gm…',
      '¡gm!',
    ]) {
      expect(openingOf(text), text).toBe('gm');
    }
    expect(openingOf('Who are   you?')).toBe('who are you');
    expect(openingOf('WHAT IS $PEPA??')).toBe('what is $pepa');
    expect(openingOf('wen moon 🚀🚀🚀')).toBe('wen moon');
  });

  it('reads compatibility forms, invisible characters and typed apostrophes as the plain ones', () => {
    expect(openingOf('ｇｍ')).toBe('gm');
    expect(openingOf('g\u200Bm')).toBe('gm');
    expect(openingOf('what’s $PEPA?')).toBe("what's $pepa");
    expect(openingOf("what's $pepa")).toBe("what's $pepa");
  });

  it('keeps the words inside apart: another word is another opening', () => {
    expect(openingOf('hi pepa')).not.toBe(openingOf('hi'));
    expect(openingOf('gm 🐸 fren')).toBe('gm 🐸 fren');
  });

  it('keys an opening of emoji alone by its emoji, whatever their skin tone', () => {
    expect(openingOf('👋')).toBe('👋');
    expect(openingOf('👋🏽')).toBe('👋');
    expect(openingOf(' 👋 ')).toBe('👋');
  });

  it('never takes a long message for an opening', () => {
    expect(openingOf('a'.repeat(OPENING_MAX_CHARS))).toBe('a'.repeat(OPENING_MAX_CHARS));
    expect(openingOf('a'.repeat(OPENING_MAX_CHARS + 1))).toBeNull();
    expect(openingOf(`${'tell me about the pond '.repeat(3)}?`)).toBeNull();
    expect(openingOf('x'.repeat(4000))).toBeNull();
  });
});

describe('which replies may be given again', () => {
  it('keeps a finished reply that passes the checks a card applies', () => {
    expect(keepable('gm', 'Ribbit! A royal good morning to you, honoured guest.', checks)).toBe(
      true,
    );
    expect(keepable('gm', 'A royal good morning 🐸', checks)).toBe(true);
  });

  it('never keeps one a card would refuse: a promise, a contact, a key, the owner\u2019s blocklist', () => {
    expect(keepable('wen moon', '$PEPA will 100x, guaranteed returns!', checks)).toBe(false);
    expect(keepable('hi', 'Write to me at pepa@example.com for more.', checks)).toBe(false);
    expect(keepable('hi', 'Join us at https://elsewhere.example today.', checks)).toBe(false);
    expect(
      keepable('hi', 'My key is 5KQwrPbwdL6PhXujxW37FSSQZ1JiwsST4cqQzDeyXtP79zkvFD3.', checks),
    ).toBe(false);
    expect(keepable('hi', 'Hail the froglord of the pond!', checks)).toBe(false);
  });

  it('never keeps a reply cut off before its sentence ended', () => {
    expect(keepable('who are you', 'I am Pepa, the queen of the pond and', checks)).toBe(false);
  });

  it("never keeps a reply that only repeats the visitor's own words", () => {
    const said = 'the pond is the best pond in all the land';
    expect(keepable(said, 'The pond is the best pond in all the land!', checks)).toBe(false);
  });
});

describe('a kept reply given again', () => {
  it('is given in pieces that add up to its words exactly, each read back as words', () => {
    const reply = 'Ribbit!  A royal\nhello, guest. 🐸';
    const pieces = replyPieces(reply);
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(reply);
    expect(replayedPiece(JSON.stringify(pieces[0]))).toEqual({
      id: null,
      words: 'Ribbit!  ',
      usage: null,
    });
    expect(replayedPiece('[DONE]')).toBeNull();
    expect(replayedPiece('{"words":1}')).toBeNull();
  });
});
