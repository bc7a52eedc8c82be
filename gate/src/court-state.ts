/**
 * The court's rules, free of any runtime: who is admitted, who waits, who is refused, and what a
 * day costs. The Durable Object (court.ts) owns one instance, feeds it the clock and the
 * provider's answers, and persists what must survive a restart.
 */
import { Line, LIVE_SLACK_MS, type Ticket } from './line';
import type { ProblemCode } from './problem';
import { reasonKey } from './provider-numbers';
import type { Visitor } from './visitor';
import {
  visitorRefusal,
  windowKeys,
  type StartLedger,
  type VisitorLimitSettings,
} from './visitor-limits';

export interface CourtLimits extends VisitorLimitSettings {
  /** Calls at once (the provider's concurrency limit). */
  maxConcurrent: number;
  /** The longest a call may last (fixed on every call the gate creates). */
  maxCallSeconds: number;
  /** How long past its maximum a call's place is kept before the backstop frees it. */
  graceSeconds: number;
  dailyBudgetUsd: number;
  costPerMinuteUsd: number;
  /** A ticket not checked in within its Retry-After plus this is dropped. */
  checkInGraceSeconds: number;
  /** The same for a page that said it is hidden (its timers may be throttled). */
  hiddenCheckInGraceSeconds: number;
  /** The longest estimated wait a newcomer is given a ticket for; past it the court is full. */
  maxWaitMinutes: number;
}

export const DEFAULT_LIMITS: CourtLimits = {
  maxConcurrent: 10,
  maxCallSeconds: 180,
  graceSeconds: 30,
  dailyBudgetUsd: 50,
  costPerMinuteUsd: 0.15,
  visitorConcurrent: 1,
  visitorStartsPerWindow: 3,
  visitorWindowSeconds: 600,
  visitorStartsPerDay: 12,
  visitorDailyUsd: 1.5,
  networkConcurrent: 4,
  networkStartsPerWindow: 12,
  asnConcurrent: 200,
  checkInGraceSeconds: 10,
  hiddenCheckInGraceSeconds: 75,
  maxWaitMinutes: 15,
};

/** A visitor told the court is full comes back no sooner than this. */
const FULL_RETRY_MIN_SECONDS = 60;

/** The slowest check-in the line asks for, so deep places still prove they are there. */
export const MAX_CHECK_IN_SECONDS = 20;
/** A lease this old with no word from the provider is looked up (`GET /call/{id}`). */
export const PROBE_AFTER_SECONDS = 60;
export const PROBE_EVERY_SECONDS = 30;

export interface Lease {
  id: string;
  /** The provider's call id, once the call is created. */
  callId: string | null;
  visitor: string;
  /** The visitor's network buckets (see visitor.ts), held against their caps too. */
  networks: string[];
  day: string;
  startedAt: number;
  /** The worst case held against the day's budget until the call's cost is known. */
  reservedUsd: number;
  lastProbeAt: number;
  /**
   * The provider was asked to create the call but no answer came: it may exist. The place and
   * the worst case stay held until the call is found by its tag or the backstop charges it.
   */
  unknown?: boolean;
}

export interface DayTotals {
  day: string;
  calls: number;
  minutes: number;
  spentUsd: number;
  reservedUsd: number;
  starts: number;
  waited: number;
  ratings: { delighted: number; content: number; displeased: number; comments: number };
  refusals: Record<string, number>;
  failures: Record<string, number>;
}

export type Score = 'delighted' | 'content' | 'displeased';

export interface Refusal {
  kind: 'refuse';
  code: ProblemCode;
  retryAfterSeconds?: number;
  reopensAt?: string;
}

export interface Place {
  kind: 'wait';
  ticket: Ticket;
  position: number;
  estimatedWaitSeconds: number;
  retryAfterSeconds: number;
  checkInBySeconds: number;
}

export interface Admission {
  kind: 'admit';
  lease: Lease;
  waitedSeconds: number;
}

export type Decision = Admission | Place | Refusal;

/** Ended reasons that are a call ending as it should, not a failure. */
const NORMAL_ENDINGS = new Set([
  'customer-ended-call',
  'assistant-ended-call',
  'assistant-said-end-call-phrase',
  'exceeded-max-duration',
  'silence-timed-out',
  'customer-did-not-give-microphone-permission',
]);

export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

function nextUtcMidnight(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
}

const cents = (usd: number): number => Math.round(usd * 1e6) / 1e6;

/** What the court keeps across restarts. The line and visitor windows live in memory only. */
export interface CourtSnapshot {
  leases: Lease[];
  days: DayTotals[];
  /** Calls admitted in the last two days: whether each was rated and settled. */
  calls: [string, { day: string; rated: boolean; settled: boolean; released: boolean }][];
  /** Calls that ended but whose cost is not known yet, with what they reserved. */
  pending: [string, Lease][];
  typicalCallSeconds: number;
}

export class CourtState {
  readonly line = new Line();
  private readonly leases = new Map<string, Lease>();
  private readonly days = new Map<string, DayTotals>();
  private readonly calls = new Map<
    string,
    { day: string; rated: boolean; settled: boolean; released: boolean }
  >();
  /** Calls changed since the last {@link takeChangedCalls}. */
  private readonly changedCalls = new Set<string>();
  /** Released calls whose cost is not known yet, with the reservation they hold. */
  private readonly pending = new Map<string, Lease>();
  private typicalCallSeconds: number;
  private prunedAt = 0;

  constructor(
    readonly limits: CourtLimits,
    private readonly newId: () => string,
    private readonly ledger: StartLedger,
    snapshot?: CourtSnapshot,
  ) {
    this.typicalCallSeconds = Math.min(limits.maxCallSeconds, 90);
    if (snapshot) {
      for (const lease of snapshot.leases)
        this.leases.set(lease.id, { ...lease, networks: lease.networks ?? [] });
      for (const day of snapshot.days) this.days.set(day.day, day);
      for (const [id, call] of snapshot.calls) this.calls.set(id, call);
      for (const [id, lease] of snapshot.pending) this.pending.set(id, lease);
      this.typicalCallSeconds = snapshot.typicalCallSeconds;
    }
  }

  /** The calls changed since last asked, with their new records (null: forget it). */
  takeChangedCalls(): [string, CourtSnapshot['calls'][number][1] | null][] {
    const out: [string, CourtSnapshot['calls'][number][1] | null][] = [];
    for (const id of this.changedCalls) out.push([id, this.calls.get(id) ?? null]);
    this.changedCalls.clear();
    return out;
  }

  snapshot(now: number): CourtSnapshot {
    const today = utcDay(now);
    const yesterday = utcDay(now - 86_400_000);
    const keep = (day: string) => day >= yesterday;
    return {
      leases: [...this.leases.values()],
      days: [...this.days.values()].filter((day) => day.day >= utcDay(now - 90 * 86_400_000)),
      calls: [...this.calls.entries()].filter(([, call]) => keep(call.day) || call.day === today),
      pending: [...this.pending.entries()],
      typicalCallSeconds: this.typicalCallSeconds,
    };
  }

  get activeLeases(): number {
    return this.leases.size;
  }

  /** Calls that ended with their cost not known yet (the sweep settles them at the worst case). */
  get unsettledCalls(): number {
    return this.pending.size;
  }

  get freeLeases(): number {
    return Math.max(0, this.limits.maxConcurrent - this.leases.size);
  }

  /** The worst a call can cost: its maximum duration at the configured rate. */
  get worstCaseUsd(): number {
    return cents((this.limits.maxCallSeconds / 60) * this.limits.costPerMinuteUsd);
  }

  totals(day: string): DayTotals {
    let totals = this.days.get(day);
    if (!totals) {
      totals = {
        day,
        calls: 0,
        minutes: 0,
        spentUsd: 0,
        reservedUsd: 0,
        starts: 0,
        waited: 0,
        ratings: { delighted: 0, content: 0, displeased: 0, comments: 0 },
        refusals: {},
        failures: {},
      };
      this.days.set(day, totals);
    }
    return totals;
  }

  /** Spent plus reserved today: what the day's budget is measured against. */
  committedUsd(now: number): number {
    const totals = this.totals(utcDay(now));
    return cents(totals.spentUsd + totals.reservedUsd);
  }

  private budgetAllows(now: number): boolean {
    return this.committedUsd(now) + this.worstCaseUsd <= this.limits.dailyBudgetUsd + 1e-9;
  }

  /** What is already spent today leaves no room for one more call's worst case. */
  private spentForToday(now: number): boolean {
    const spent = this.totals(utcDay(now)).spentUsd;
    return spent + this.worstCaseUsd > this.limits.dailyBudgetUsd + 1e-9;
  }

  private refuse(now: number, refusal: Omit<Refusal, 'kind'>): Refusal {
    const totals = this.totals(utcDay(now));
    totals.refusals[refusal.code] = (totals.refusals[refusal.code] ?? 0) + 1;
    return { kind: 'refuse', ...refusal };
  }

  /** Counts a refusal decided outside the court (the bot check), for the day's report. */
  countRefusal(code: ProblemCode, now: number): void {
    this.refuse(now, { code });
  }

  private closed(now: number): Refusal {
    const reopens = nextUtcMidnight(now);
    return this.refuse(now, {
      code: 'court-closed',
      reopensAt: new Date(reopens).toISOString(),
      retryAfterSeconds: Math.ceil((reopens - now) / 1000),
    });
  }

  /** Calls and places held by each key (a visitor's or a network's). */
  private holds(keys: readonly string[]): Map<string, number> {
    const held = new Map(keys.map((key) => [key, 0]));
    const count = (holder: { visitor: string; networks: string[] }) => {
      for (const key of [holder.visitor, ...holder.networks]) {
        const n = held.get(key);
        if (n !== undefined) held.set(key, n + 1);
      }
    };
    for (const lease of this.leases.values()) count(lease);
    for (const ticket of this.line.values()) count(ticket);
    return held;
  }

  /** The refusal a visitor's start gets now, if any: their own limits, then the day's budget. */
  private limitFor(visitor: Visitor, now: number): Refusal | null {
    const over = visitorRefusal(visitor, {
      limits: this.limits,
      ledger: this.ledger,
      holds: (keys) => this.holds(keys),
      now,
      day: utcDay(now),
      worstCaseUsd: this.worstCaseUsd,
    });
    if (over) return this.refuse(now, { code: 'rate-limited', ...over });
    if (!this.budgetAllows(now)) return this.closed(now);
    return null;
  }

  /**
   * Before the bot check: a start that would be refused anyway is refused (and counted) without
   * the round trip to siteverify. Null when the start may go on to the bot check.
   */
  precheck(visitor: Visitor, now: number): Refusal | null {
    const refusal = this.limitFor(visitor, now) ?? this.fullFor(now);
    if (refusal) this.totals(utcDay(now)).starts += 1;
    return refusal;
  }

  /**
   * The court is full when a newcomer's estimated wait passes the owner's limit: they are told
   * when the wait should be back under it, rather than given a ticket for an hour. Null when a
   * newcomer would be admitted or given a ticket.
   */
  private fullFor(now: number): Refusal | null {
    if (this.line.size === 0 && this.freeLeases > 0) return null;
    const wait = this.estimate(this.line.size + 1, now);
    const limit = this.limits.maxWaitMinutes * 60;
    if (wait <= limit) return null;
    return this.refuse(now, {
      code: 'court-full',
      retryAfterSeconds: Math.max(FULL_RETRY_MIN_SECONDS, Math.ceil((wait - limit) / 60) * 60),
    });
  }

  /** A visitor asks for a call: admitted, placed in line, or refused with a reason. */
  request(visitor: Visitor, now: number): Decision {
    const totals = this.totals(utcDay(now));
    totals.starts += 1;
    // A full court refuses before the start is recorded: a visitor turned away keeps their starts.
    const refusal = this.limitFor(visitor, now) ?? this.fullFor(now);
    if (refusal) return refusal;
    this.ledger.recordStart(windowKeys(visitor), visitor.key, now, utcDay(now));
    // An idle court has no sweep: starts prune what has expired, once a minute at most.
    if (now - this.prunedAt > 60_000) this.prune(now);
    if (this.line.size === 0 && this.freeLeases > 0) return this.admit(visitor, now, now);
    totals.waited += 1;
    const retryAfterSeconds = this.retryAfterFor(this.line.size + 1);
    const ticket = this.line.add({
      id: this.newId(),
      visitor: visitor.key,
      networks: visitor.networks,
      issuedAt: now,
      deadline: now + (retryAfterSeconds + this.limits.checkInGraceSeconds) * 1000,
      notBefore: now + retryAfterSeconds * 500,
      dueAt: now + retryAfterSeconds * 1000 + LIVE_SLACK_MS,
      hiddenClaimed: false,
    });
    return this.place(ticket, now, false);
  }

  /** A ticket checks in: its place kept, or its turn come, or it is gone. */
  checkIn(ticketId: string, hidden: boolean, now: number): Decision {
    const ticket = this.line.get(ticketId);
    if (!ticket) return { kind: 'refuse', code: 'ticket-gone' };
    if (now < ticket.notBefore) {
      return {
        kind: 'refuse',
        code: 'rate-limited',
        retryAfterSeconds: Math.max(1, Math.ceil((ticket.notBefore - now) / 1000)),
      };
    }
    if (this.spentForToday(now)) {
      // Nobody in line can be admitted today, whatever the calls under way cost: say so now
      // rather than at each ticket's turn.
      this.line.remove(ticket.id);
      return this.closed(now);
    }
    // A free place goes to the first live tickets: those ahead that fell silent do not hold it.
    const free = this.freeLeases;
    if (free > 0 && this.line.liveAhead(ticket, now, free) < free) {
      this.line.remove(ticket.id);
      if (!this.budgetAllows(now)) return this.closed(now);
      return this.admit({ key: ticket.visitor, networks: ticket.networks }, now, ticket.issuedAt);
    }
    return this.place(ticket, now, hidden);
  }

  leave(ticketId: string): boolean {
    return this.line.remove(ticketId) !== undefined;
  }

  private place(ticket: Ticket, now: number, hidden: boolean): Place {
    const position = this.line.position(ticket);
    const retryAfterSeconds = this.retryAfterFor(position);
    const grace = hidden && !ticket.hiddenClaimed ? this.hiddenGrace(position) : null;
    if (grace !== null) ticket.hiddenClaimed = true;
    const checkInBySeconds = retryAfterSeconds + (grace ?? this.limits.checkInGraceSeconds);
    ticket.deadline = now + checkInBySeconds * 1000;
    // Half the asked-for wait: clocks and timers drift, and a page coming back into view
    // checks in at once.
    ticket.notBefore = now + retryAfterSeconds * 500;
    ticket.dueAt = now + retryAfterSeconds * 1000 + LIVE_SLACK_MS;
    return {
      kind: 'wait',
      ticket,
      position,
      estimatedWaitSeconds: this.estimate(position, now),
      retryAfterSeconds,
      checkInBySeconds,
    };
  }

  private admit(visitor: Visitor, now: number, since: number): Admission {
    const day = utcDay(now);
    const lease: Lease = {
      id: this.newId(),
      callId: null,
      visitor: visitor.key,
      networks: visitor.networks,
      day,
      startedAt: now,
      reservedUsd: this.worstCaseUsd,
      lastProbeAt: now,
    };
    this.leases.set(lease.id, lease);
    const totals = this.totals(day);
    totals.reservedUsd = cents(totals.reservedUsd + lease.reservedUsd);
    this.ledger.addUsd(visitor.key, day, lease.reservedUsd);
    return { kind: 'admit', lease, waitedSeconds: Math.round((now - since) / 1000) };
  }

  /** The provider created the admitted call. */
  attachCall(leaseId: string, callId: string): void {
    const lease = this.leases.get(leaseId);
    if (!lease) return;
    lease.callId = callId;
    this.calls.set(callId, { day: lease.day, rated: false, settled: false, released: false });
    this.changedCalls.add(callId);
    this.totals(lease.day).calls += 1;
  }

  /** No answer from the provider: the call may exist, so its place and worst case stay held. */
  markUnknown(leaseId: string, now: number): void {
    const lease = this.leases.get(leaseId);
    if (!lease) return;
    lease.unknown = true;
    lease.lastProbeAt = now;
    const totals = this.totals(lease.day);
    totals.failures['provider-no-answer'] = (totals.failures['provider-no-answer'] ?? 0) + 1;
  }

  /** Leases whose call may exist without the gate knowing its id, due to be looked for. */
  unknownLeasesDue(now: number): Lease[] {
    return [...this.leases.values()].filter(
      (lease) => lease.unknown && now - lease.lastProbeAt >= PROBE_EVERY_SECONDS * 1000,
    );
  }

  /** A call found by its lease's tag (a server message or a lookup): it is that lease's call. */
  private claim(leaseId: string | undefined, callId: string): void {
    if (!leaseId || this.calls.has(callId)) return;
    const lease = this.leases.get(leaseId);
    if (!lease || lease.callId) return;
    delete lease.unknown;
    this.attachCall(leaseId, callId);
  }

  /** A lookup found the call of an unknown lease, or found it absent. */
  found(
    leaseId: string,
    call: { id: string; ended: boolean; costUsd: number | null } | null,
    now: number,
  ): void {
    const lease = this.leases.get(leaseId);
    if (!lease) return;
    lease.lastProbeAt = now;
    if (!call) return;
    this.claim(leaseId, call.id);
    this.probed(call.id, call.ended, call.costUsd, now);
  }

  /** A place held past every limit with no call known: charged its worst case, never less. */
  private expireUnattached(lease: Lease): void {
    this.leases.delete(lease.id);
    const totals = this.totals(lease.day);
    totals.reservedUsd = cents(Math.max(0, totals.reservedUsd - lease.reservedUsd));
    totals.spentUsd = cents(totals.spentUsd + lease.reservedUsd);
  }

  /** The provider did not create the call: its place and reservation go back. */
  abandon(leaseId: string): void {
    const lease = this.leases.get(leaseId);
    if (!lease) return;
    this.leases.delete(leaseId);
    const totals = this.totals(lease.day);
    totals.reservedUsd = cents(Math.max(0, totals.reservedUsd - lease.reservedUsd));
    this.ledger.addUsd(lease.visitor, lease.day, -lease.reservedUsd);
  }

  private leaseOfCall(callId: string): Lease | undefined {
    for (const lease of this.leases.values()) if (lease.callId === callId) return lease;
    return undefined;
  }

  /** Frees the call's place (its reservation stays until its cost is known). */
  private release(callId: string, now: number): boolean {
    const lease = this.leaseOfCall(callId);
    const call = this.calls.get(callId);
    if (!lease || !call || call.released) return false;
    this.leases.delete(lease.id);
    call.released = true;
    this.changedCalls.add(callId);
    const seconds = Math.max(1, (now - lease.startedAt) / 1000);
    // A running figure of how long calls last, for the line's estimates.
    this.typicalCallSeconds = Math.round(this.typicalCallSeconds * 0.8 + seconds * 0.2);
    if (!call.settled) this.pending.set(callId, lease);
    return true;
  }

  /** Settles a call's cost against its day: the reservation goes, the real cost stays. */
  private settle(callId: string, costUsd: number | null, minutes: number | null): boolean {
    const call = this.calls.get(callId);
    if (!call || call.settled) return false;
    const lease = this.pending.get(callId) ?? this.leaseOfCall(callId);
    call.settled = true;
    this.changedCalls.add(callId);
    this.pending.delete(callId);
    const totals = this.totals(call.day);
    const reserved = lease?.reservedUsd ?? this.worstCaseUsd;
    totals.reservedUsd = cents(Math.max(0, totals.reservedUsd - reserved));
    // No cost reported: the worst case is what the day is charged, never less.
    const charged = costUsd ?? reserved;
    totals.spentUsd = cents(totals.spentUsd + charged);
    if (lease) this.ledger.addUsd(lease.visitor, call.day, charged - reserved);
    if (minutes !== null) totals.minutes = cents(totals.minutes + minutes);
    return true;
  }

  /** A server message from the provider; true when it changed anything. */
  providerEvent(
    event: {
      type: string;
      status?: string;
      callId: string;
      cost?: number;
      endedReason?: string;
      durationSeconds?: number;
      /** Numbers the Worker pulled into range, counted with the day's failures. */
      outliers?: string[];
      /** The lease the call was tagged with when it was created. */
      leaseId?: string;
    },
    now: number,
  ): boolean {
    this.claim(event.leaseId, event.callId);
    if (!this.calls.has(event.callId)) return false;
    if (event.type === 'status-update' && event.status === 'ended') {
      return this.release(event.callId, now);
    }
    if (event.type === 'end-of-call-report') {
      const released = this.release(event.callId, now);
      const minutes =
        event.durationSeconds === undefined ? null : Math.max(0, event.durationSeconds) / 60;
      const settled = this.settle(event.callId, event.cost ?? null, minutes);
      if (settled) {
        const totals = this.totals(this.calls.get(event.callId)?.day ?? utcDay(now));
        const failures = [...(event.outliers ?? [])];
        if (event.endedReason && !NORMAL_ENDINGS.has(event.endedReason)) {
          failures.push(reasonKey(event.endedReason));
        }
        for (const key of failures) totals.failures[key] = (totals.failures[key] ?? 0) + 1;
      }
      return released || settled;
    }
    return false;
  }

  /** What the provider said when the backstop asked about a call. */
  probed(callId: string, ended: boolean, costUsd: number | null, now: number): void {
    const lease = this.leaseOfCall(callId);
    if (lease) lease.lastProbeAt = now;
    if (!ended) return;
    this.release(callId, now);
    if (costUsd !== null) this.settle(callId, costUsd, null);
  }

  /**
   * The backstop, run by the alarm: drops tickets that stopped checking in, frees places held
   * past the maximum duration plus the grace, settles at the worst case what the provider never
   * reported, and names the calls worth asking the provider about.
   */
  sweep(now: number): { dropped: number; expired: number; probe: string[] } {
    let dropped = 0;
    for (const ticket of [...this.line.values()]) {
      if (ticket.deadline < now) {
        this.line.remove(ticket.id);
        dropped += 1;
      }
    }
    let expired = 0;
    const probe: string[] = [];
    const limitMs = (this.limits.maxCallSeconds + this.limits.graceSeconds) * 1000;
    for (const lease of [...this.leases.values()]) {
      const age = now - lease.startedAt;
      if (age > limitMs) {
        if (lease.callId) {
          this.release(lease.callId, now);
          this.settle(lease.callId, null, null);
        } else {
          this.expireUnattached(lease);
        }
        expired += 1;
      } else if (
        lease.callId &&
        age > PROBE_AFTER_SECONDS * 1000 &&
        now - lease.lastProbeAt >= PROBE_EVERY_SECONDS * 1000
      ) {
        probe.push(lease.callId);
      }
    }
    // A released call whose report never came is charged its worst case after the grace.
    for (const [callId, lease] of [...this.pending.entries()]) {
      if (now - lease.startedAt > limitMs) this.settle(callId, null, null);
    }
    // Records of calls from before yesterday: nobody rates them, and nothing is owed on them.
    const yesterday = utcDay(now - 86_400_000);
    for (const [callId, call] of [...this.calls.entries()]) {
      if (call.day < yesterday && !this.pending.has(callId) && !this.leaseOfCall(callId)) {
        this.calls.delete(callId);
        this.changedCalls.add(callId);
      }
    }
    this.prune(now);
    return { dropped, expired, probe };
  }

  /**
   * A hidden page's grace: its timers may be throttled, so it is given longer, once. Near the
   * front, where its turn may come any moment, a quarter of that (at least the visible grace).
   */
  private hiddenGrace(position: number): number {
    const { hiddenCheckInGraceSeconds: full, checkInGraceSeconds: visible } = this.limits;
    if (position > this.limits.maxConcurrent) return full;
    return Math.max(visible, Math.round(full / 4));
  }

  /** Forgets start windows that are over and visitor days before yesterday. */
  private prune(now: number): void {
    this.prunedAt = now;
    this.ledger.prune(now - this.limits.visitorWindowSeconds * 1000, utcDay(now - 86_400_000));
  }

  /** How long the visitor at `position` can expect to wait, in seconds (rounded to 5). */
  estimate(position: number, now: number): number {
    const typical = this.typicalCallSeconds;
    const slots = this.limits.maxConcurrent;
    const remaining = [...this.leases.values()]
      .map((lease) => Math.max(5, typical - (now - lease.startedAt) / 1000))
      .sort((a, b) => a - b);
    while (remaining.length < slots) remaining.unshift(0);
    const index = (position - 1) % slots;
    const rounds = Math.floor((position - 1) / slots);
    const seconds = (remaining[index] ?? typical) + rounds * typical;
    return Math.max(5, Math.round(seconds / 5) * 5);
  }

  /**
   * How soon a place checks in: every second or two near the front, slower further back (at
   * most {@link MAX_CHECK_IN_SECONDS}), so 10,000 waiters ask about 600 times a second in all.
   */
  retryAfterFor(position: number): number {
    if (position <= this.freeLeases + 1) return 1;
    return Math.min(MAX_CHECK_IN_SECONDS, 2 + Math.floor(position / 50));
  }

  /** Records a rating of a call that has ended and was not rated yet. */
  rate(callId: string, score: Score, comment: boolean): 'ok' | 'not-ratable' {
    const call = this.calls.get(callId);
    if (!call || call.rated || !call.released) return 'not-ratable';
    call.rated = true;
    this.changedCalls.add(callId);
    const totals = this.totals(call.day);
    totals.ratings[score] += 1;
    if (comment) totals.ratings.comments += 1;
    return 'ok';
  }

  report(now: number, days: number): DayTotals[] {
    const out: DayTotals[] = [];
    for (let i = 0; i < days; i += 1) {
      const day = utcDay(now - i * 86_400_000);
      const totals = this.days.get(day);
      if (totals) out.push(structuredClone(totals));
    }
    return out;
  }
}
