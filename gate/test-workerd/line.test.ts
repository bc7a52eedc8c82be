import { abortAllDurableObjects } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addr, advance, inspect, setVars, sweep } from './bench';
import { body, type AdmittedBody, type ProblemBody, type WaitingBody } from './gate-fetch';
import { world } from './outside-world';
import { endOfCallReport, statusEnded } from './provider-events';
import { checkIn, leave, queue, start, admit } from './visitor-calls';

describe('the semaphore', () => {
  it('admits up to GATE_MAX_CONCURRENT_CALLS at once and puts the next visitor in line', async () => {
    const first = await start(addr(1));
    const second = await start(addr(2));
    const third = await start(addr(3));
    expect([first.status, second.status, third.status]).toEqual([201, 201, 202]);
    const admitted = await body<AdmittedBody>(first);
    expect(admitted).toMatchObject({ status: 'admitted', waitedSeconds: 0 });
    expect(admitted.call).toEqual({
      id: 'call-1',
      webCallUrl: 'https://pepa-test.daily.co/room-1',
      maxDurationSeconds: 180,
    });
    expect(await inspect()).toMatchObject({ activeCalls: 2, waiting: 1 });
  });

  it('creates each call with the private key, Pepa and the maximum duration fixed by the gate', async () => {
    await admit(addr(1));
    expect(world.provider.created).toEqual([
      {
        id: 'call-1',
        authorization: 'Bearer test-private-key',
        body: {
          assistantId: 'test-pepa-assistant',
          assistantOverrides: {
            maxDurationSeconds: 180,
            customerJoinTimeoutSeconds: 20,
            metadata: { gateLease: expect.any(String) as unknown },
          },
          roomDeleteOnUserLeaveEnabled: false,
        },
      },
    ]);
  });

  it('never admits past the limit when many visitors ask at the same moment', async () => {
    // Longer than the default wait limit allows: this is about the count, not the line's length.
    setVars({ GATE_MAX_WAIT_MINUTES: '1440' });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => start(addr(n))));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    expect(statuses.filter((status) => status === 202)).toHaveLength(28);
    expect(world.provider.created).toHaveLength(2);
    const positions = await Promise.all(
      answers
        .filter((answer) => answer.status === 202)
        .map(async (answer) => (await body<WaitingBody>(answer)).ticket.position),
    );
    expect(positions.sort((a, b) => a - b)).toEqual(Array.from({ length: 28 }, (_, i) => i + 1));
    expect(await inspect()).toMatchObject({ activeCalls: 2, waiting: 28 });
  });

  it('keeps the count at the limit while leases free and the line is admitted', async () => {
    const calls = [await admit(addr(0)), await admit(addr(1))];
    const tickets = [];
    for (let n = 2; n < 8; n += 1) tickets.push((await queue(addr(n))).ticket.id);
    let peak = 0;
    for (let round = 0; round < tickets.length; round += 1) {
      await statusEnded(calls.shift() ?? '');
      advance(2);
      for (const id of tickets) {
        const answer = await checkIn(id);
        if (answer.status === 201) calls.push((await body<AdmittedBody>(answer)).call.id);
        else await answer.arrayBuffer();
      }
      peak = Math.max(peak, (await inspect()).activeCalls);
    }
    expect(peak).toBe(2);
    expect(world.provider.created).toHaveLength(8);
  });
});

describe('the line', () => {
  it('gives each waiting visitor their place, an estimate that grows with it, and a Retry-After', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const waiting: WaitingBody[] = [];
    for (let n = 3; n < 9; n += 1) {
      const answer = await start(addr(n));
      expect(answer.status).toBe(202);
      const place = await body<WaitingBody>(answer);
      expect(answer.headers.get('retry-after')).toBe(String(place.retryAfterSeconds));
      waiting.push(place);
    }
    expect(waiting.map((place) => place.ticket.position)).toEqual([1, 2, 3, 4, 5, 6]);
    const estimates = waiting.map((place) => place.ticket.estimatedWaitSeconds);
    expect(estimates).toEqual([...estimates].sort((a, b) => a - b));
    expect(estimates[0]).toBeGreaterThan(0);
    // Past the calls under way, the next round waits a whole typical call more.
    expect(estimates[2]).toBeGreaterThan(estimates[0] ?? 0);
    for (const place of waiting) {
      expect(place.ticket.checkInBySeconds).toBeGreaterThan(place.retryAfterSeconds);
      expect(place.ticket.id).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    }
  });

  it('admits in the order visitors came: a later ticket is not let past an earlier one', async () => {
    const first = await admit(addr(1));
    await admit(addr(2));
    const a = await queue(addr(3));
    const b = await queue(addr(4));
    await statusEnded(first);
    advance(2);
    // b checks in first, but a is ahead of it: b keeps waiting.
    const bEarly = await checkIn(b.ticket.id);
    expect(bEarly.status).toBe(200);
    expect((await body<WaitingBody>(bEarly)).ticket.position).toBe(2);
    const aTurn = await checkIn(a.ticket.id);
    expect(aTurn.status).toBe(201);
    const admitted = await body<AdmittedBody>(aTurn);
    expect(admitted.waitedSeconds).toBe(2);
    advance(2);
    const bNow = await checkIn(b.ticket.id);
    expect(bNow.status).toBe(200);
    expect((await body<WaitingBody>(bNow)).ticket.position).toBe(1);
  });

  it('admits a ticket once: checking in again after admission finds it gone', async () => {
    const first = await admit(addr(1));
    await admit(addr(2));
    const a = await queue(addr(3));
    await statusEnded(first);
    advance(1);
    expect((await checkIn(a.ticket.id)).status).toBe(201);
    advance(1);
    const again = await checkIn(a.ticket.id);
    expect(again.status).toBe(404);
    expect(await body<ProblemBody>(again)).toMatchObject({ code: 'ticket-gone' });
  });

  it('refuses a check-in faster than asked with 429 and when to come back', async () => {
    // A line deep enough to be asked for slow check-ins, whatever the wait.
    setVars({ GATE_MAX_WAIT_MINUTES: '1440' });
    await admit(addr(1));
    await admit(addr(2));
    for (let n = 3; n < 110; n += 1) await queue(addr(n));
    const deep = await queue(addr(110));
    expect(deep.retryAfterSeconds).toBeGreaterThan(2);
    const early = await checkIn(deep.ticket.id);
    expect(early.status).toBe(429);
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await body<ProblemBody>(early)).toMatchObject({ code: 'rate-limited' });
    advance(deep.retryAfterSeconds);
    expect((await checkIn(deep.ticket.id)).status).toBe(200);
  });

  it('drops an abandoned ticket within seconds, and the line moves up', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const gone = await queue(addr(3));
    const stays = await queue(addr(4));
    expect(gone.ticket.checkInBySeconds).toBeLessThanOrEqual(15);
    // `stays` keeps checking in; `gone` closed its tab.
    for (let elapsed = 0; elapsed <= gone.ticket.checkInBySeconds; elapsed += 2) {
      advance(2);
      expect((await checkIn(stays.ticket.id)).status).toBe(200);
    }
    expect(await sweep()).toBe(true);
    expect(await inspect()).toMatchObject({ waiting: 1 });
    const late = await checkIn(gone.ticket.id);
    expect(late.status).toBe(404);
    expect(await body<ProblemBody>(late)).toMatchObject({ code: 'ticket-gone' });
    advance(2);
    const moved = await checkIn(stays.ticket.id);
    expect((await body<WaitingBody>(moved)).ticket.position).toBe(1);
  });

  it('gives a hidden page a longer deadline', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const place = await queue(addr(3));
    advance(1);
    const visible = await body<WaitingBody>(await checkIn(place.ticket.id));
    advance(1);
    const hidden = await body<WaitingBody>(await checkIn(place.ticket.id, '?hidden=true'));
    expect(hidden.ticket.checkInBySeconds).toBeGreaterThan(visible.ticket.checkInBySeconds);
    // Past the visible deadline the hidden page still has its place.
    advance(visible.ticket.checkInBySeconds + 5);
    await sweep();
    expect((await checkIn(place.ticket.id)).status).toBe(200);
  });

  it('lets a visitor leave the line (twice is no error) and moves the rest up', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const a = await queue(addr(3));
    const b = await queue(addr(4));
    expect((await leave(a.ticket.id)).status).toBe(204);
    expect((await leave(a.ticket.id)).status).toBe(204);
    advance(2);
    expect((await body<WaitingBody>(await checkIn(b.ticket.id))).ticket.position).toBe(1);
    expect((await checkIn(a.ticket.id)).status).toBe(404);
    // Having left, the visitor may stand in line again (at the back).
    const again = await queue(addr(3));
    expect(again.ticket.position).toBe(2);
  });

  it('keeps the sweep running while anyone waits, and stops it when the court is empty', async () => {
    const only = await admit(addr(1));
    expect(await sweep()).toBe(true);
    expect(await sweep()).toBe(true);
    await endOfCallReport(only, { cost: 0.1 });
    await sweep();
    expect(await sweep()).toBe(false);
  });
});

describe('a court that restarts', () => {
  it('keeps everyone in line in their order, and admits them as before', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const waiting = [];
    for (const n of [3, 4, 5]) waiting.push(await body<WaitingBody>(await start(addr(n))));
    // A deploy or an eviction: the court's memory is gone, its storage is not.
    await abortAllDurableObjects();
    advance(2);
    const places = [];
    for (const ticket of waiting) {
      places.push((await body<WaitingBody>(await checkIn(ticket.ticket.id))).ticket.position);
    }
    expect(places).toEqual([1, 2, 3]);
    expect(await inspect()).toMatchObject({ activeCalls: 2, waiting: 3 });
  });

  it('forgets the tickets that left before the restart', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const first = await body<WaitingBody>(await start(addr(3)));
    const second = await body<WaitingBody>(await start(addr(4)));
    expect((await leave(first.ticket.id)).status).toBe(204);
    await abortAllDurableObjects();
    advance(2);
    expect((await checkIn(first.ticket.id)).status).toBe(404);
    expect((await body<WaitingBody>(await checkIn(second.ticket.id))).ticket.position).toBe(1);
  });
});
