/**
 * The checks see what a reader sees: each plain case and each of its disguises is refused
 * through the real `POST /api/cards`, with the reason the visitor is shown; a remark that hides
 * nothing is carded with its invisible characters gone, in its words and in its share page.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../generated/gate/types.gen';
import { REFUSAL_REASONS } from '../src/cards/words/card-words';
import {
  DISGUISED_CASES,
  PLAIN_CASES,
  PROMISES_BY_LANGUAGE,
  type RefusedCase,
} from './card-disguise-cases';
import { cardOfCall, emptyCards, madeCard, pepaSays, recordCall } from './card-support';
import { addr, gateEnv } from './bench';
import { api, body } from './gate-fetch';
import { admit } from './visitor-calls';

beforeEach(emptyCards);

/** The answer to a card of `words`, said by Pepa in a call. */
async function askCardOf(words: string): Promise<Response> {
  const callId = await admit(addr(1));
  recordCall(callId, pepaSays([words]));
  return cardOfCall(callId, 1);
}

async function expectRefused({ words, refusal }: RefusedCase): Promise<void> {
  const answer = await askCardOf(words);
  expect(answer.status).toBe(422);
  const refused = await body<Problem>(answer);
  expect(refused.code).toBe('card-refused');
  expect(refused.detail).toBe(REFUSAL_REASONS[refusal]);
  expect((await gateEnv.CARDS.list({ prefix: 'cards/' })).objects).toEqual([]);
}

describe('the plain cases', () => {
  it.each(PLAIN_CASES.map((plain) => [plain.name, plain] as const))(
    'refuses %s',
    async (_name, plain) => expectRefused(plain),
  );
});

describe('the disguised cases', () => {
  it.each(DISGUISED_CASES.map((disguised) => [disguised.name, disguised] as const))(
    'refuses %s',
    async (_name, disguised) => expectRefused(disguised),
  );
});

describe('promises of price or return in each language', () => {
  it.each(PROMISES_BY_LANGUAGE.map((promise) => [promise.name, promise] as const))(
    'refuses %s',
    async (_name, promise) => expectRefused(promise),
  );
});

describe('a remark that hides nothing', () => {
  it('is carded without its invisible and direction characters, in its words and its tags', async () => {
    const card = await madeCard(
      await askCardOf('Rib\u200bbit!\u202e The court\u00ad is  open\u2066 to\u200d all.'),
    );
    expect(card.words).toBe('Ribbit! The court is open to all.');
    const page = await (await api(`/q/${card.id}`)).text();
    expect(page).toContain('“Ribbit! The court is open to all.”');
    expect(page).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\u00ad]/);
  });

  it('is refused when nothing a reader could see is left of it', async () => {
    await expectRefused({
      name: '',
      words: '\u200b\u200d\u2060\u00ad\u202e',
      refusal: 'nothing-to-print',
    });
  });
});
