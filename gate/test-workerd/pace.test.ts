/**
 * The pace, behind the Worker: what is spent reaching what the day has released so far rests
 * Pepa until the next release, with its real Retry-After and the time she is back, for calls and
 * for text alike; calls under way and the line are not touched, and the next release reopens both.
 */
import { describe, expect, it } from 'vitest';
import { addr, advance, inspect, setVars, T0 } from './bench';
import { body, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { endOfCallReport } from './provider-events';
import { admit, start } from './visitor-calls';
import { openChat, say, settleDeskOf } from './visitor-chats';

/** USD 2.40 a day in 24 hourly shares of USD 0.10: by 12:00 (T0), USD 1.30 is released. */
const HOURLY = {
  GATE_DAILY_BUDGET_USD: '2.4',
  GATE_PACE_RELEASES: '24',
  GATE_PACE_BURST_SHARES: '0',
};
const at = (hours: number) => new Date(T0 + hours * 3_600_000).toISOString();

/**
 * At 12:10 on the hourly pace, two calls admitted and the first ended at USD 0.90: another worst
 * case (0.45) beside the one under way passes the USD 1.30 released. The call under way.
 */
async function spendToThePace(): Promise<string> {
  setVars(HOURLY);
  const first = await admit(addr(1));
  const talking = await admit(addr(2));
  await endOfCallReport(first, { cost: 0.9, seconds: 170 });
  advance(600);
  return talking;
}

/** A start told Pepa rests until 13:00, `seconds` from now, in its header and its body. */
async function expectResting(answer: Response, seconds: number) {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toBe(String(seconds));
  expect(await body<ProblemBody>(answer)).toMatchObject({
    code: 'court-resting',
    reopensAt: at(1),
    retryAfterSeconds: seconds,
  });
}

describe('the pace', () => {
  it('rests the court when what is spent reaches the release, says when Pepa is back, and admits again at the next release', async () => {
    const talking = await spendToThePace();
    await expectResting(await start(addr(4)), 3000);
    // The call under way is not cut by the pace.
    expect((await inspect()).activeCalls).toBe(1);
    await endOfCallReport(talking, { cost: 0.01, seconds: 4 });
    advance(3000);
    const back = await start(addr(5));
    expect(back.status, await back.clone().text()).toBe(201);
  });

  it('gives further arrivals the resting answer for a moment without asking the court, Pepa back at the same moment', async () => {
    await spendToThePace();
    expect((await start(addr(4))).status).toBe(503);
    const before = (await inspect()).heard;
    advance(2);
    await expectResting(await start(addr(5)), 2998);
    expect((await inspect()).heard).toBe(before);
    // The moment over, the court answers the next arrival again.
    advance(4);
    expect((await start(addr(6))).status).toBe(503);
    expect((await inspect()).heard).toBeGreaterThan(before);
  });

  it('rests text once its share of the release is spent, and voice keeps its own', async () => {
    setVars({ ...HOURLY, GATE_CHAT_TURN_WORST_USD: '0.2' });
    world.chat.cost = 0.2;
    let refused: Response | null = null;
    for (let n = 0; n < 10 && refused === null; n += 1) {
      const answer = await say(await openChat(addr(n)), 'Hello');
      if (answer.status !== 200) refused = answer;
      else await answer.text();
      await settleDeskOf(addr(n));
    }
    // Text's half of USD 1.30: three replies of USD 0.20, and the fourth rests until text's half
    // of the release covers USD 0.80, at 15:00.
    expect(refused?.status).toBe(503);
    const retryAfter = Number(refused?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3 * 3600 - 600);
    expect(retryAfter).toBeLessThanOrEqual(3 * 3600);
    expect(await body<ProblemBody>(refused as Response)).toMatchObject({
      code: 'court-resting',
      reopensAt: at(3),
    });
    expect((await start(addr(100))).status).toBe(201);
  });
});
