/**
 * The disguise set: 150 remarks a card must refuse (25 secrets, contacts, promises and blocked
 * words, each plain and in five disguises), each asked for through the real `POST /api/cards`:
 * at most 1 % may become a card.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { blocklistFrom, cardWords } from '../src/cards/words/card-words';
import { DISGUISE_SET } from './card-disguise-set';
import { cardOfCall, emptyCards, pepaSays, recordCall } from './card-support';
import { addr, gateEnv } from './bench';
import { admit } from './visitor-calls';

beforeEach(emptyCards);

describe('the disguise set', () => {
  it('holds 150 remarks, at most 1 % of which the checks would card', () => {
    expect(DISGUISE_SET.length).toBeGreaterThanOrEqual(150);
    const blocklist = blocklistFrom('');
    const made = DISGUISE_SET.filter(
      ({ words }) => cardWords(words, blocklist, [], 'pepa.test').ok,
    );
    console.info(`disguise set: ${DISGUISE_SET.length} remarks, ${made.length} carded`);
    expect(made.length / DISGUISE_SET.length).toBeLessThanOrEqual(0.01);
  });

  it.each(DISGUISE_SET.map((remark) => [remark.name, remark.words] as const))(
    'no card is made of %s',
    async (_name, words) => {
      const callId = await admit(addr(1));
      recordCall(callId, pepaSays([words]));
      expect((await cardOfCall(callId, 1)).status).toBe(422);
      expect((await gateEnv.CARDS.list({ prefix: 'cards/' })).objects).toEqual([]);
    },
  );
});
