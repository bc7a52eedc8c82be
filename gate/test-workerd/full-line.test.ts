/**
 * The line is honest about its length: past the owner's wait limit (GATE_MAX_WAIT_MINUTES) a
 * newcomer is told the court is full and when to come back instead of getting a ticket for an
 * hour, and the Worker gives that answer to further arrivals for a moment without the court.
 */
import { describe, expect, it } from 'vitest';
import { addr, advance, inspect, setVars } from './bench';
import { body, type ProblemBody, type WaitingBody } from './gate-fetch';
import { world } from './outside-world';
import { admit, checkIn, leave, queue, start } from './visitor-calls';

const heard = async () => (await inspect()).heard;

/**
 * One place, calls of a typical 90 s and a three-minute limit: the first in line waits about
 * 90 s, the second about 180 s, a third would wait about 270 s.
 */
async function lineAtItsLimit(): Promise<WaitingBody[]> {
  setVars({ GATE_MAX_CONCURRENT_CALLS: '1', GATE_MAX_WAIT_MINUTES: '3' });
  await admit(addr(1));
  const first = await queue(addr(2));
  const second = await queue(addr(3));
  expect(second.ticket.estimatedWaitSeconds).toBeLessThanOrEqual(180);
  return [first, second];
}

describe('a line longer than the owner’s wait limit', () => {
  it('tells a newcomer the court is full and when to come back, with no ticket', async () => {
    await lineAtItsLimit();
    const asked = world.siteverify.forms.length;
    const answer = await start(addr(4));
    expect(answer.status).toBe(503);
    const problem = await body<ProblemBody>(answer);
    expect(problem.code).toBe('court-full');
    expect(problem.retryAfterSeconds).toBeGreaterThanOrEqual(60);
    expect(answer.headers.get('retry-after')).toBe(String(problem.retryAfterSeconds));
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(await inspect()).toMatchObject({ waiting: 2 });
    // A start that cannot get a ticket costs no bot check.
    expect(world.siteverify.forms.length).toBe(asked);
  });

  it('gives further arrivals the remembered answer for a moment without asking the court', async () => {
    await lineAtItsLimit();
    expect((await start(addr(4))).status).toBe(503);
    const before = await heard();
    for (let n = 5; n < 25; n += 1) {
      const answer = await start(addr(n));
      expect(answer.status).toBe(503);
      const problem = await body<ProblemBody>(answer);
      expect(problem.code).toBe('court-full');
      expect(answer.headers.get('retry-after')).toBe(String(problem.retryAfterSeconds));
    }
    expect(await heard()).toBe(before);
    // The moment over, the next arrival is the court's to answer again.
    advance(6);
    expect((await start(addr(30))).status).toBe(503);
    expect(await heard()).toBeGreaterThan(before);
  });

  it('still serves the visitors already in line', async () => {
    const [first] = await lineAtItsLimit();
    expect((await start(addr(4))).status).toBe(503);
    advance(first?.retryAfterSeconds ?? 1);
    expect((await checkIn(first?.ticket.id ?? '')).status).toBe(200);
  });

  it('takes newcomers again once the wait is back under the limit', async () => {
    const [first] = await lineAtItsLimit();
    expect((await start(addr(4))).status).toBe(503);
    expect((await leave(first?.ticket.id ?? '')).status).toBe(204);
    advance(6);
    const again = await start(addr(5));
    expect(again.status).toBe(202);
    expect((await body<WaitingBody>(again)).ticket.position).toBe(2);
  });

  it('has a default limit that a line of a few dozen does not pass', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '10' });
    for (let n = 1; n <= 10; n += 1) await admit(addr(n));
    for (let n = 11; n <= 40; n += 1) await queue(addr(n));
    expect(await inspect()).toMatchObject({ waiting: 30 });
  });
});
