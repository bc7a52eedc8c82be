import { describe, expect, it } from 'vitest';
import { addr } from './bench';
import { api, body, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { endOfCallReport, statusEnded } from './provider-events';
import { admit, queue, rate, start } from './visitor-calls';

/** The owner's report, asked from the owner's own address. */
const report = (query = '', authorization: string | null = 'Bearer test-admin-token') =>
  api(`/api/report${query}`, {
    headers: { 'cf-connecting-ip': '203.0.113.200', ...(authorization ? { authorization } : {}) },
  });

describe('ratings', () => {
  it('counts one rating per ended call: 204, then 404 for the same call', async () => {
    const call = await admit(addr(1));
    await statusEnded(call);
    expect((await rate({ callId: call, score: 'delighted', comment: 'Ribbit!' })).status).toBe(204);
    const again = await rate({ callId: call, score: 'displeased' });
    expect(again.status).toBe(404);
    expect(await body<ProblemBody>(again)).toMatchObject({ code: 'not-found' });
  });

  it('answers 404 for a call the gate never admitted', async () => {
    const answer = await rate({ callId: 'call-from-elsewhere', score: 'content' });
    expect(answer.status).toBe(404);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'not-found' });
  });

  it('answers 400 for a rating that is not one', async () => {
    const call = await admit(addr(1));
    await statusEnded(call);
    expect((await rate({ callId: call, score: 5 })).status).toBe(400);
    expect((await rate({ callId: call, score: 'content' })).status).toBe(204);
  });
});

describe('the report', () => {
  it('is for the owner only: 401 without or with a wrong token', async () => {
    // 'test-admin-tokem': as long as the token, one character off.
    for (const authorization of [
      null,
      'Bearer not-the-token',
      'test-admin-token',
      'Bearer test-admin-tokem',
    ]) {
      const answer = await report('', authorization);
      expect(answer.status).toBe(401);
      expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'unauthorized' });
    }
  });

  it('answers 400 for a number of days out of range', async () => {
    for (const days of ['0', '91', 'seven', '1.5']) {
      expect((await report(`?days=${days}`)).status).toBe(400);
    }
  });

  it('totals the day: calls, minutes, spend, starts, waits, ratings, refusals and failures', async () => {
    const first = await admit(addr(1));
    const second = await admit(addr(2));
    await queue(addr(3));
    expect((await start(addr(3))).status).toBe(429);
    world.siteverify.mode = 'fail';
    expect((await start(addr(4))).status).toBe(403);
    await endOfCallReport(first, { cost: 0.1, seconds: 90 });
    await statusEnded(second, 'pipeline-error-openai-llm-failed');
    await endOfCallReport(second, {
      cost: 0.05,
      seconds: 30,
      endedReason: 'pipeline-error-openai-llm-failed',
    });
    await rate({ callId: first, score: 'delighted', comment: 'A fine frog' });
    await rate({ callId: second, score: 'displeased' });
    const answer = await report('?days=2');
    expect(answer.status).toBe(200);
    expect(await body(answer)).toEqual({
      days: [
        {
          day: '2030-01-15',
          calls: 2,
          minutes: 2,
          spendUsd: 0.15,
          starts: 4,
          waited: 1,
          ratings: { delighted: 1, content: 0, displeased: 1, comments: 1 },
          // The bot check's refusal is the Worker's own: counted at the edge, not here.
          refusals: { 'rate-limited': 1 },
          failures: { 'pipeline-error-openai-llm-failed': 1 },
          text: { chats: 0, turns: 0, fromRecord: 0, spendUsd: 0 },
          // Both calls settled in the day's thirteenth hour (T0 is 12:00 UTC).
          hours: [...new Array<number>(12).fill(0), 0.15, ...new Array<number>(11).fill(0)],
        },
      ],
      limits: {
        maxConcurrentCalls: 2,
        dailyBudgetUsd: 25,
        costPerMinuteUsd: 0.15,
        // The suite's bindings: no pace, the whole day released at midnight.
        pace: { releases: 1, burstShares: 1, shareUsd: 25, releasedUsd: 25 },
      },
      courtLoad: expect.objectContaining({ from: expect.any(String) }) as unknown,
      // No desk or shelf heard anything: the first of each is named.
      deskLoad: expect.objectContaining({ object: 'desk-0' }) as unknown,
      shelfLoad: expect.objectContaining({ object: 'shelf-0' }) as unknown,
    });
  });
});
