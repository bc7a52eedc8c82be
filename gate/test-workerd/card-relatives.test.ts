/**
 * Takedowns by what matters: a takedown blocks its remark's near relatives (the same words with one
 * word or number changed) and every remark holding one of its addresses, handles or links, for
 * cards to come and for cards already made; and it reports what it blocked.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../generated/gate/types.gen';
import {
  cardOfCall,
  emptyCards,
  madeCard,
  recordCall,
  takeDown,
  takeDownWords,
  takenDown,
} from './card-support';
import { addr, setVars } from './bench';
import { api, body } from './gate-fetch';
import { admit } from './visitor-calls';

const TAKEN_DOWN = /took that card down/;
const REMARK = 'The court opens its doors to every frog at noon.';

/** What a card asked of `words` answered, from a new call of visitor `n`. */
async function ask(words: string, n: number): Promise<Response> {
  const callId = await admit(addr(n));
  recordCall(callId, [words]);
  return cardOfCall(callId, 1);
}

async function refusedAsTakenDown(answer: Response): Promise<void> {
  expect(answer.status).toBe(422);
  expect((await body<Problem>(answer)).detail).toMatch(TAKEN_DOWN);
}

beforeEach(async () => {
  await emptyCards();
  setVars({ GATE_MAX_CONCURRENT_CALLS: '40', GATE_CARDS_NETWORK_PER_DAY: '100' });
});

describe('a near relative of a taken-down remark', () => {
  it.each([
    ['one number changed', 'The court opens its doors to every frog at 3.'],
    ['one word changed', 'The court opens its doors to every toad at noon.'],
    ['one word changed and disguised', 'The cøurt opens its doors to every frog at midnight!'],
  ])('with %s is refused', async (_name, relative) => {
    await takenDown(await takeDownWords(REMARK));
    await refusedAsTakenDown(await ask(relative, 1));
  });

  it('two words changed is another remark, and is carded', async () => {
    await takenDown(await takeDownWords(REMARK));
    const other = 'The court closes its doors to every toad at noon.';
    expect((await madeCard(await ask(other, 1))).words).toBe(other);
  });

  it('of a remark shorter than four words is not blocked: only the words themselves are', async () => {
    const taken = await takenDown(await takeDownWords('Ribbit, dear frogs!'));
    expect(taken.nearRelatives).toBe(false);
    await refusedAsTakenDown(await ask('RIBBIT, dear frogs.', 1));
    expect((await madeCard(await ask('Ribbit, dear toads!', 2))).words).toBe('Ribbit, dear toads!');
  });

  it('already carded is taken down with the remark, its page 410, and the takedown names it', async () => {
    const card = await madeCard(await ask(REMARK, 1));
    const relative = await madeCard(await ask('The court opens its doors to every frog at 3.', 2));
    const taken = await takenDown(await takeDown(card.id));
    expect(taken.cards).toEqual([card.id, relative.id]);
    expect((await api(`/q/${relative.id}`)).status).toBe(410);
  });
});

describe('a card sharing a taken-down address, handle or link', () => {
  const TOKEN_REMARK = 'The Lily2030 ball begins when the moon is high.';

  it('is refused, whatever else it says', async () => {
    const taken = await takenDown(await takeDownWords(TOKEN_REMARK));
    expect(taken.tokens).toContain('lily2030');
    await refusedAsTakenDown(await ask('Frogs of every pond adore the LILY2030 ball, darling.', 1));
  });

  it('a link to the site is blocked by its path, never the site itself', async () => {
    const taken = await takenDown(
      await takeDownWords('Dance with me at pepa.test/ball77 tonight.'),
    );
    expect(taken.tokens).toContain('pepatestball77');
    expect(taken.tokens).not.toContain('pepatest');
    await refusedAsTakenDown(await ask('Every toad hops to pepa.test/ball77 at dawn.', 1));
    const site = 'My court lives at pepa.test, darling.';
    expect((await madeCard(await ask(site, 2))).words).toBe(site);
  });

  it('already carded is taken down, and the takedown reports the token and the card', async () => {
    const holding = await madeCard(await ask('Frogs of every pond adore the Lily2030 ball.', 1));
    const other = await madeCard(await ask('The moon is high over my pond tonight.', 2));
    const taken = await takenDown(await takeDownWords(TOKEN_REMARK));
    expect(taken).toMatchObject({ cards: [holding.id], nearRelatives: true });
    expect(taken.tokens).toContain('lily2030');
    expect((await api(`/q/${holding.id}`)).status).toBe(410);
    expect((await api(`/q/${other.id}`)).status).toBe(200);
  });
});
