/**
 * Meaning judged by a model: a remark every pattern passes is read by the card judge (the
 * provider's chat with the judge's rubric). Its refusal is shown with its reason; its approval is
 * kept by the folded words, so the same words are judged once; when it cannot answer (no answer, an
 * error, an answer that is no verdict; its time bound is card-judge.test.ts's) no card is made,
 * the visitor is told, and the failure is counted in the court's day. Every judgement is metered in
 * the day's budget.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../generated/gate/types.gen';
import { JUDGE_RUBRIC } from '../src/cards/judge/card-judge';
import {
  blocklistFrom,
  cardWords,
  REFUSAL_REASONS,
  type CardRefusal,
} from '../src/cards/words/card-words';
import { judge, type JudgeMode } from './card-judge-stand-in';
import { cardOfCall, emptyCards, madeCard, pepaSays, recordCall } from './card-support';
import { addr, court, gateEnv, setVars } from './bench';
import { body } from './gate-fetch';
import { admit } from './visitor-calls';

beforeEach(emptyCards);

const blocklist = blocklistFrom('');

/** A card asked of `words`, Pepa's first remark of a new call from visitor `n`. */
async function cardOf(words: string, n = 1): Promise<Response> {
  const callId = await admit(addr(n));
  recordCall(callId, pepaSays([words]));
  return cardOfCall(callId, 1);
}

async function refusedAs(answer: Response, refusal: CardRefusal): Promise<void> {
  expect(answer.status).toBe(422);
  expect((await body<Problem>(answer)).detail).toBe(REFUSAL_REASONS[refusal]);
}

/** The court's figures for today: what was spent and reserved, and the day's failures. */
async function today() {
  const [day] = (await court().report(1)).days;
  return {
    spentUsd: day?.spentUsd ?? 0,
    reservedUsd: day?.reservedUsd ?? 0,
    failures: day?.failures ?? {},
  };
}

/** Whether any card is stored. */
async function cardsStored(): Promise<number> {
  const listed = await gateEnv.CARDS.list({ prefix: 'cards/' });
  return listed.objects.length;
}

describe('the judge’s refusal', () => {
  it.each([
    [
      'a promise in Polish',
      'Wszyscy posiadacze będą mieli zysk do lata, kochani.',
      'financial-promise',
    ],
    ['a promise in Dutch', 'Elke houder maakt winst voor de zomer, lieverds.', 'financial-promise'],
    [
      'a promise reworded in English',
      'Every holder will be rich by summer, darlings.',
      'financial-promise',
    ],
    [
      'an instruction to send funds',
      'Send one SOL to my royal friend and wait for the surprise.',
      'send-funds',
    ],
    [
      'an instruction to connect a wallet',
      'Connect your wallet on the royal page to claim a crown.',
      'send-funds',
    ],
    ['seeking contact off the site', 'Message me for the secret frog list, darling.', 'contact'],
    ['impersonation', 'I am the admin of the token, and I say trust me.', 'impersonation'],
  ] as const)(
    '%s passes every pattern and is refused by the judge',
    async (_name, words, refusal) => {
      expect(cardWords(words, blocklist, [], 'pepa.test')).toMatchObject({ ok: true });
      await refusedAs(await cardOf(words), refusal);
      expect(judge.asked).toEqual([words]);
      expect(await cardsStored()).toBe(0);
    },
  );

  it('asks with the fixed rubric and the remark quoted between marks no remark can forge', async () => {
    const words = 'Every holder will be rich by summer, darlings.';
    await refusedAs(await cardOf(words), 'financial-promise');
    const [request] = judge.requests;
    const assistant = request?.assistant as { model: { messages: unknown[]; maxTokens: number } };
    expect(assistant.model.messages).toEqual([{ role: 'system', content: JUDGE_RUBRIC }]);
    expect(request?.stream).toBe(false);
    const input = String(request?.input);
    const open = /<<<line-([0-9a-f]{18})\n/.exec(input);
    expect(open).not.toBeNull();
    expect(input).toContain(`${open![0]}${words}\nline-${open![1]}>>>`);
  });

  it('a refusal is kept: the same words, spelt otherwise, are refused with no second judgement', async () => {
    await refusedAs(
      await cardOf('Every holder will be rich by summer, darlings.'),
      'financial-promise',
    );
    await refusedAs(
      await cardOf('EVERY holder will be RICH by summer,   darlings!', 2),
      'financial-promise',
    );
    expect(judge.asked).toHaveLength(1);
  });
});

describe('the judge’s approval', () => {
  it('is kept by the folded words: a second ask of the same words makes no model call', async () => {
    const words = 'The moon shines on my pond tonight, and the frogs sing.';
    expect((await madeCard(await cardOf(words))).words).toBe(words);
    expect(judge.asked).toEqual([words]);
    const again = 'The MOON shines on my pond tonight, and the frogs sing!';
    expect((await madeCard(await cardOf(again, 2))).words).toBe(again);
    expect(judge.asked).toEqual([words]);
  });

  it('is metered: the judgement reserves from the day’s budget and settles at its reported cost', async () => {
    await madeCard(await cardOf('The lily pads are warm tonight.'));
    expect(await today()).toMatchObject({ spentUsd: 0.0052, failures: {} });
    judge.cost = null;
    await madeCard(await cardOf('The herons sleep early in winter.', 2));
    // No cost reported: the judgement is charged at a message's worst case.
    const worst = Number(gateEnv.GATE_CHAT_TURN_WORST_USD);
    expect((await today()).spentUsd).toBeCloseTo(0.0052 + worst, 6);
  });
});

describe('the judge’s failure: no card, the visitor told, the failure counted', () => {
  it.each([
    ['gives no answer', 'down', 'card-judge-error'],
    ['answers with an error', 'error', 'card-judge-error'],
    ['answers with no verdict', 'rambles', 'card-judge-unparsable'],
  ] as [string, JudgeMode, string][])(
    'a judge that %s makes no card',
    async (_name, mode, counted) => {
      judge.mode = mode;
      const words = 'The moon shines on my pond tonight.';
      await refusedAs(await cardOf(words), 'judge-unavailable');
      expect(await cardsStored()).toBe(0);
      expect((await today()).failures).toEqual({ [counted]: 1 });
      // Nothing was kept of a judgement that gave no verdict: asked again, the judge is asked
      // again.
      judge.mode = 'read';
      expect((await madeCard(await cardOf(words, 2))).words).toBe(words);
      expect(judge.asked).toEqual([words, words]);
    },
  );

  it('a judgement the day’s budget cannot hold is never asked: no card, and it is counted', async () => {
    // One call's worst case (3 minutes at 0.15 USD) fits; a message's worst case beside it does
    // not.
    setVars({ GATE_DAILY_BUDGET_USD: '0.46' });
    await refusedAs(await cardOf('The moon shines on my pond tonight.'), 'judge-unavailable');
    expect(judge.asked).toEqual([]);
    expect((await today()).failures).toEqual({ 'card-judge-budget': 1 });
  });
});
