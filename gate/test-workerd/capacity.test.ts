/**
 * What a crowd asks of the court, per arriving visitor: the bound docs/capacity.md sizes the
 * court by. A viral crowd arrives at a court of a few places, twenty visitors a second; those in
 * line follow their tickets as a page does (each check-in when its Retry-After says), admitted
 * calls are reported by the provider as they end, and every request the court hears is counted.
 */
import { describe, expect, it } from 'vitest';
import type { Admitted, Waiting } from '../../generated/gate/types.gen';
import { addr, advance, inspect, setVars } from './bench';
import { body } from './gate-fetch';
import { endOfCallReport, statusEnded } from './provider-events';
import { checkIn, start } from './visitor-calls';

/** docs/capacity.md: the court's requests per arriving visitor, at most. */
const REQUESTS_PER_VISITOR = 2;
const VISITORS = 200;
const ARRIVALS_PER_SECOND = 20;
/** How long an admitted call lasts before the provider reports its end. */
const CALL_SECONDS = 60;

describe('the court under a crowd', () => {
  it('hears at most a few requests per arriving visitor of a viral crowd', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '4', GATE_MAX_WAIT_MINUTES: '2' });
    const tickets = new Map<string, number>();
    const calls = new Map<string, number>();
    let seconds = 0;
    let taken = 0;
    const admitted = async (answer: Response) => {
      taken += 1;
      calls.set((await body<Admitted>(answer)).call.id, seconds + CALL_SECONDS);
    };
    let arrived = 0;
    // Nine minutes, a second at a time: the court counts what it heard over the last ten.
    for (
      ;
      seconds < 540 && (arrived < VISITORS || tickets.size > 0 || calls.size > 0);
      seconds += 1
    ) {
      advance(1);
      for (let n = 0; n < ARRIVALS_PER_SECOND && arrived < VISITORS; n += 1, arrived += 1) {
        const answer = await start(addr(arrived));
        if (answer.status === 201) await admitted(answer);
        if (answer.status === 202) {
          const waiting = await body<Waiting>(answer);
          tickets.set(waiting.ticket.id, seconds + waiting.retryAfterSeconds);
        }
      }
      for (const [callId, endsAt] of calls) {
        if (endsAt > seconds) continue;
        calls.delete(callId);
        await statusEnded(callId);
        await endOfCallReport(callId, { cost: 0.15, seconds: CALL_SECONDS });
      }
      for (const [ticketId, dueAt] of tickets) {
        if (dueAt > seconds) continue;
        const answer = await checkIn(ticketId);
        tickets.delete(ticketId);
        if (answer.status === 201) await admitted(answer);
        if (answer.status === 200) {
          const waiting = await body<Waiting>(answer);
          tickets.set(ticketId, seconds + waiting.retryAfterSeconds);
        }
      }
    }
    expect(tickets.size).toBe(0);
    const { heard } = await inspect();
    expect(heard / VISITORS).toBeLessThanOrEqual(REQUESTS_PER_VISITOR);
    // The count is the court's own: each admitted call's start and two events at least.
    expect(taken).toBeGreaterThan(4);
    expect(heard).toBeGreaterThan(taken * 3);
  });
});
