import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Court } from '../src/calls/court';
import { addr, advance, court, inspect, setVars, sweep, T0 } from './bench';
import { body, type ProblemBody } from './gate-fetch';
import { endOfCallReport, statusEnded } from './provider-events';
import { admit, checkIn, queue, start } from './visitor-calls';

describe('the daily budget', () => {
  it('reserves each admitted call’s worst case: a start the reservations leave no room for waits in line, and the court closes once what is spent leaves none', async () => {
    // Worst case: 180 s at $0.15 a minute = $0.45; two fit in $1.00, a third does not.
    setVars({ GATE_DAILY_BUDGET_USD: '1' });
    const first = await admit(addr(1));
    const second = await admit(addr(2));
    expect((await inspect()).committedUsd).toBe(0.9);
    // Places are free, but the two calls under way may still cost their worst: the third waits.
    expect((await start(addr(3))).status).toBe(202);
    // Together they cost what leaves no room for another call today.
    await endOfCallReport(first, { cost: 0.3 });
    await endOfCallReport(second, { cost: 0.3 });
    const closed = await start(addr(4));
    expect(closed.status).toBe(503);
    const problem = await body<ProblemBody>(closed);
    expect(problem).toMatchObject({ code: 'court-closed', reopensAt: '2030-01-16T00:00:00.000Z' });
    expect(problem.retryAfterSeconds).toBe(12 * 3600);
    expect(closed.headers.get('retry-after')).toBe(String(12 * 3600));
  });

  it('keeps the reservation until the real cost is known, then frees what was not spent', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '1' });
    const first = await admit(addr(1));
    await admit(addr(2));
    // The call ended, but its cost is not known: its worst case still counts, and the next waits.
    await statusEnded(first);
    const waiting = await queue(addr(3));
    await endOfCallReport(first, { cost: 0.05 });
    expect((await inspect()).committedUsd).toBe(0.5);
    advance(2);
    expect((await checkIn(waiting.ticket.id)).status).toBe(201);
    expect((await inspect()).committedUsd).toBe(0.95);
  });

  it('a ticket whose turn comes while a call under way holds the budget keeps its place, and is told the court is closed once the day is spent', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '1.35' });
    const first = await admit(addr(1));
    const second = await admit(addr(2));
    const waiting = await queue(addr(3));
    // The first call cost more than its reservation: the second's worst case holds the rest, but
    // the second may cost less, so the day is not spent.
    await endOfCallReport(first, { cost: 0.6 });
    advance(1);
    const turn = await checkIn(waiting.ticket.id);
    expect(turn.status).toBe(200);
    expect(await body<{ status: string }>(turn)).toMatchObject({ status: 'waiting' });
    // The second call costs what leaves no room for another: now the day is spent.
    await endOfCallReport(second, { cost: 0.5 });
    advance(20);
    const closed = await checkIn(waiting.ticket.id);
    expect(closed.status).toBe(503);
    expect(await body<ProblemBody>(closed)).toMatchObject({ code: 'court-closed' });
  });

  it('tells everyone in line at once when the day’s spend leaves no room for another call', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '1', GATE_MAX_CONCURRENT_CALLS: '1' });
    const call = await admit(addr(1));
    const places = [await queue(addr(2)), await queue(addr(3)), await queue(addr(4))];
    // $0.60 spent: another call's worst case ($0.45) no longer fits in $1.00, whatever happens.
    await endOfCallReport(call, { cost: 0.6 });
    advance(20);
    for (const place of places.reverse()) {
      const answer = await checkIn(place.ticket.id);
      expect(answer.status).toBe(503);
      expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'court-closed' });
    }
    expect(await inspect()).toMatchObject({ waiting: 0 });
  });

  it('keeps the line while calls under way may still leave room', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '1', GATE_MAX_CONCURRENT_CALLS: '1' });
    const call = await admit(addr(1));
    const first = await queue(addr(2));
    const second = await queue(addr(3));
    advance(2);
    expect((await checkIn(second.ticket.id)).status).toBe(200);
    await endOfCallReport(call, { cost: 0.1 });
    advance(2);
    expect((await checkIn(first.ticket.id)).status).toBe(201);
    advance(2);
    expect((await checkIn(second.ticket.id)).status).toBe(200);
  });

  it('opens again the next UTC day', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '0.5' });
    const call = await admit(addr(1));
    await endOfCallReport(call, { cost: 0.2 });
    expect((await start(addr(2))).status).toBe(503);
    advance(12 * 3600);
    expect((await start(addr(2))).status).toBe(201);
  });

  it('never lets what is spent and reserved pass the cap, whatever the calls cost', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '3', GATE_MAX_CONCURRENT_CALLS: '4' });
    const open: string[] = [];
    let visitor = 0;
    let refusedForBudget = 0;
    for (let round = 0; round < 40; round += 1) {
      visitor += 1;
      const answer = await start(addr(visitor));
      if (answer.status === 201) open.push((await body<{ call: { id: string } }>(answer)).call.id);
      else if (answer.status === 503) refusedForBudget += 1;
      else await answer.arrayBuffer();
      if (open.length > 0 && round % 2 === 0) {
        const id = open.shift() ?? '';
        // Costs up to the worst case, some reports lost.
        if (round % 6 === 0) await statusEnded(id);
        else await endOfCallReport(id, { cost: ((round * 7) % 45) / 100 });
      }
      advance(30);
      await sweep();
      expect((await inspect()).committedUsd).toBeLessThanOrEqual(3);
    }
    expect(refusedForBudget).toBeGreaterThan(0);
  });
});

describe('per-visitor limits', () => {
  it('one call at a time: a second start while in a call is refused with 429 and a Retry-After', async () => {
    const call = await admit(addr(1));
    const again = await start(addr(1));
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await body<ProblemBody>(again)).toMatchObject({ code: 'rate-limited' });
    await statusEnded(call);
    expect((await start(addr(1))).status).toBe(201);
  });

  it('a place in line counts as the visitor’s one at a time', async () => {
    await admit(addr(1));
    await admit(addr(2));
    await queue(addr(3));
    expect((await start(addr(3))).status).toBe(429);
  });

  it('three starts per ten minutes, and the Retry-After says when the next is allowed', async () => {
    for (let n = 0; n < 3; n += 1) {
      const call = await admit(addr(7));
      // Cheap calls whose cost is known: the visitor's day's money is not what stops them.
      await endOfCallReport(call, { cost: 0.05, seconds: 20 });
      advance(60);
    }
    const fourth = await start(addr(7));
    expect(fourth.status).toBe(429);
    // The first start was 180 s ago: the window frees in 420 s.
    expect(fourth.headers.get('retry-after')).toBe('420');
    // Another visitor is not held back by it.
    expect((await start(addr(8))).status).toBe(201);
    advance(420);
    expect((await start(addr(7))).status).toBe(201);
  });

  it('keys visitors by a salted hash: the court never stores an address', async () => {
    const address = '203.0.113.77';
    const call = await admit(address);
    await statusEnded(call);
    await queue(addr(1)).catch(() => undefined);
    const stored = await runInDurableObject(court(), async (instance: Court, state) => {
      const entries = await state.storage.list();
      return JSON.stringify([...entries.entries()]) + JSON.stringify(await instance.inspect());
    });
    expect(stored).not.toContain(address);
    expect(stored).not.toContain('203.0.113');
  });

  it('refuses a request that carries no address', async () => {
    const { api } = await import('./gate-fetch');
    const answer = await api('/api/calls', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ botCheckToken: 'a-token' }),
    });
    expect(answer.status).toBe(400);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'bad-request' });
  });

  it('counts from the clock the court keeps', () => {
    expect(Date.now()).toBe(T0);
  });
});
