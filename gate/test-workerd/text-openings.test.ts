import { runInDurableObject } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TextDesk } from '../src/text/text-desk';
import { gateEnv, inspect, setVars } from './bench';
import { cardOfChat, madeCard } from './card-support';
import { api, body, events } from './gate-fetch';
import { world } from './outside-world';
import { deskOf, openChat, say, settleDeskOf } from './visitor-chats';

/** Two visitors of one network: one desk holds both their chats. */
const FIRST = '198.51.100.1';
const SECOND = '198.51.100.2';
const THIRD = '198.51.100.3';

/** The model's reply to "gm", as the stand-in streams it, and as the record gives it again. */
const REPLY = 'Ribbit! A royal hello.';

beforeEach(() => {
  setVars({ GATE_TEXT_ENGINE: 'model' });
});

/** The day's text totals, from the owner's report. */
async function textToday() {
  const answer = await api('/api/report?days=1', {
    headers: {
      authorization: `Bearer ${gateEnv.GATE_ADMIN_TOKEN}`,
      'cf-connecting-ip': '203.0.113.200',
    },
  });
  return (await body<{ days: { text: Record<string, number> }[] }>(answer)).days[0]?.text;
}

/** What the desk of FIRST and SECOND holds against the day's budget. */
async function committedAtDesk(): Promise<number> {
  return runInDurableObject(await deskOf(FIRST), async (desk: TextDesk) =>
    (await desk.inspect()).grants.reduce((sum, grant) => sum + grant.committed, 0),
  );
}

describe('openings Pepa has already answered today', () => {
  it('streams a second visitor\'s "GM!" from her reply to a first visitor\'s "gm", asking the model nothing and spending nothing', async () => {
    await (await say(await openChat(FIRST), 'gm')).text();
    expect(world.model.requests).toHaveLength(1);
    const held = await committedAtDesk();

    const second = await openChat(SECOND);
    expect(await events(await say(second, 'GM!'))).toEqual([
      { type: 'words', text: 'Ribbit! ' },
      { type: 'words', text: 'A ' },
      { type: 'words', text: 'royal ' },
      { type: 'words', text: 'hello.' },
      { type: 'done', turnsLeft: 39, remark: 1 },
    ]);
    expect(world.model.requests).toHaveLength(1);
    // Nothing was reserved for it: the desk holds what it held for the first reply alone.
    expect(await committedAtDesk()).toBe(held);

    await settleDeskOf(FIRST);
    const oneReply = (await inspect()).committedUsd;
    expect(oneReply).toBeGreaterThan(0);
    expect(await textToday()).toMatchObject({ chats: 2, turns: 2, fromRecord: 1 });
    // What the day spent is the first reply's cost, no more.
    expect((await inspect()).committedUsd).toBe(oneReply);
  });

  it("sends a chat's second message to the model, even one that repeats an opening", async () => {
    await (await say(await openChat(FIRST), 'gm')).text();
    const second = await openChat(SECOND);
    await (await say(second, 'gm')).text();
    expect(world.model.requests).toHaveLength(1);
    await (await say(second, 'gm')).text();
    expect(world.model.requests).toHaveLength(2);
    // The model heard the chat so far, her reply from the record in it.
    expect(world.model.requests[1]?.body.messages).toEqual([
      expect.objectContaining({ role: 'system' }),
      { role: 'user', content: 'gm' },
      { role: 'assistant', content: REPLY },
      { role: 'user', content: 'gm' },
    ]);
  });

  it('sends every opening to the model when the owner has turned openings off', async () => {
    setVars({ GATE_CHAT_OPENINGS: 'off' });
    for (const address of [FIRST, SECOND, THIRD]) {
      await (await say(await openChat(address), 'gm')).text();
    }
    expect(world.model.requests).toHaveLength(3);
    await settleDeskOf(FIRST);
    expect(await textToday()).toMatchObject({ turns: 3, fromRecord: 0 });
  });

  it('never gives again a reply that fails the checks a card applies', async () => {
    world.model.reply = ['$PEPA will ', '100x, guaranteed!'];
    await (await say(await openChat(FIRST), 'wen moon')).text();
    await (await say(await openChat(SECOND), 'wen moon')).text();
    expect(world.model.requests).toHaveLength(2);
  });

  it('makes a card of a reply given from the record, from the desk\u2019s record of that chat', async () => {
    await (await say(await openChat(FIRST), 'gm')).text();
    const second = await openChat(SECOND);
    await (await say(second, 'gm!!')).text();
    expect(world.model.requests).toHaveLength(1);
    const card = await madeCard(await cardOfChat(second, 1));
    expect(card).toMatchObject({ words: REPLY });
    expect(world.chat.lookedUp).toEqual([]);
  });

  it("keeps nothing with the provider's chat, whose own history would miss a reply it did not write", async () => {
    setVars({ GATE_TEXT_ENGINE: 'provider-chat' });
    await (await say(await openChat(FIRST), 'gm')).text();
    await (await say(await openChat(SECOND), 'gm')).text();
    expect(world.chat.requests).toHaveLength(2);
  });
});
