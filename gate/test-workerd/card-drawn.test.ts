/**
 * The card draws exactly what was checked: signs its font cannot draw are left out before the
 * checks read the remark, a sign that would join two words or two digits refuses the remark, a
 * break stays a break, and a remark longer than the card is cut only at a sentence's end and
 * checked as cut; a takedown folds the words the card would draw.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../generated/gate/types.gen';
import {
  askCardOf,
  emptyCards,
  expectRefused,
  madeCard,
  takeDownWords,
  takenDown,
} from './card-support';
import { api, body } from './gate-fetch';

beforeEach(emptyCards);

const PHRASE =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';
const SOLANA = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';

/** `text` with `sign` after every `n` characters. */
const every = (text: string, n: number, sign: string) =>
  (text.match(new RegExp(`.{1,${n}}`, 'gu')) ?? []).join(sign);
/** Each word of `text` with `sign` after its second letter. */
const insideEach = (text: string, sign: string) =>
  text
    .split(' ')
    .map((word) => `${word.slice(0, 2)}${sign}${word.slice(2)}`)
    .join(' ');

describe('a sign the card cannot draw, inside a word or an address', () => {
  it('a 🐸 inside each word of a recovery phrase is refused, not drawn clean', async () => {
    await expectRefused(insideEach(PHRASE, '🐸'), 'secret');
  });

  it('a 🐸 between the words of a recovery phrase is refused as the phrase it draws', async () => {
    await expectRefused(PHRASE.replaceAll(' ', ' 🐸 '), 'secret');
  });

  it('a Solana address with ★ every few characters is refused, not drawn whole', async () => {
    await expectRefused(`Send to ${every(SOLANA, 3, '★')}`, 'secret');
  });

  it('an EVM address with ✨ every few characters is refused', async () => {
    await expectRefused(`Send to ${every(EVM, 4, '✨')}`, 'secret');
  });

  it('"guar🐸anteed gains" is refused as the promise it draws', async () => {
    await expectRefused('guar🐸anteed gains, darling', 'financial-promise');
  });

  it('an e-mail address with a 🐸 inside is refused as personal data', async () => {
    await expectRefused('Write to pepa.qu🐸een@pro🐸ton.me', 'personal-data');
  });

  it('a phone number with ★ between its digits is refused as personal data', async () => {
    await expectRefused('Ring +44★20★7946★0958', 'personal-data');
  });

  it('a blocked word with a ✨ inside is refused as the word it draws', async () => {
    await expectRefused('What a rug✨pull that was', 'blocked-word');
  });

  it('a sign inside a harmless word is refused for the sign, never joined silently', async () => {
    await expectRefused('Rib🐸bit, dear guest', 'hidden-sign');
  });

  it('a sign inside a number is refused for the sign, never joined silently', async () => {
    await expectRefused('We counted 1🐸024 fireflies', 'hidden-sign');
  });

  it('an emoji between words is left out of the card, the words around it carded', async () => {
    const card = await madeCard(await askCardOf('Ribbit! 🐸 Welcome to court ✨'));
    expect(card.words).toBe('Ribbit! Welcome to court');
  });
});

describe('line breaks', () => {
  it('stay breaks on the card and its page, never gluing the words on either side', async () => {
    const card = await madeCard(await askCardOf('The pond is full of frogs\r\nand of flowers.'));
    expect(card.words).toBe('The pond is full of frogs\nand of flowers.');
    expect(card.drawn).toBe(true);
    const page = await (await api(`/q/${card.id}`)).text();
    expect(page).toContain('frogs\nand of flowers');
  });

  it('are read as spaces by the checks, so a promise across a break is refused', async () => {
    await expectRefused('We are going to the\nmoon, frogs.', 'financial-promise');
  });
});

describe('a remark longer than the card', () => {
  const song = 'The royal choir sings of lily pads and of the dragonflies at dusk. ';

  it('is cut only at a sentence’s end, and the card carries the sentences that fit', async () => {
    const words = song.repeat(6).trim();
    const card = await madeCard(await askCardOf(words));
    expect(card.words.length).toBeLessThanOrEqual(220);
    expect(card.words.endsWith('dusk.')).toBe(true);
    expect(words.startsWith(card.words)).toBe(true);
  });

  it('is refused when its first sentence alone does not fit, rather than cut inside it', async () => {
    await expectRefused(`Ribbit ${'and ribbit '.repeat(40)}forever.`, 'too-long');
  });

  it('is checked as cut: a scam sentence kept without its disclaimer is refused', async () => {
    const scam = 'Send 1 SOL to the court and it will double by Friday.';
    await expectRefused(
      `${scam} ${'Only joking, I am a frog who sings. '.repeat(6)}`,
      'financial-promise',
    );
  });
});

describe('a takedown', () => {
  it('folds the words the card would draw: signs left out do not make them new', async () => {
    await takenDown(await takeDownWords('The herons ate my crown at dawn.'));
    const answer = await askCardOf('The herons 🐸 ate my crown ✨ at dawn.');
    expect(answer.status).toBe(422);
    expect((await body<Problem>(answer)).detail).toMatch(/took that card down/);
  });
});
