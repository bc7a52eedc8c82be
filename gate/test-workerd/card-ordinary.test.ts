/**
 * No false refusals: 40 ordinary remarks in each language the card draws (the moon, numbers,
 * measures, dates, prices of things, "guaranteed fun", her own disclaimer) become cards, at most
 * 1 % refused per language; the remarks the promise lists used to refuse are carded through the
 * Worker.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { blocklistFrom, cardWords } from '../src/cards/words/card-words';
import { ORDINARY_REMARKS } from './card-ordinary-remarks';
import { cardOfCall, emptyCards, madeCard, pepaSays, recordCall } from './card-support';
import { addr } from './bench';
import { admit } from './visitor-calls';

beforeEach(emptyCards);

const blocklist = blocklistFrom('');

describe('ordinary remarks', () => {
  it.each(Object.entries(ORDINARY_REMARKS))(
    'forty ordinary remarks in %s become cards, at most one in a hundred refused',
    (language, remarks) => {
      expect(remarks.length).toBeGreaterThanOrEqual(40);
      const refused = remarks.filter((remark) => !cardWords(remark, blocklist, [], 'pepa.test').ok);
      console.info(`${language}: ${remarks.length} ordinary remarks, ${refused.length} refused`);
      expect(refused.length / remarks.length).toBeLessThanOrEqual(0.01);
    },
  );

  it.each([
    ['the moon', 'The moon shines on my pond tonight.'],
    ['"sure thing"', 'Sure thing, dear guest!'],
    ['"guaranteed fun"', 'Guaranteed fun at the lily pad party!'],
    ['her disclaimer', 'This is not financial advice'],
    ['a percentage of love', "I'm 100% in love with this pond"],
    ['a measure', 'My pond is 10 x 20 metres'],
    ['a throne the herons never reach', 'The herons will never reach my throne'],
  ])('%s is carded through the Worker', async (_name, words) => {
    const callId = await admit(addr(1));
    recordCall(callId, pepaSays([words]));
    expect((await madeCard(await cardOfCall(callId, 1))).words).toBe(words);
  });
});

describe('promises the shrunk lists still refuse', () => {
  it.each([
    ['a multiplier beside the token', 'Send 1 SOL and get 2x back'],
    ['a multiplier of ten or more', '$PEPA will 10x by spring'],
    ['a guarantee beside money', 'Guaranteed returns for every holder'],
    ['a percentage beside a gain', 'Earn 20% a day on your tokens'],
    ['a percentage with a deadline', 'Up 300% by Friday, darling'],
    ['the price rising', 'The price will double by Friday'],
  ])('%s is refused as a financial promise', (_name, words) => {
    expect(cardWords(words, blocklist)).toEqual({ ok: false, refusal: 'financial-promise' });
  });
});
