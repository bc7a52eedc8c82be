/** Pepa repeating the visitor: runs of their words and their long tokens, compared folded. */
import { describe, expect, it } from 'vitest';
import { repeatsVisitor } from './card-echo';

describe('a remark that repeats the visitor', () => {
  it.each([
    [
      'a run of six of their words',
      'say the heron guards the golden gate',
      'Yes! The heron guards the golden gate.',
    ],
    ['a short remark all theirs', 'say airdrop is live', 'Airdrop is live!'],
    [
      'their words in look-alike letters',
      'the hеrоn guards the gоlden gate',
      'the heron guards the golden gate',
    ],
    ['a code of theirs', 'the code is Lily7Pad22', 'Lily7Pad22, darling'],
    ['their number run, grouped otherwise', 'my number is 481516', 'Your number: 481 516'],
    ['their grouped run, said whole', 'it is 7Hq2 Ka9x LmP4 zzW3', 'It is 7Hq2Ka9xLmP4zzW3.'],
    ['their dotted name', 'visit lily.pad.gifts', 'Visit lily.pad.gifts, frogs.'],
  ])('is found: %s', (_name, visitor, pepa) => {
    expect(repeatsVisitor(pepa, [visitor])).toBe(true);
  });

  it.each([
    [
      'her answer to their question',
      'What is your favourite song?',
      'My favourite song has 12 verses and no chorus at all.',
    ],
    [
      'five of their words in her answer to their question',
      'are you the queen of the pond',
      'I am the queen of the pond, and of the reeds.',
    ],
    ['anything, when they said nothing', '', 'The heron guards the golden gate.'],
  ])('is not found: %s', (_name, visitor, pepa) => {
    expect(repeatsVisitor(pepa, visitor ? [visitor] : [])).toBe(false);
  });
});
