/**
 * The court's rules without a runtime: the money's arithmetic, and the court itself with its
 * ledger in memory (the workerd suite runs the same rules behind the Worker and SQLite).
 */
import { describe, expect, it } from 'vitest';
import { FIXED_LIMITS, type CourtLimits } from '../floor/court-limits';
import { DayBook, failureKeys, worstCaseUsd } from './court-money';
import { utcDay } from '../floor/day';
import { CourtState } from './court-state';
import type { StartLedger } from './visitor-limits';

const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);

const LIMITS: CourtLimits = {
  ...FIXED_LIMITS,
  maxConcurrent: 2,
  maxCallSeconds: 180,
  dailyBudgetUsd: 25,
  textShare: 1,
  // No pace unless a test sets one (court-pace.test.ts): the whole budget at midnight.
  paceReleases: 1,
  paceBurstShares: 0,
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

/** The visitor ledger in memory: the same questions the court's SQLite answers. */
class MemoryLedger implements StartLedger {
  starts: { key: string; at: number }[] = [];
  days = new Map<string, { starts: number; usd: number }>();
  startsSince(key: string, since: number) {
    const mine = this.starts.filter((s) => s.key === key && s.at >= since).map((s) => s.at);
    return { count: mine.length, oldest: mine.length ? Math.min(...mine) : null };
  }
  day(key: string, day: string) {
    return this.days.get(`${key}|${day}`) ?? { starts: 0, usd: 0 };
  }
  recordStart(keys: readonly string[], visitor: string, at: number, day: string) {
    for (const key of keys) this.starts.push({ key, at });
    const today = this.day(visitor, day);
    this.days.set(`${visitor}|${day}`, { ...today, starts: today.starts + 1 });
  }
  addUsd(visitor: string, day: string, usd: number) {
    const today = this.day(visitor, day);
    this.days.set(`${visitor}|${day}`, { ...today, usd: Math.max(0, today.usd + usd) });
  }
  prune(before: number) {
    this.starts = this.starts.filter((s) => s.at >= before);
  }
}

function court(limits: Partial<CourtLimits> = {}) {
  let n = 0;
  const ledger = new MemoryLedger();
  const state = new CourtState({ ...LIMITS, ...limits }, () => `id-${(n += 1)}`, ledger);
  return { state, ledger };
}
const visitor = (n: number) => ({ key: `visitor-${n}`, networks: [`net:${n}`] });

describe('the money', () => {
  it('reserves a call’s worst case and charges what is reported when its cost comes', () => {
    expect(worstCaseUsd({ maxCallSeconds: 180, costPerMinuteUsd: 0.15 })).toBe(0.45);
    const book = new DayBook();
    const day = utcDay(T0);
    book.reserve(day, 0.45);
    expect(book.committedUsd(T0)).toBe(0.45);
    book.release(day, 0.45, 0.12, T0);
    expect(book.totals(day)).toMatchObject({ reservedUsd: 0, spentUsd: 0.12 });
  });

  it('allows one more call only while its worst case fits the budget', () => {
    const book = new DayBook();
    book.release(utcDay(T0), 0, 24.5, T0);
    expect(book.allowsAnother(T0, 0.45, 25)).toBe(true);
    book.reserve(utcDay(T0), 0.1);
    expect(book.allowsAnother(T0, 0.45, 25)).toBe(false);
    expect(book.spentAllowsAnother(T0, 0.45, 25)).toBe(true);
  });

  it('counts unusual endings and outliers as failures, and normal endings as none', () => {
    expect(failureKeys('customer-ended-call')).toEqual([]);
    expect(failureKeys('pipeline-error-openai-llm-failed', ['outlier-cost'])).toEqual([
      'outlier-cost',
      'pipeline-error-openai-llm-failed',
    ]);
    expect(failureKeys('made-up reason')).toEqual(['other-ended-reason']);
  });

  it('reports the days asked for, today first, and keeps 90 days', () => {
    const book = new DayBook();
    book.totals(utcDay(T0)).starts = 1;
    book.totals(utcDay(T0 - 86_400_000)).starts = 2;
    book.totals(utcDay(T0 - 100 * 86_400_000)).starts = 3;
    expect(book.report(T0, 2).map((day) => day.starts)).toEqual([1, 2]);
    expect(book.kept(T0).map((day) => day.starts)).toEqual([1, 2]);
  });
});

describe('the court’s rules', () => {
  it('admits while places are free, then gives tickets in order', () => {
    const { state } = court();
    expect(state.request(visitor(1), T0).kind).toBe('admit');
    expect(state.request(visitor(2), T0).kind).toBe('admit');
    const third = state.request(visitor(3), T0);
    const fourth = state.request(visitor(4), T0);
    expect(third).toMatchObject({ kind: 'wait', position: 1 });
    expect(fourth).toMatchObject({ kind: 'wait', position: 2 });
  });

  it('frees a place when the provider says the call ended, and the next ticket takes it', () => {
    const { state } = court();
    const first = state.request(visitor(1), T0);
    state.request(visitor(2), T0);
    const waiting = state.request(visitor(3), T0);
    if (first.kind !== 'admit' || waiting.kind !== 'wait') throw new Error('unexpected');
    state.leases.attachCall(first.lease.id, 'call-1');
    expect(
      state.leases.providerEvent(
        { type: 'status-update', status: 'ended', callId: 'call-1' },
        T0 + 60_000,
      ),
    ).toBe(true);
    expect(state.activeLeases).toBe(1);
    expect(state.checkIn(waiting.ticket.id, false, T0 + 61_000)).toMatchObject({ kind: 'admit' });
  });

  it('refuses a visitor’s second call at once with a Retry-After', () => {
    const { state } = court();
    state.request(visitor(1), T0);
    expect(state.request(visitor(1), T0)).toMatchObject({ kind: 'refuse', code: 'rate-limited' });
  });

  it('puts a newcomer in line while calls under way hold the budget, and closes the court until UTC midnight once what is spent leaves no room', () => {
    const { state } = court({ dailyBudgetUsd: 0.8, maxConcurrent: 5 });
    const first = state.request(visitor(1), T0);
    if (first.kind !== 'admit') throw new Error('unexpected');
    state.leases.attachCall(first.lease.id, 'call-1');
    // A place is free, but the budget holds the call under way's worst case: the court is full.
    expect(state.request(visitor(2), T0)).toMatchObject({ kind: 'wait', position: 1 });
    // The call cost more than half the day: no other call fits, whatever happens.
    state.leases.providerEvent(
      { type: 'end-of-call-report', callId: 'call-1', cost: 0.5 },
      T0 + 1000,
    );
    expect(state.request(visitor(3), T0 + 2000)).toEqual({
      kind: 'refuse',
      code: 'court-closed',
      reopensAt: '2030-01-16T00:00:00.000Z',
      retryAfterSeconds: 12 * 3600 - 2,
    });
  });

  it('keeps a ticket waiting while reservations hold the budget, and admits it once one lifts', () => {
    // A worst case of USD 0.45 a call: the budget holds two beside nothing spent.
    const { state } = court({ dailyBudgetUsd: 1, maxConcurrent: 1 });
    const first = state.request(visitor(1), T0);
    const waiting = state.request(visitor(2), T0);
    if (first.kind !== 'admit' || waiting.kind !== 'wait') throw new Error('unexpected');
    const grant = state.text.draw('desk-a', null, 0.2, 0.2, T0);
    if (!grant.ok) throw new Error('unexpected');
    state.leases.attachCall(first.lease.id, 'call-1');
    // The call ends, its cost not known yet: its worst case and the grant still hold the budget.
    state.leases.providerEvent(
      { type: 'status-update', status: 'ended', callId: 'call-1' },
      T0 + 60_000,
    );
    expect(state.checkIn(waiting.ticket.id, false, T0 + 61_000, true)).toMatchObject({
      kind: 'wait',
      position: 1,
      offered: false,
    });
    // The desk settles its grant at what its replies cost: the place is the ticket's.
    expect(
      state.text.settle(grant.grantId, 'desk-a', 0.01, { turns: 1, chats: 1 }, T0 + 62_000),
    ).toBe(true);
    expect(state.checkIn(waiting.ticket.id, false, T0 + 120_000)).toMatchObject({ kind: 'admit' });
  });

  it('keeps a place held for a tap while reservations hold the budget, and admits the tap once one lifts', () => {
    const { state } = court({ dailyBudgetUsd: 1, maxConcurrent: 1 });
    const first = state.request(visitor(1), T0);
    const waiting = state.request(visitor(2), T0);
    if (first.kind !== 'admit' || waiting.kind !== 'wait') throw new Error('unexpected');
    state.leases.attachCall(first.lease.id, 'call-1');
    state.leases.providerEvent(
      { type: 'end-of-call-report', callId: 'call-1', cost: 0.1 },
      T0 + 60_000,
    );
    // Talking by text: the turn comes and the place is held for the visitor's tap.
    expect(state.checkIn(waiting.ticket.id, false, T0 + 61_000, true)).toMatchObject({
      offered: true,
    });
    // Text reserves what leaves no room for the call's worst case: the tap keeps the place held.
    const grant = state.text.draw('desk-a', null, 0.5, 0.5, T0 + 62_000);
    if (!grant.ok) throw new Error('unexpected');
    expect(state.checkIn(waiting.ticket.id, false, T0 + 63_000)).toMatchObject({
      kind: 'wait',
      offered: true,
      checkInBySeconds: 30,
    });
    expect(
      state.text.settle(grant.grantId, 'desk-a', 0.01, { turns: 1, chats: 1 }, T0 + 70_000),
    ).toBe(true);
    expect(state.checkIn(waiting.ticket.id, false, T0 + 80_000)).toMatchObject({ kind: 'admit' });
  });

  it('tells text the budget is held until a reservation lifts, and closed once the day is spent', () => {
    const { state } = court({ dailyBudgetUsd: 0.5, maxConcurrent: 5 });
    const first = state.request(visitor(1), T0);
    if (first.kind !== 'admit') throw new Error('unexpected');
    state.leases.attachCall(first.lease.id, 'call-1');
    // A reply's worst case does not fit beside the call's: held until the call reaches 180 s.
    expect(state.text.draw('desk-a', null, 0.1, 0.1, T0 + 10_000)).toEqual({
      ok: false,
      why: 'held',
      retryAfterSeconds: 170,
    });
    state.leases.providerEvent(
      { type: 'end-of-call-report', callId: 'call-1', cost: 0.45 },
      T0 + 20_000,
    );
    expect(state.text.draw('desk-a', null, 0.1, 0.1, T0 + 21_000)).toMatchObject({
      ok: false,
      why: 'closed',
      reopensAt: '2030-01-16T00:00:00.000Z',
    });
  });

  it('never lets text commit more than its share of the day: the rest stays voice’s', () => {
    // USD 1 a day, text's share half of it; a call's worst case is USD 0.45.
    const { state } = court({ dailyBudgetUsd: 1, textShare: 0.5, maxConcurrent: 5 });
    let drawn = 0;
    for (let n = 0; n < 100; n += 1) {
      const draw = state.text.draw(`desk-${n}`, null, 0.02, 0.2, T0 + n);
      if (!draw.ok) break;
      drawn += draw.usd;
      state.text.settle(draw.grantId, `desk-${n}`, draw.usd, { turns: 10, chats: 1 }, T0 + n);
    }
    // Up to its share, less what is too little for one more reply.
    expect(drawn).toBeLessThanOrEqual(0.5 + 1e-9);
    expect(drawn).toBeGreaterThan(0.5 - 0.02);
    // Text's share is spent: text is closed for the day, and voice still has its half.
    expect(state.text.draw('desk-x', null, 0.02, 0.02, T0 + 1000)).toMatchObject({
      ok: false,
      why: 'closed',
    });
    expect(state.request(visitor(1), T0 + 2000).kind).toBe('admit');
    expect(state.request(visitor(2), T0 + 2000).kind).toBe('wait');
  });

  it('tells a desk whose own grant spent text’s share that text is closed, not busy', () => {
    // USD 1 a day, a tenth of it text's; one desk's grant comes to hold all of it.
    const { state } = court({ dailyBudgetUsd: 1, textShare: 0.1, maxConcurrent: 5 });
    let grantId: string | null = null;
    for (let n = 0; n < 20; n += 1) {
      const draw = state.text.draw('desk-a', grantId, 0.02, 0.1, T0 + n * 1000);
      if (!draw.ok) break;
      grantId = draw.grantId;
    }
    if (grantId === null) throw new Error('unexpected');
    // Its replies spent what it holds, not yet settled: the court learns it from the draw.
    expect(state.text.draw('desk-a', grantId, 0.02, 0.02, T0 + 30_000, 0.1)).toMatchObject({
      ok: false,
      why: 'closed',
      reopensAt: '2030-01-16T00:00:00.000Z',
    });
    // Unspent, the same grant only holds the share: asked again when it lifts at the latest.
    expect(state.text.draw('desk-a', grantId, 0.02, 0.02, T0 + 30_000, 0)).toMatchObject({
      ok: false,
      why: 'held',
    });
    // Another desk's word on it counts for nothing: a desk speaks only for its own grant.
    expect(state.text.draw('desk-b', grantId, 0.02, 0.02, T0 + 30_000, 0.1)).toMatchObject({
      ok: false,
      why: 'held',
    });
  });

  it('lets voice borrow what text has not used, and text then waits for it', () => {
    const { state } = court({ dailyBudgetUsd: 1, textShare: 0.5, maxConcurrent: 5 });
    const calls = [state.request(visitor(1), T0), state.request(visitor(2), T0)];
    expect(calls.map((call) => call.kind)).toEqual(['admit', 'admit']);
    // Two worst cases (0.9) reach into text's share: a reply waits until a call is settled.
    expect(state.text.draw('desk-a', null, 0.2, 0.2, T0 + 1000)).toMatchObject({
      ok: false,
      why: 'held',
    });
  });

  it('charges a call the provider never reported its worst case once its limit has passed', () => {
    const { state } = court();
    const first = state.request(visitor(1), T0);
    if (first.kind !== 'admit') throw new Error('unexpected');
    state.leases.attachCall(first.lease.id, 'call-1');
    expect(state.sweep(T0 + 211_000)).toMatchObject({ expired: 1 });
    expect(state.activeLeases).toBe(0);
    expect(state.report(T0 + 211_000, 1)[0]).toMatchObject({ spentUsd: 0.45, reservedUsd: 0 });
  });

  it('takes one rating per ended call', () => {
    const { state } = court();
    const first = state.request(visitor(1), T0);
    if (first.kind !== 'admit') throw new Error('unexpected');
    state.leases.attachCall(first.lease.id, 'call-1');
    expect(state.leases.rate('call-1', 'delighted', false)).toBe('not-ratable');
    state.leases.providerEvent(
      { type: 'status-update', status: 'ended', callId: 'call-1' },
      T0 + 1000,
    );
    expect(state.leases.rate('call-1', 'delighted', true)).toBe('ok');
    expect(state.leases.rate('call-1', 'content', false)).toBe('not-ratable');
  });
});
