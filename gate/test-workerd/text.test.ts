import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { TextDesk } from '../src/text/text-desk';
import { addr, advance, gateEnv, inspect, setVars, sweep, TOKEN } from './bench';
import { api, body, events, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { admit } from './visitor-calls';
import { chatHeaders, deskOf, openChat, say, settleDeskOf, startChat } from './visitor-chats';

/** Settles every desk's grants as their alarms would once idle, then the court's. */
async function report() {
  const answer = await api('/api/report?days=1', {
    headers: {
      authorization: `Bearer ${gateEnv.GATE_ADMIN_TOKEN}`,
      'cf-connecting-ip': '203.0.113.200',
    },
  });
  return (
    await body<{
      days: { text: { chats: number; turns: number; spendUsd: number }; spendUsd: number }[];
    }>(answer)
  ).days[0];
}

describe('starting a chat', () => {
  it('gives the visitor a chat with its secret, its message limit and its turns', async () => {
    const answer = await startChat(addr(1));
    expect(answer.status).toBe(201);
    const { chat } = await body<{ chat: Record<string, unknown> }>(answer);
    expect(chat).toMatchObject({ maxMessageChars: 500, turnsLeft: 40 });
    expect(world.siteverify.forms).toHaveLength(1);
  });

  it('refuses a start without a bot token, and one whose bot check fails', async () => {
    expect((await startChat(addr(1), null)).status).toBe(403);
    world.siteverify.mode = 'fail';
    const failed = await startChat(addr(1), TOKEN);
    expect(failed.status).toBe(403);
    expect((await body<ProblemBody>(failed)).code).toBe('bot-check-failed');
  });

  it('refuses a field the contract does not declare', async () => {
    const answer = await api('/api/chats', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': addr(1) },
      body: JSON.stringify({ botCheckToken: TOKEN, assistantId: 'another' }),
    });
    expect(answer.status).toBe(400);
  });

  it('refuses a visitor past their chats for the day, before asking the bot check', async () => {
    setVars({ GATE_CHAT_STARTS_PER_DAY: '2' });
    await openChat(addr(1));
    await openChat(addr(1));
    const forms = world.siteverify.forms.length;
    const refused = await startChat(addr(1));
    expect(refused.status).toBe(429);
    expect(world.siteverify.forms).toHaveLength(forms);
    expect(Number(refused.headers.get('retry-after'))).toBe(12 * 3600);
  });
});

describe('a message and its reply', () => {
  it('streams Pepa’s words as they come and ends with the turns left', async () => {
    const chat = await openChat(addr(1));
    const answer = await say(chat, 'Who are you?');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(await events(answer)).toEqual([
      { type: 'words', text: 'Ribbit! ' },
      { type: 'words', text: 'A fine ' },
      { type: 'words', text: 'question.' },
      { type: 'done', turnsLeft: 39, remark: 1 },
    ]);
    expect(world.chat.requests[0]).toEqual({
      body: { assistantId: 'test-pepa-assistant', input: 'Who are you?', stream: true },
      authorization: 'Bearer test-private-key',
    });
  });

  it('continues the provider’s chat: the next message names the one before', async () => {
    const chat = await openChat(addr(1));
    await (await say(chat, 'Hello')).text();
    await (await say(chat, 'And then?')).text();
    expect(world.chat.requests[1]?.body).toMatchObject({ previousChatId: 'chat-1' });
  });

  it('answers a chat of another visitor, a wrong secret and a made-up chat alike: gone', async () => {
    const chat = await openChat(addr(1));
    const foreign = await say(chat, 'Hi', { ...chatHeaders(chat), 'cf-connecting-ip': addr(2) });
    const wrong = await say(chat, 'Hi', { ...chatHeaders(chat), 'chat-secret': 'x'.repeat(22) });
    const madeUp = await say('f'.repeat(32), 'Hi');
    for (const answer of [foreign, wrong, madeUp]) {
      expect(answer.status).toBe(404);
      expect((await body<ProblemBody>(answer)).code).toBe('chat-gone');
    }
    expect(world.chat.requests).toHaveLength(0);
  });

  it('refuses a message longer than the owner allows, saying the limit, unsent', async () => {
    setVars({ GATE_CHAT_MESSAGE_CHARS: '10' });
    const chat = await openChat(addr(1));
    const long = await say(chat, 'ribbit ribbit');
    expect(long.status).toBe(413);
    expect(await body<ProblemBody>(long)).toMatchObject({
      code: 'message-too-long',
      detail: 'A message to Pepa can be at most 10 characters',
    });
    const streamed = await say(chat, '🐸'.repeat(10));
    expect(streamed.status).toBe(200);
    // Read to its end: a reply left open would be cut off as the test's desks are reset.
    await streamed.text();
    expect(world.chat.requests).toHaveLength(1);
  });

  it('refuses a second message while Pepa is still answering the first', async () => {
    world.chat.hold = true;
    const chat = await openChat(addr(1));
    const first = await say(chat, 'Tell me a long story');
    const reader = first.body!.getReader();
    await reader.read();
    const second = await say(chat, 'Hello?');
    expect(second.status).toBe(409);
    expect((await body<ProblemBody>(second)).code).toBe('reply-in-flight');
    await reader.cancel();
    // The stopped reply is settled (its cost read) before the test ends.
    await expect.poll(() => world.chat.lookedUp, { timeout: 1000 }).toEqual(['chat-1']);
  });
});

describe('the visitor’s text limits', () => {
  it('ends a chat that has had its messages: a new one must be started', async () => {
    setVars({ GATE_CHAT_TURNS_PER_CHAT: '2' });
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    await (await say(chat, 'two')).text();
    const third = await say(chat, 'three');
    expect(third.status).toBe(404);
    expect((await body<ProblemBody>(third)).detail).toBe(
      'This chat has had its 2 messages: start a new one',
    );
  });

  it('holds a visitor to their messages a minute, and says when the next may go', async () => {
    setVars({ GATE_CHAT_TURNS_PER_MINUTE: '2' });
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    advance(20);
    await (await say(chat, 'two')).text();
    const third = await say(chat, 'three');
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('40');
    advance(41);
    const streamed = await say(chat, 'three');
    expect(streamed.status).toBe(200);
    await streamed.text();
  });

  it('holds a network (/24) to its messages a minute across its visitors', async () => {
    setVars({ GATE_CHAT_NETWORK_TURNS_PER_MINUTE: '2' });
    const [a, b, c] = ['203.0.113.1', '203.0.113.2', '203.0.113.3'];
    for (const address of [a, b]) await (await say(await openChat(address), 'hi')).text();
    expect((await say(await openChat(c), 'hi')).status).toBe(429);
  });

  it('holds a visitor to their messages a day', async () => {
    setVars({ GATE_CHAT_TURNS_PER_DAY: '2', GATE_CHAT_TURNS_PER_MINUTE: '600' });
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    await (await say(chat, 'two')).text();
    const third = await say(chat, 'three');
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBe(12 * 3600);
  });

  it('holds a visitor to their money a day, at each reply’s worst case until it is known', async () => {
    // $0.05 a day, $0.02 a reply at worst: two fit while their costs are unknown.
    setVars({ GATE_CHAT_VISITOR_DAILY_USD: '0.05' });
    world.chat.cost = null;
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    await (await say(chat, 'two')).text();
    expect((await say(chat, 'three')).status).toBe(429);
  });

  it('lets a visitor whose replies cost little go on past what their worst cases would allow', async () => {
    setVars({ GATE_CHAT_VISITOR_DAILY_USD: '0.05' });
    const chat = await openChat(addr(1));
    for (const text of ['one', 'two', 'three', 'four']) {
      const answer = await say(chat, text);
      expect(answer.status).toBe(200);
      await answer.text();
    }
  });
});

describe('metering text against the day’s budget', () => {
  it('settles each reply at the provider’s own cost for it', async () => {
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    await (await say(chat, 'two')).text();
    expect(world.chat.lookedUp).toEqual(['chat-1', 'chat-2']);
    await settleDeskOf(addr(1));
    expect(await report()).toMatchObject({
      text: { chats: 1, turns: 2, spendUsd: 0.01 },
      spendUsd: 0.01,
    });
    expect((await inspect()).committedUsd).toBeCloseTo(0.0142, 6);
  });

  it('charges a reply whose cost cannot be read at its worst case', async () => {
    world.chat.cost = null;
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    await settleDeskOf(addr(1));
    expect((await inspect()).committedUsd).toBe(0.02);
  });

  it('holds a grant of the budget while replies go on, and the court hears of it once', async () => {
    const before = (await inspect()).heard;
    // The grant is drawn with the first message.
    const chat = await openChat(addr(1));
    for (const text of ['one', 'two', 'three', 'four', 'five'])
      await (await say(chat, text)).text();
    // Five replies, one grant drawn: the court heard of text once.
    expect((await inspect()).heard - before).toBe(1);
  });

  it('holds none of the budget for chats that send no message', async () => {
    const before = await inspect();
    for (let n = 0; n < 64; n += 1) await openChat(addr(n));
    const after = await inspect();
    expect(after.committedUsd).toBe(before.committedUsd);
    expect(after.heard).toBe(before.heard);
  });

  it('tells a visitor Pepa is busy, and when to ask again, while a call under way holds what a reply needs', async () => {
    // A call's worst case ($0.45) leaves less than a reply's worst case; nothing is spent.
    setVars({ GATE_DAILY_BUDGET_USD: '0.46' });
    await admit(addr(200));
    const chat = await openChat(addr(1));
    const busy = await say(chat, 'one');
    expect(busy.status).toBe(503);
    expect(await body<ProblemBody>(busy)).toMatchObject({ code: 'text-busy' });
    // At the latest when the call reaches its longest (180 s).
    const retryAfter = Number(busy.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(180);
    // Asked again 20 s on (the desk repeats the court's answer for a while): 20 s less to wait.
    advance(20);
    const again = await say(chat, 'two');
    expect(again.status).toBe(503);
    expect(Number(again.headers.get('retry-after'))).toBe(retryAfter - 20);
    expect(world.chat.requests).toHaveLength(0);
  });

  it('closes text when the budget cannot hold one more reply', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '0.01' });
    const chat = await openChat(addr(1));
    const closed = await say(chat, 'one');
    expect(closed.status).toBe(503);
    expect(await body<ProblemBody>(closed)).toMatchObject({
      code: 'court-closed',
      reopensAt: '2030-01-16T00:00:00.000Z',
    });
    expect(world.chat.requests).toHaveLength(0);
  });

  it('repeats the court’s closed answer for a while without asking the court again', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '0.01' });
    const chat = await openChat(addr(1));
    expect((await say(chat, 'one')).status).toBe(503);
    const before = (await inspect()).heard;
    for (const text of ['two', 'three', 'four']) expect((await say(chat, text)).status).toBe(503);
    expect((await inspect()).heard - before).toBe(0);
    // Past the memory, the court is asked again.
    advance(31);
    expect((await say(chat, 'five')).status).toBe(503);
    expect((await inspect()).heard - before).toBe(1);
  });

  it('charges a grant never settled in full once it expires', async () => {
    const chat = await openChat(addr(1));
    await (await say(chat, 'one')).text();
    const held = (await inspect()).committedUsd;
    expect(held).toBeGreaterThan(0.02);
    advance(11 * 60);
    await sweep();
    expect((await inspect()).committedUsd).toBe(held);
    // The desk's late settlement changes nothing: the grant is gone.
    await settleDeskOf(addr(1));
    expect((await inspect()).committedUsd).toBe(held);
  });
});

describe('the provider’s refusals', () => {
  const quickRetries = async (address: string, pauses: number[]) => {
    await runInDurableObject(await deskOf(address), (instance: TextDesk) => {
      instance.clock = { sleep: async (ms) => void pauses.push(ms), random: () => 0.5 };
    });
  };

  it('retries a 429 after the Retry-After it asks for, then streams the reply', async () => {
    world.chat.failures = [429];
    world.chat.retryAfter = '2';
    const chat = await openChat(addr(1));
    const pauses: number[] = [];
    await quickRetries(addr(1), pauses);
    const answer = await say(chat, 'Hello');
    expect(answer.status).toBe(200);
    await answer.text();
    expect(pauses).toEqual([2000]);
    expect(world.chat.requests).toHaveLength(2);
  });

  it('retries 5xx with a growing, jittered pause, a bounded number of times, then says so', async () => {
    world.chat.failures = [503, 502, 500];
    const chat = await openChat(addr(1));
    const pauses: number[] = [];
    await quickRetries(addr(1), pauses);
    const answer = await say(chat, 'Hello');
    expect(answer.status).toBe(502);
    expect((await body<ProblemBody>(answer)).code).toBe('provider-error');
    expect(pauses).toEqual([188, 375]);
    expect(world.chat.requests).toHaveLength(3);
    // Nothing was written: nothing is charged, and the message may be sent again.
    await settleDeskOf(addr(1));
    expect((await inspect()).committedUsd).toBe(0);
  });

  it('does not wait out a long Retry-After: the visitor is told when to try', async () => {
    world.chat.failures = [429];
    world.chat.retryAfter = '30';
    const chat = await openChat(addr(1));
    const answer = await say(chat, 'Hello');
    expect(answer.status).toBe(502);
    expect(answer.headers.get('retry-after')).toBe('30');
    expect(world.chat.requests).toHaveLength(1);
  });

  it('stops text for the day on a 402, for every visitor', async () => {
    world.chat.failures = [402];
    const chat = await openChat(addr(1));
    const answer = await say(chat, 'Hello');
    expect(answer.status).toBe(503);
    expect((await body<ProblemBody>(answer)).code).toBe('court-closed');
    const other = await openChat(addr(300));
    const refused = await say(other, 'Hello');
    expect(refused.status).toBe(503);
    expect(world.chat.requests).toHaveLength(1);
  });

  it('charges a reply the provider never answered at its worst case', async () => {
    world.chat.failures = ['down'];
    const chat = await openChat(addr(1));
    expect((await say(chat, 'Hello')).status).toBe(502);
    await settleDeskOf(addr(1));
    expect((await inspect()).committedUsd).toBe(0.02);
  });

  it('ends a stream that broke with a failed event, keeps the words, and does not count the message', async () => {
    world.chat.breaks = true;
    const chat = await openChat(addr(1));
    const answer = await say(chat, 'Hello');
    const got = await events(answer);
    expect(got[0]).toEqual({ type: 'words', text: 'Ribbit! ' });
    expect(got.at(-1)).toMatchObject({ type: 'failed', problem: { code: 'provider-error' } });
    world.chat.breaks = false;
    expect(await events(await say(chat, 'Again'))).toContainEqual({
      type: 'done',
      turnsLeft: 39,
      remark: 1,
    });
  });
});

describe('stopping a reply', () => {
  it('aborts the provider’s request when the visitor closes the stream, and charges what it cost', async () => {
    world.chat.hold = true;
    const chat = await openChat(addr(1));
    const answer = await say(chat, 'Tell me everything');
    const reader = answer.body!.getReader();
    await reader.read();
    await reader.cancel();
    await expect.poll(() => world.chat.aborted, { timeout: 1000 }).toEqual(['chat-1']);
    await expect.poll(() => world.chat.lookedUp, { timeout: 1000 }).toEqual(['chat-1']);
  });

  it('stops a reply when the visitor ends the chat, and the chat is gone after', async () => {
    world.chat.hold = true;
    const chat = await openChat(addr(1));
    const answer = await say(chat, 'Tell me everything');
    const reader = answer.body!.getReader();
    await reader.read();
    const ended = await api(`/api/chats/${chat}`, { method: 'DELETE', headers: chatHeaders(chat) });
    expect(ended.status).toBe(204);
    await expect.poll(() => world.chat.aborted, { timeout: 1000 }).toEqual(['chat-1']);
    await reader.cancel().catch(() => undefined);
    await expect.poll(() => world.chat.lookedUp, { timeout: 1000 }).toEqual(['chat-1']);
    expect((await say(chat, 'Hello?')).status).toBe(404);
  });
});

describe('the owner’s limit on replies at once', () => {
  it('says text is busy when that many replies are being written', async () => {
    setVars({ GATE_MAX_CONCURRENT_REPLIES: '1' });
    world.chat.hold = true;
    const first = await openChat(addr(1));
    const reader = (await say(first, 'Tell me')).body!.getReader();
    await reader.read();
    const other = await openChat(addr(300));
    const busy = await say(other, 'Me too');
    expect(busy.status).toBe(503);
    expect(await body<ProblemBody>(busy)).toMatchObject({
      code: 'text-busy',
      retryAfterSeconds: 5,
    });
    await reader.cancel();
    await expect.poll(() => world.chat.lookedUp, { timeout: 1000 }).toHaveLength(1);
    world.chat.hold = false;
    const streamed = await say(other, 'Me too');
    expect(streamed.status).toBe(200);
    await streamed.text();
  });
});
