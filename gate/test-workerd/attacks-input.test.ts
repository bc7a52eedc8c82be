/**
 * Attacks by malformed input: each stays a 4xx (or an honest 503), costs the runtime no more
 * than the limit it promises, and changes nothing in the court.
 */
import { describe, expect, it } from 'vitest';
import { addr, inspect, sweep, court } from './bench';
import { api, body, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { endOfCallReport } from './provider-events';
import { admit, start } from './visitor-calls';
import { runInDurableObject } from 'cloudflare:test';

describe('malformed escapes', () => {
  it.each(['%E0%A4%A', '%', '%zz%zz%zz%zz%zz%zz', 'aaaaaaaaaaaaaaaa%FF%FE'])(
    'a ticket path with the escape %s is a 400, not a 503',
    async (bad) => {
      const answer = await api(`/api/tickets/${bad}`, { method: 'POST' });
      expect(answer.status).toBe(400);
      expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'bad-request' });
    },
  );
});

describe('bodies', () => {
  it('a 64 MB chunked body is refused after the limit, not read in full', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const answer = await api('/api/calls', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': addr(1) },
      body: stream,
    });
    expect(answer.status).toBe(400);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'bad-request' });
    // The stream may be read ahead a little, never to its end.
    expect(pulled).toBeLessThan(16);
  });
});

describe('the bot check’s answer', () => {
  it('a pass for another site’s hostname is refused with 403', async () => {
    world.siteverify.mode = 'other-hostname';
    const answer = await start(addr(1));
    expect(answer.status).toBe(403);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'bot-check-failed' });
    expect(world.provider.created).toHaveLength(0);
  });

  it('a pass for another action is refused with 403', async () => {
    world.siteverify.mode = 'other-action';
    const answer = await start(addr(1));
    expect(answer.status).toBe(403);
    expect(world.provider.created).toHaveLength(0);
  });

  it('siteverify’s internal-error is the gate unavailable (503), not a failed check', async () => {
    world.siteverify.mode = 'internal-error';
    const answer = await start(addr(1));
    expect(answer.status).toBe(503);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'gate-unavailable' });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('provider messages with numbers out of range', () => {
  const worstCase = 0.45;

  it('a cost of 1e308 is clamped to a multiple of the worst case and the day stays open', async () => {
    const call = await admit(addr(1));
    expect((await endOfCallReport(call, { cost: 1e308, seconds: 60 })).status).toBe(200);
    const committed = (await inspect()).committedUsd;
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThanOrEqual(4 * worstCase);
    expect((await start(addr(2))).status).toBe(201);
  });

  it('a cost of 0 for a minute’s call is charged no less than the minute at the set rate', async () => {
    const call = await admit(addr(1));
    await endOfCallReport(call, { cost: 0, seconds: 60 });
    expect((await inspect()).committedUsd).toBeGreaterThanOrEqual(0.15);
  });

  it('a duration of 1e308 is clamped to the call limit plus grace, and the report stays numbers', async () => {
    const call = await admit(addr(1));
    await api('/api/provider-events', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer test-webhook-secret',
      },
      body: JSON.stringify({
        message: {
          type: 'end-of-call-report',
          call: { id: call },
          cost: 0.3,
          durationSeconds: 1e308,
          endedReason: 'customer-ended-call',
        },
      }),
    });
    const report = await api('/api/report?days=1', {
      headers: { authorization: 'Bearer test-admin-token', 'cf-connecting-ip': '203.0.113.200' },
    });
    const text = await report.text();
    expect(text).not.toContain('null');
    const day = (
      JSON.parse(text) as { days: { minutes: number; failures: Record<string, number> }[] }
    ).days[0];
    expect(day?.minutes).toBeLessThanOrEqual((180 + 30) / 60);
    expect(Object.keys(day?.failures ?? {})).toContain('outlier-duration');
  });

  it('end reasons the gate does not know are grouped, so they cannot grow the report', async () => {
    for (let i = 1; i <= 3; i += 1) {
      const call = await admit(addr(i));
      await endOfCallReport(call, { cost: 0.1, endedReason: `made-up-reason-${i}` });
    }
    const totals = await runInDurableObject(court(), (instance) => instance.report(1));
    expect(totals.days[0]?.failures).toEqual({ 'other-ended-reason': 3 });
    await sweep();
  });
});
