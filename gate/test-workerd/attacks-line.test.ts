/**
 * The line serves live visitors: a ticket that went silent keeps its position, but a free place
 * does not wait for it; the hidden-tab grace is shorter near the front and claimed once.
 */
import { describe, expect, it } from 'vitest';
import { addr, advance, setVars, sweep } from './bench';
import { body, type WaitingBody } from './gate-fetch';
import { statusEnded } from './provider-events';
import { admit, checkIn, queue } from './visitor-calls';

describe('a silent ticket at the head of the line', () => {
  it('does not hold a free place from the live visitor behind it', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '1' });
    const first = await admit(addr(1));
    const silent = await queue(addr(2));
    const live = await queue(addr(3));
    advance(1);
    // Checks in once as a hidden page, then says nothing more.
    expect((await checkIn(silent.ticket.id, '?hidden=true')).status).toBe(200);
    await statusEnded(first);
    // The live visitor checks in at the pace asked; within a few of its check-ins it is in.
    let admittedAfter = -1;
    for (let i = 1; i <= 10 && admittedAfter < 0; i += 1) {
      advance(live.retryAfterSeconds);
      await sweep();
      const answer = await checkIn(live.ticket.id);
      if (answer.status === 201) admittedAfter = i * live.retryAfterSeconds;
    }
    expect(admittedAfter).toBeGreaterThan(0);
    expect(admittedAfter).toBeLessThanOrEqual(5);
  });

  it('keeps its position and takes the next free place when it returns', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '1' });
    const first = await admit(addr(1));
    const silent = await queue(addr(2));
    const live = await queue(addr(3));
    const later = await queue(addr(4));
    advance(1);
    await checkIn(silent.ticket.id, '?hidden=true');
    await statusEnded(first);
    advance(4);
    await sweep();
    const liveTurn = await checkIn(live.ticket.id);
    expect(liveTurn.status).toBe(201);
    const { call } = (await liveTurn.json()) as { call: { id: string } };
    // The silent page comes back: still first in line, and the next place is its.
    advance(2);
    const back = await checkIn(silent.ticket.id);
    expect((await body<WaitingBody>(back)).ticket.position).toBe(1);
    await statusEnded(call.id);
    advance(1);
    expect((await checkIn(later.ticket.id)).status).toBe(200);
    expect((await checkIn(silent.ticket.id)).status).toBe(201);
  });
});

describe('the hidden-tab grace', () => {
  it('is shorter near the front of the line than further back', async () => {
    // A line far past the default wait limit: its back must be far from its front.
    setVars({ GATE_MAX_CONCURRENT_CALLS: '1', GATE_MAX_WAIT_MINUTES: '1440' });
    await admit(addr(1));
    const front = await queue(addr(2));
    for (let n = 3; n < 120; n += 1) await queue(addr(n));
    const back = await queue(addr(120));
    advance(back.retryAfterSeconds);
    const frontHidden = await body<WaitingBody>(await checkIn(front.ticket.id, '?hidden=true'));
    const backHidden = await body<WaitingBody>(await checkIn(back.ticket.id, '?hidden=true'));
    expect(frontHidden.ticket.checkInBySeconds).toBeLessThanOrEqual(30);
    expect(backHidden.ticket.checkInBySeconds).toBeGreaterThan(frontHidden.ticket.checkInBySeconds);
  });

  it('is claimed once: a page hidden again gets the visible deadline', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const place = await queue(addr(3));
    advance(1);
    const visible = await body<WaitingBody>(await checkIn(place.ticket.id));
    advance(1);
    const once = await body<WaitingBody>(await checkIn(place.ticket.id, '?hidden=true'));
    expect(once.ticket.checkInBySeconds).toBeGreaterThan(visible.ticket.checkInBySeconds);
    advance(1);
    const twice = await body<WaitingBody>(await checkIn(place.ticket.id, '?hidden=true'));
    expect(twice.ticket.checkInBySeconds).toBe(visible.ticket.checkInBySeconds);
  });
});
