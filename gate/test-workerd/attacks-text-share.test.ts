/**
 * Text never closes voice: replies asked from many networks at once (each within its own limits)
 * spend no more than text's share of the day's budget, after which text is closed for the day and
 * voice still admits calls on its own share.
 */
import { describe, expect, it } from 'vitest';
import { addr, inspect, setVars } from './bench';
import { body, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { start } from './visitor-calls';
import { openChat, say, settleDeskOf } from './visitor-chats';

describe('text and voice share the day', () => {
  it('replies from forty networks spend no more than text’s share, and voice stays open', async () => {
    // USD 1 a day, a tenth of it text's; each reply costs USD 0.02 (its worst case, too).
    setVars({ GATE_DAILY_BUDGET_USD: '1', GATE_TEXT_SHARE: '0.1' });
    world.chat.cost = 0.02;
    let refused: Response | null = null;
    let replies = 0;
    for (let n = 0; n < 40 && refused === null; n += 1) {
      const answer = await say(await openChat(addr(n)), 'Hello');
      if (answer.status !== 200) {
        refused = answer;
        break;
      }
      await answer.text();
      replies += 1;
      // The desk falls idle and settles its grant at what the reply cost.
      await settleDeskOf(addr(n));
    }
    expect(replies).toBeGreaterThanOrEqual(4);
    expect(refused?.status).toBe(503);
    expect(await body<ProblemBody>(refused as Response)).toMatchObject({ code: 'court-closed' });
    expect((await inspect()).committedUsd).toBeLessThanOrEqual(0.1 + 1e-9);
    // Voice keeps its share: calls are admitted as before.
    expect((await start(addr(500))).status).toBe(201);
    expect((await start(addr(501))).status).toBe(201);
  });

  it('one chat that spends text’s share hears that text is closed for the day, not that Pepa is busy', async () => {
    setVars({
      GATE_DAILY_BUDGET_USD: '1',
      GATE_TEXT_SHARE: '0.1',
      GATE_CHAT_TURNS_PER_MINUTE: '600',
    });
    world.chat.cost = 0.02;
    // Its desk's grant comes to hold all of text's share, and its replies spend it, unsettled.
    const chat = await openChat(addr(1));
    let refused: Response | null = null;
    let replies = 0;
    for (let n = 0; n < 20 && refused === null; n += 1) {
      const answer = await say(chat, 'Hello');
      if (answer.status === 200) {
        await answer.text();
        replies += 1;
      } else refused = answer;
    }
    expect(replies).toBe(5);
    expect(refused?.status).toBe(503);
    expect(await body<ProblemBody>(refused as Response)).toMatchObject({ code: 'court-closed' });
  });
});
