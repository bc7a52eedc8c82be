/**
 * The pace: the day's budget released over the day, what a newcomer and a ticket are told when
 * what is spent reaches it, and what it leaves alone (calls under way, text within its share).
 */
import { describe, expect, it } from 'vitest';
import { paceClockFrom } from '../floor/config';
import { FIXED_LIMITS, type CourtLimits } from '../floor/court-limits';
import {
  backAt,
  paceHour,
  paceReport,
  paceTime,
  partOf,
  realTime,
  releasedUsd,
} from './court-pace';
import { CourtState } from './court-state';
import type { StartLedger } from './visitor-limits';

const DAY = Date.UTC(2030, 0, 15);
const at = (hours: number, minutes = 0) => DAY + (hours * 60 + minutes) * 60_000;

const HOURLY = { dailyBudgetUsd: 24, paceReleases: 24, paceBurstShares: 0 };

const LIMITS: CourtLimits = {
  ...FIXED_LIMITS,
  ...HOURLY,
  maxConcurrent: 5,
  maxCallSeconds: 180,
  textShare: 0.5,
  costPerMinuteUsd: 0.15,
  visitorConcurrent: 1,
  visitorStartsPerWindow: 3,
  visitorWindowSeconds: 600,
  visitorStartsPerDay: 12,
  visitorDailyUsd: 1.5,
  networkConcurrent: 4,
  networkStartsPerWindow: 12,
  asnConcurrent: 200,
  maxWaitMinutes: 15,
};

/** A ledger that lets every visitor start: the pace is what is under test. */
const OPEN_LEDGER: StartLedger = {
  startsSince: () => ({ count: 0, oldest: null }),
  day: () => ({ starts: 0, usd: 0 }),
  recordStart: () => undefined,
  addUsd: () => undefined,
  prune: () => undefined,
};

function court(limits: Partial<CourtLimits> = {}) {
  let n = 0;
  return new CourtState({ ...LIMITS, ...limits }, () => `id-${(n += 1)}`, OPEN_LEDGER);
}
const visitor = (n: number) => ({ key: `visitor-${n}`, networks: [`net:${n}`] });

/** Admits a visitor and ends their call at `costUsd`, reported at `end`. */
function spend(state: CourtState, n: number, start: number, end: number, costUsd: number) {
  const decision = state.request(visitor(n), start);
  if (decision.kind !== 'admit') throw new Error(`visitor ${n} was not admitted`);
  state.leases.attachCall(decision.lease.id, `call-${n}`);
  state.leases.providerEvent(
    { type: 'end-of-call-report', callId: `call-${n}`, cost: costUsd },
    end,
  );
}

describe('the pace', () => {
  it('releases an hour’s share as each hour begins, the burst ahead of it, and the whole day by its end', () => {
    expect(releasedUsd(HOURLY, at(0, 10))).toBe(1);
    expect(releasedUsd(HOURLY, at(13, 59))).toBe(14);
    expect(releasedUsd({ ...HOURLY, paceBurstShares: 2 }, at(0, 10))).toBe(3);
    expect(releasedUsd({ ...HOURLY, paceBurstShares: 2 }, at(23, 0))).toBe(24);
    expect(partOf(HOURLY, at(23, 59))).toBe(23);
    // One release is no pace: the whole budget at midnight.
    expect(releasedUsd({ ...HOURLY, paceReleases: 1 }, at(0, 0))).toBe(24);
  });

  it('names the first part of the day whose release covers what is asked', () => {
    // USD 1 an hour: USD 2.5 is covered once the third hour's share is out, at 02:00.
    expect(backAt(HOURLY, 2.5, at(0, 10))).toBe(at(2));
    // Covered already, or never today (the court is closed, not resting).
    expect(backAt(HOURLY, 0.9, at(0, 10))).toBeNull();
    expect(backAt(HOURLY, 24.5, at(0, 10))).toBeNull();
    // Never the part we are in, which does not cover it.
    expect(backAt({ ...HOURLY, paceBurstShares: 1 }, 2.01, at(0, 30))).toBe(at(1));
    expect(paceReport(HOURLY, at(5, 0))).toEqual({
      releases: 24,
      burstShares: 0,
      shareUsd: 1,
      releasedUsd: 6,
    });
  });

  it('tells a newcomer when Pepa is back once the hour’s spend reaches the pace, and lets the call under way go on', () => {
    const state = court();
    spend(state, 1, at(0, 1), at(0, 4), 0.45);
    const talking = state.request(visitor(2), at(0, 5));
    expect(talking.kind).toBe('admit');
    // USD 0.45 spent and 0.45 held by the call under way: the next worst case waits in line.
    expect(state.request(visitor(3), at(0, 6))).toMatchObject({ kind: 'wait', position: 1 });
    if (talking.kind !== 'admit') throw new Error('unexpected');
    state.leases.attachCall(talking.lease.id, 'call-2');
    state.leases.providerEvent(
      { type: 'end-of-call-report', callId: 'call-2', cost: 0.3 },
      at(0, 8),
    );
    // USD 0.75 spent: one more worst case would pass the hour's dollar. Back at 01:00.
    expect(state.request(visitor(4), at(0, 9))).toEqual({
      kind: 'refuse',
      code: 'court-resting',
      reopensAt: new Date(at(1)).toISOString(),
      retryAfterSeconds: 51 * 60,
    });
    expect(state.report(at(0, 9), 1)[0]?.refusals).toMatchObject({ 'court-resting': 1 });
  });

  it('tells a ticket in line when Pepa is back once what is spent reaches the pace, rather than keep it waiting for the release', () => {
    const state = court();
    const calls = [1, 2].map((n) => state.request(visitor(n), at(0, 1)));
    // Two worst cases held, nothing spent: only reservations stand in the way, so the third waits.
    const waiting = state.request(visitor(3), at(0, 2));
    if (waiting.kind !== 'wait') throw new Error('unexpected');
    calls.forEach((call, i) => {
      if (call.kind !== 'admit') throw new Error('unexpected');
      state.leases.attachCall(call.lease.id, `call-${i}`);
      state.leases.providerEvent(
        { type: 'end-of-call-report', callId: `call-${i}`, cost: 0.4 },
        at(0, 4),
      );
    });
    // USD 0.8 spent: the hour has no room for another worst case until 01:00.
    expect(state.checkIn(waiting.ticket.id, false, at(0, 5))).toMatchObject({
      kind: 'refuse',
      code: 'court-resting',
      reopensAt: new Date(at(1)).toISOString(),
    });
    expect(state.line.size).toBe(0);
  });

  it('rests text until its share of the next release covers a reply, and counts each hour’s spend', () => {
    const state = court();
    // Text's half of the first hour's dollar, drawn and spent.
    const grant = state.text.draw('desk-a', null, 0.5, 0.5, at(0, 1));
    if (!grant.ok) throw new Error('unexpected');
    expect(
      state.text.settle(grant.grantId, 'desk-a', 0.5, { turns: 25, chats: 5 }, at(0, 20)),
    ).toBe(true);
    expect(state.text.draw('desk-a', null, 0.02, 0.2, at(0, 21))).toEqual({
      ok: false,
      why: 'resting',
      reopensAt: new Date(at(1)).toISOString(),
      retryAfterSeconds: 39 * 60,
    });
    // Voice still has its own half of the hour.
    expect(state.request(visitor(1), at(0, 22))).toMatchObject({ kind: 'admit' });
    expect(state.text.draw('desk-a', null, 0.02, 0.2, at(1, 0))).toMatchObject({ ok: true });
    expect(state.report(at(1, 0), 1)[0]?.hours.slice(0, 2)).toEqual([0.5, 0]);
  });

  it('says closed, not resting, when the whole day is spent', () => {
    const state = court({ dailyBudgetUsd: 0.5, paceReleases: 1 });
    spend(state, 1, at(9), at(9, 3), 0.45);
    expect(state.request(visitor(2), at(9, 5))).toMatchObject({
      kind: 'refuse',
      code: 'court-closed',
    });
  });

  describe('on a simulated clock (a local simulation’s day in minutes)', () => {
    /** From real moment R the clock reads 00:00, ten times faster for 90 s, then 360 times. */
    const R = Date.UTC(2026, 11, 2, 21, 0);
    const CLOCK = {
      simStartMs: DAY,
      realStartMs: R,
      steps: [
        { scale: 10, seconds: 90 },
        { scale: 360, seconds: Infinity },
      ],
    };
    const PACED = { ...HOURLY, paceClock: CLOCK };
    const real = (seconds: number) => R + seconds * 1000;

    it('reads the simulated time step by step, and stops at the simulated day’s last moment', () => {
      expect(paceTime(CLOCK, R - 5000)).toBe(DAY);
      expect(paceTime(CLOCK, real(60))).toBe(at(0, 10));
      // 90 s at ten times (15 min), then 10 s at 360 times (an hour).
      expect(paceTime(CLOCK, real(100))).toBe(at(1, 15));
      expect(paceHour(CLOCK, real(100))).toBe(1);
      expect(paceTime(CLOCK, real(100_000))).toBe(at(24) - 1);
      expect(paceTime(undefined, real(100))).toBe(real(100));
    });

    it('finds the real moment the clock reads a simulated time', () => {
      for (const seconds of [0, 30, 90, 100, 250]) {
        expect(realTime(CLOCK, paceTime(CLOCK, real(seconds)))).toBe(real(seconds));
      }
    });

    it('releases the simulated hours’ shares, and says when Pepa is back in real time', () => {
      expect(releasedUsd(PACED, real(60))).toBe(1);
      expect(releasedUsd(PACED, real(100))).toBe(2);
      // At 00:10 simulated, USD 2.5 waits for 02:00: 75 real seconds at ten times (to 00:15),
      // then 105 simulated minutes at 360 times (17.5 s).
      expect(backAt(PACED, 2.5, real(60))).toBe(real(107.5));
    });

    it('is read from GATE_PACE_CLOCK on this machine only, and refused when malformed', () => {
      const local = { GATE_SITE_ORIGIN: 'http://127.0.0.1:8787' };
      expect(
        paceClockFrom({ ...local, GATE_PACE_CLOCK: `2030-01-15T00:00:00Z@${R} 10:90 360` }),
      ).toEqual({ paceClock: CLOCK });
      expect(paceClockFrom({ ...local, GATE_PACE_CLOCK: '' })).toEqual({});
      expect(() =>
        paceClockFrom({
          GATE_SITE_ORIGIN: 'https://pepa.example.org',
          GATE_PACE_CLOCK: `2030-01-15T00:00:00Z@${R} 360`,
        }),
      ).toThrow(/^GATE_PACE_CLOCK is a local simulation's clock/);
      for (const bad of [
        '360',
        `2030-01-15T00:00:00Z@${R}`,
        `2030-01-15T00:00:00Z@${R} 10 360`,
        `2030-01-15T00:00:00Z@${R} 10:90 0`,
        `noon@${R} 360`,
      ]) {
        expect(() => paceClockFrom({ ...local, GATE_PACE_CLOCK: bad })).toThrow(
          /^GATE_PACE_CLOCK /,
        );
      }
    });

    it('counts each cost in the simulated hour it settled in', () => {
      const state = court({ paceClock: CLOCK });
      spend(state, 1, real(1), real(100), 0.45);
      expect(state.report(real(100), 1)[0]?.hours.slice(0, 2)).toEqual([0, 0.45]);
    });
  });
});
