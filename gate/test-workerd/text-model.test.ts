import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatCompletionRequest } from '../../generated/model/types.gen';
import { PEPA_CHAT } from '../../generated/pepa-chat';
import { worstTurnUsd } from '../src/text/model-chat';
import { addr, inspect, setVars } from './bench';
import { madeCard, cardOfChat } from './card-support';
import { body, events, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { start } from './visitor-calls';
import { openChat, say, settleDeskOf, startChat } from './visitor-chats';

/** What the default usage costs at the shipped prices: 576 prompt, 1,024 cached, 40 out. */
const ONE_REPLY_USD = (576 * 0.15 + 1024 * 0.075 + 40 * 0.6) / 1e6;

/** The most a request the endpoint received could have cost, at the shipped prices. */
const worstOf = (request: Record<string, unknown>) =>
  worstTurnUsd(request as unknown as ChatCompletionRequest, {
    input: 0.15,
    cachedInput: 0.075,
    output: 0.6,
  });

/** Settles the desk's grants as its alarm would once idle. */
beforeEach(() => {
  setVars({ GATE_TEXT_ENGINE: 'model' });
});

describe('text through the model engine', () => {
  it("streams Pepa's reply from the endpoint with her voice's model, prompt and token cap, under the owner's key", async () => {
    const chat = await openChat(addr(1));
    const answer = await say(chat, 'Who are you?');
    expect(await events(answer)).toEqual([
      { type: 'words', text: 'Ribbit! ' },
      { type: 'words', text: 'A royal ' },
      { type: 'words', text: 'hello.' },
      { type: 'done', turnsLeft: 39, remark: 1 },
    ]);
    expect(world.model.requests).toHaveLength(1);
    const [asked] = world.model.requests;
    expect(asked?.authorization).toBe('Bearer test-model-key');
    expect(asked?.body).toMatchObject({
      model: PEPA_CHAT.model,
      max_completion_tokens: PEPA_CHAT.maxCompletionTokens,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: PEPA_CHAT.systemPrompt },
        { role: 'user', content: 'Who are you?' },
      ],
    });
    // The endpoint learns an opaque visitor key, never an address.
    expect(String(asked?.body.user)).not.toContain('198.');
    expect(world.chat.requests).toHaveLength(0);
  });

  it("sends what was said before with the next message, from the desk's own record", async () => {
    const chat = await openChat(addr(1));
    await (await say(chat, 'Hello')).text();
    await (await say(chat, 'And then?')).text();
    expect(world.model.requests[1]?.body.messages).toEqual([
      { role: 'system', content: PEPA_CHAT.systemPrompt },
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Ribbit! A royal hello.' },
      { role: 'user', content: 'And then?' },
    ]);
  });

  it("settles each reply at the usage its stream reported, at the owner's prices", async () => {
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    await (await say(chat, 'two')).text();
    await settleDeskOf(addr(1));
    expect((await inspect()).committedUsd).toBeCloseTo(2 * ONE_REPLY_USD, 6);
    // Nothing is asked of the provider to know what text cost.
    expect(world.chat.lookedUp).toEqual([]);
  });

  it('prices a reply at the prices the owner set', async () => {
    setVars({
      GATE_MODEL_INPUT_USD_PER_MTOK: '1',
      GATE_MODEL_CACHED_INPUT_USD_PER_MTOK: '0.5',
      GATE_MODEL_OUTPUT_USD_PER_MTOK: '4',
    });
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    await settleDeskOf(addr(1));
    expect((await inspect()).committedUsd).toBeCloseTo((576 + 512 + 160) / 1e6, 9);
  });

  it('charges a reply whose stream reported no usage, or one that does not add up, at its worst case', async () => {
    world.model.usage = 'none';
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    world.model.usage = 'malformed';
    await (await say(chat, 'two')).text();
    world.model.usage = { prompt_tokens: 10, completion_tokens: 5, cached_tokens: 11 };
    await (await say(chat, 'three')).text();
    await settleDeskOf(addr(1));
    // Each at the most its own request could cost: every prompt byte a token, the whole cap.
    const worst = world.model.requests.reduce((sum, { body }) => sum + worstOf(body), 0);
    expect(world.model.requests).toHaveLength(3);
    expect((await inspect()).committedUsd).toBeCloseTo(worst, 6);
    expect(worst).toBeLessThan(3 * 0.02);
  });

  it('keeps the words of a reply that broke off, charges it at its worst case and does not count the message', async () => {
    world.model.breaks = true;
    const chat = await openChat(addr(1));
    const got = await events(await say(chat, 'Hello'));
    expect(got[0]).toEqual({ type: 'words', text: 'Ribbit! ' });
    expect(got.at(-1)).toMatchObject({ type: 'failed', problem: { code: 'provider-error' } });
    await settleDeskOf(addr(1));
    const [asked] = world.model.requests;
    expect((await inspect()).committedUsd).toBeCloseTo(worstOf(asked?.body ?? {}), 6);
    world.model.breaks = false;
    expect(await events(await say(chat, 'Again'))).toContainEqual({
      type: 'done',
      turnsLeft: 39,
      remark: 1,
    });
  });

  it('stops text for the day when the account has no quota left, for every visitor', async () => {
    world.model.failures = [{ status: 429, code: 'insufficient_quota' }];
    const chat = await openChat(addr(1));
    const answer = await say(chat, 'Hello');
    expect(answer.status).toBe(503);
    expect((await body<ProblemBody>(answer)).code).toBe('court-closed');
    const other = await openChat(addr(300));
    expect((await say(other, 'Hello')).status).toBe(503);
    expect(world.model.requests).toHaveLength(1);
  });

  it('says a refused key is a failure of the text service, charges nothing and gives the message back', async () => {
    world.model.failures = [{ status: 401, code: 'invalid_api_key' }];
    const chat = await openChat(addr(1));
    const refused = await say(chat, 'Hello');
    expect(refused.status).toBe(502);
    expect((await body<ProblemBody>(refused)).code).toBe('provider-error');
    await settleDeskOf(addr(1));
    expect((await inspect()).committedUsd).toBe(0);
    expect(await events(await say(chat, 'Hello again'))).toContainEqual({
      type: 'done',
      turnsLeft: 39,
      remark: 1,
    });
  });

  it("makes a card of a model reply from the desk's record, asking nobody for its words", async () => {
    const chat = await openChat(addr(1));
    await (await say(chat, 'Who are you?')).text();
    const card = await madeCard(await cardOfChat(chat, 1));
    expect(card).toMatchObject({ words: 'Ribbit! A royal hello.' });
    expect(world.chat.lookedUp).toEqual([]);
    // A remark the record does not hold is no card.
    expect((await cardOfChat(chat, 2)).status).toBe(404);
  });
});

describe("the model engine's settings", () => {
  const broken: Record<string, Record<string, string | undefined>> = {
    'an engine the gate does not know': { GATE_TEXT_ENGINE: 'gpt' },
    'no key': { MODEL_API_KEY: undefined },
    'a price of nothing': { GATE_MODEL_OUTPUT_USD_PER_MTOK: '0' },
    'a price that is not a number': { GATE_MODEL_INPUT_USD_PER_MTOK: 'cheap' },
    'a cached price above the prompt price': { GATE_MODEL_CACHED_INPUT_USD_PER_MTOK: '1' },
    'an endpoint over plain http': { GATE_MODEL_API_URL: 'http://model.example/v1' },
  };
  for (const [what, vars] of Object.entries(broken)) {
    it(`refuses text, never asking the endpoint, with ${what}; voice goes on`, async () => {
      setVars(vars);
      const refused = await startChat(addr(1));
      expect(refused.status).toBe(503);
      expect((await body<ProblemBody>(refused)).code).toBe('gate-unavailable');
      expect(world.model.requests).toHaveLength(0);
      expect((await start(addr(2))).status).toBe(201);
    });
  }
});
