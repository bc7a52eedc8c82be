import { describe, expect, it } from 'vitest';
import {
  attackerAllowances,
  courtLoad,
  heardInSeconds,
  idlePlaces,
  maximum,
  objectLoads,
  peakAtOnce,
  percentile,
  perSecond,
  placeFreed,
  placeSeconds,
} from './surge-measures.mjs';
import { LIVE_SLACK_MS as SURGE_LIVE_SLACK_MS } from './surge-visitors.mjs';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

describe('the surge measures', () => {
  it('takes the nearest-rank percentile, 0 for no values', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 95)).toBe(5);
    expect(percentile([], 95)).toBe(0);
    expect(perSecond([1, 9, 3])).toBe('3 / 9');
  });

  it('finds the largest of more values than a call may take as arguments', () => {
    const latencies = Array.from({ length: 300_000 }, (_, i) => i % 1000);
    latencies[123_456] = 4321;
    expect(maximum(latencies)).toBe(4321);
    expect(maximum([])).toBe(0);
  });

  it('counts a freed place as idle only while live visitors wait, and flags it past the check-in interval', () => {
    const call = (createdAt: number, gateToldAt: number | null) => ({
      createdAt,
      startedAt: createdAt,
      messagesLost: false,
      gateToldAt,
    });
    const run = {
      // One place: the first call fills it, the second takes it 4 s after the gate learnt it was free.
      calls: [call(0, 10_000), call(14_000, null)],
      limit: 1,
      backstopS: 60,
      placesTaken: [{ at: 14_000, intervalS: 2 }],
      closedAt: Infinity,
      slackS: 1,
      startedAtMs: 0,
    };
    const waiting = idlePlaces({ ...run, liveChanges: [{ at: 5000, delta: 1 }] });
    expect(waiting).toMatchObject({ max: 4, maxUntilCheckIn: 4, allowed: 3, over: 1, counted: 1 });
    expect(waiting.worst).toBe(
      "freed by the message at 10.0 s; 4.0 s until the taker's check-in, 0.0 s from it to the provider's record",
    );
    const nobody = idlePlaces({
      ...run,
      liveChanges: [
        { at: 5000, delta: 1 },
        { at: 9000, delta: -1 },
      ],
    });
    expect(nobody).toMatchObject({ max: 0, over: 0, counted: 0 });
  });

  it('allows a place the line held for a ticket gone silent, and splits the idle time into its parts', () => {
    // One place, freed at 10 s. A ticket ahead went silent at 8 s and the gate counts it live
    // until 12.5 s; the taker checks in at 13.5 s, and the provider records its call at 14.4 s.
    const idle = idlePlaces({
      calls: [
        { createdAt: 0, startedAt: 0, messagesLost: false, gateToldAt: 10_000 },
        { createdAt: 14_400, startedAt: 14_400, messagesLost: false, gateToldAt: null },
      ],
      limit: 1,
      backstopS: 60,
      liveChanges: [{ at: 5000, delta: 1 }],
      placesTaken: [{ at: 13_500, answeredAt: 14_600, intervalS: 2, issuedAt: 6000 }],
      silentTickets: [{ issuedAt: 5000, at: 8000, dueAt: 12_500 }],
      closedAt: Infinity,
      slackS: 1,
      startedAtMs: 0,
    });
    expect(idle).toMatchObject({
      max: 4.4,
      maxUntilCheckIn: 3.5,
      allowed: 5.5,
      over: 0,
      counted: 1,
      heldBySilent: 1,
    });
    expect(idle.worst).toBe(
      "freed by the message at 10.0 s; 2.5 s held for a ticket gone silent, 1.0 s until the taker's check-in, 0.9 s from it to the provider's record",
    );
    // A ticket that went silent behind the taker held nothing for it.
    const behind = idlePlaces({
      calls: [
        { createdAt: 0, startedAt: 0, messagesLost: false, gateToldAt: 10_000 },
        { createdAt: 14_400, startedAt: 14_400, messagesLost: false, gateToldAt: null },
      ],
      limit: 1,
      backstopS: 60,
      liveChanges: [{ at: 5000, delta: 1 }],
      placesTaken: [{ at: 13_500, answeredAt: 14_600, intervalS: 2, issuedAt: 6000 }],
      silentTickets: [{ issuedAt: 7000, at: 8000, dueAt: 12_500 }],
      closedAt: Infinity,
      slackS: 1,
      startedAtMs: 0,
    });
    expect(behind).toMatchObject({ allowed: 3, over: 1, heldBySilent: 0 });
  });

  it("ends the line's allowance at the taker's check-in, and gives a sweep's place its second", () => {
    // Freed by the backstop's sweep (known to a second) at 10 s; the taker checks in at 13.9 s and
    // the gate, slow, has the provider record its call at 16 s.
    const idle = idlePlaces({
      calls: [
        { createdAt: 0, startedAt: 0, messagesLost: true, gateToldAt: null },
        { createdAt: 16_000, startedAt: 16_000, messagesLost: false, gateToldAt: null },
      ],
      limit: 1,
      backstopS: 9,
      liveChanges: [{ at: 5000, delta: 1 }],
      placesTaken: [
        { at: 13_900, answeredAt: 16_100, intervalS: 2, issuedAt: 6000, previousAnswerMs: 500 },
      ],
      closedAt: Infinity,
      slackS: 1,
      startedAtMs: 0,
    });
    expect(idle).toMatchObject({ max: 6, maxUntilCheckIn: 3.9, allowed: 4.5, over: 0 });
    expect(idle.worst).toBe(
      "freed by the backstop at 10.0 s; the taker's check-in before took 0.5 s to answer, 3.9 s until the taker's check-in, 2.1 s from it to the provider's record",
    );
  });

  it('counts a ticket live as long as the line does', () => {
    // Read from the line's source: importing it would bring the Workers runtime's types along.
    const gate = join(import.meta.dirname, '../../gate/src');
    const line = readdirSync(gate, { recursive: true, encoding: 'utf8' }).find((file) =>
      /(^|\/)line\.ts$/.test(file),
    );
    const source = readFileSync(join(gate, line ?? 'line.ts'), 'utf8');
    const slack = /export const LIVE_SLACK_MS = ([\d_]+);/.exec(source)?.[1];
    expect(SURGE_LIVE_SLACK_MS).toBe(Number(slack?.replaceAll('_', '')));
  });

  it('counts a place kept free for money only until the court says its budget is spent', () => {
    // One place, freed at 10 s; the court can afford no call, says so at 11 s, and the next call
    // comes at 16 s, once a running call settled below its worst case.
    const idle = idlePlaces({
      calls: [
        { createdAt: 0, startedAt: 0, messagesLost: false, gateToldAt: 10_000 },
        { createdAt: 16_000, startedAt: 16_000, messagesLost: false, gateToldAt: null },
      ],
      limit: 1,
      backstopS: 60,
      liveChanges: [{ at: 5000, delta: 1 }],
      placesTaken: [{ at: 16_000, intervalS: 2 }],
      closedAt: 11_000,
      slackS: 1,
      startedAtMs: 0,
    });
    expect(idle).toMatchObject({ max: 1, over: 0, counted: 1 });
  });

  it('compares the court load in whole seconds the flood was on against those it was off', () => {
    const startedAtMs = 100_000;
    const load = courtLoad({
      load: {
        from: new Date(startedAtMs).toISOString(),
        requestsPerSecond: [10, 10, 10, 30, 30, 10],
      },
      startedAtMs,
      viralEndedAtMs: startedAtMs + 6000,
      arrivedAt: [startedAtMs + 100, startedAtMs + 200, startedAtMs + 1500],
      bursts: [{ from: startedAtMs + 3000, to: startedAtMs + 5000 }],
      settleMs: 1000,
    });
    expect(load.courtPerSecond).toEqual([10, 10, 10, 30, 30, 10]);
    expect(load.arrivalsPerSecond).toEqual([2, 1, 0, 0, 0, 0]);
    expect(load.withFlood).toBe(30);
    expect(load.withoutFlood).toBe(10);
    expect(load.compared).toBe(true);
  });

  it('reads an object’s count of each second of the minute, 0 where it says nothing', () => {
    const from = new Date(100_000).toISOString();
    expect(heardInSeconds({ from, requestsPerSecond: [1, 2, 3] }, [99, 100, 102, 103])).toEqual([
      0, 1, 3, 0,
    ]);
    expect(heardInSeconds(undefined, [100, 101])).toEqual([0, 0]);
  });

  it('measures the busiest desk and shelf over the viral minute, and the court per arrival', () => {
    const startedAtMs = 100_000;
    // The report's ten minutes began two seconds before the run and end after the minute.
    const from = new Date(startedAtMs - 2000).toISOString();
    const court = courtLoad({
      load: { from, requestsPerSecond: [9, 9, 4, 6, 2, 0, 7] },
      startedAtMs,
      viralEndedAtMs: startedAtMs + 4000,
      arrivedAt: [startedAtMs + 10, startedAtMs + 20, startedAtMs + 1100, startedAtMs + 3500],
      bursts: [],
      settleMs: 0,
    });
    expect(court.seconds).toEqual([100, 101, 102, 103]);
    expect(court.courtPerSecond).toEqual([4, 6, 2, 0]);
    const report = {
      courtLoad: { from, requestsPerSecond: [9, 9, 4, 6, 2, 0, 7] },
      deskLoad: { object: 'desk-7', from, requestsPerSecond: [5, 5, 1, 3, 2, 0, 8] },
      shelfLoad: { object: 'shelf-0', from, requestsPerSecond: [0, 0, 0, 0, 0, 0, 0] },
    };
    const loads = objectLoads(report, court);
    expect(loads.courtGiven).toBe(true);
    // Only the minute's own seconds: the desk's earlier and later requests are not in it.
    expect(loads.desk).toEqual({
      given: true,
      object: 'desk-7',
      perSecond: [1, 3, 2, 0],
      heard: 6,
    });
    expect(perSecond(loads.desk.perSecond)).toBe('1 / 3');
    expect(loads.shelf).toMatchObject({ given: true, object: 'shelf-0', heard: 0 });
    // 12 requests for 4 arrivals; by second, 4 for 2, 6 for 1, and 0 for 1 (a second without
    // arrivals is left out).
    expect(loads.courtPerVisitor).toBe(3);
    expect(loads.courtPerVisitorEach).toEqual([2, 6, 0]);
  });

  it('says which loads the report did not give', () => {
    const court = { seconds: [1], courtPerSecond: [0], arrivalsPerSecond: [0] };
    const loads = objectLoads({ courtLoad: null }, court);
    expect(loads).toMatchObject({ courtGiven: false, courtPerVisitor: null });
    expect(loads.desk).toEqual({ given: false, object: '-', perSecond: [0], heard: 0 });
    expect(objectLoads(null, court).shelf.given).toBe(false);
  });

  it('says when no whole second after the first was heard without the flood', () => {
    const startedAtMs = 100_000;
    const load = courtLoad({
      load: { from: new Date(startedAtMs).toISOString(), requestsPerSecond: [10, 10, 30, 30] },
      startedAtMs,
      viralEndedAtMs: startedAtMs + 4000,
      arrivedAt: [],
      bursts: [{ from: startedAtMs + 1000, to: startedAtMs + 4000 }],
      settleMs: 1000,
    });
    expect(load.compared).toBe(false);
  });

  it('allows an attacker its starts per window over the run, the /24 at least its network’s', () => {
    const limits = { perWindow: 3, windowSeconds: 600, perDay: 12, networkPerWindow: 12 };
    expect(attackerAllowances({ ...limits, seconds: 90 })).toEqual({ allowed64: 3, allowed24: 12 });
    expect(attackerAllowances({ ...limits, seconds: 6000 })).toEqual({
      allowed64: 12,
      allowed24: 120,
    });
  });

  it('sums the seconds of place held, with the median and the most; all 0 for none', () => {
    const held = placeSeconds([0.4, 1.2, 0.8]);
    expect(held).toMatchObject({ count: 3, p50: 0.8, max: 1.2 });
    expect(held.sum).toBeCloseTo(2.4, 9);
    expect(placeSeconds([])).toEqual({ count: 0, sum: 0, p50: 0, max: 0 });
  });

  it('counts the most spans open at once, a span closing as another opens not with it', () => {
    expect(
      peakAtOnce([
        { from: 0, to: 10 },
        { from: 5, to: 15 },
        { from: 10, to: 20 },
        { from: 12, to: 13 },
      ]),
    ).toBe(3);
    expect(peakAtOnce([{ from: 5, to: 5 }])).toBe(0);
    expect(peakAtOnce([])).toBe(0);
  });

  it('frees a place when given back, when the gate is told, or at the backstop the run can tell', () => {
    const court = { backstopS: 48, joinBackstopS: 30, givenBackAt: new Map([['given', 1500]]) };
    const heard = { startedAt: 0, messagesLost: false, gateToldAt: 20_000 };
    expect(placeFreed({ ...heard, id: 'given' }, court)).toEqual({ at: 1500, by: 'give-back' });
    expect(placeFreed({ ...heard, id: 'other' }, court)).toEqual({ at: 20_000, by: 'message' });
    // Messages lost: a call over by the join backstop's lookup is freed by it; one still running
    // keeps its place to the call's limit and the grace.
    const lost = { startedAt: 0, messagesLost: true, gateToldAt: null };
    expect(placeFreed({ ...lost, endedAt: new Date(20_000).toISOString() }, court)).toEqual({
      at: 31_000,
      by: 'backstop',
    });
    expect(placeFreed({ ...lost, endedAt: new Date(40_000).toISOString() }, court)).toEqual({
      at: 49_000,
      by: 'backstop',
    });
    // Without a join backstop (the court before it), only the limit frees a silent call.
    expect(
      placeFreed({ ...lost, endedAt: new Date(20_000).toISOString() }, { backstopS: 48 }),
    ).toEqual({ at: 49_000, by: 'backstop' });
  });
});
