/**
 * The leases: the places held for admitted calls, the calls they became, and what each call
 * owes. A lease is taken on admission with its worst case reserved; the provider's messages (or
 * the backstop's lookups) attach its call, free its place and settle its cost against its day.
 */
import {
  JOIN_BACKSTOP_SECONDS,
  JOIN_RECHECK_SECONDS,
  PROBE_AFTER_SECONDS,
  PROBE_EVERY_SECONDS,
} from '../floor/court-limits';
import { failureKeys, type DayBook } from './court-money';
import { DAY_MS, utcDay } from '../floor/day';
import type { StartLedger } from './visitor-limits';

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
  /**
   * The provider said the call is in progress (its status-update, or a lookup): the visitor
   * joined. A call not joined is freed by the join backstop, or at once when its page gives it
   * back.
   */
  joined?: boolean;
}

/** The provider's call statuses that mean the visitor joined (the call runs). */
const JOINED_STATUSES = new Set(['in-progress', 'forwarding']);
/** The provider's call statuses that mean the call has not started: nobody joined yet. */
const UNJOINED_STATUSES = new Set(['scheduled', 'queued', 'ringing']);

/** A call the gate admitted: whether it was released, settled and rated. */
export interface CallRecord {
  day: string;
  rated: boolean;
  settled: boolean;
  released: boolean;
}

export type Score = 'delighted' | 'content' | 'displeased';

/** A server message from the provider, as the Worker read it. */
export interface CallEvent {
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
}

/** What the leases keep across restarts. */
export interface StoredLeases {
  leases: Lease[];
  /** Calls admitted in the last two days: whether each was rated and settled. */
  calls: [string, CallRecord][];
  /** Calls that ended but whose cost is not known yet, with what they reserved. */
  pending: [string, Lease][];
  typicalCallSeconds: number;
}

export class Leases {
  private readonly held = new Map<string, Lease>();
  private readonly calls = new Map<string, CallRecord>();
  /** Calls changed since the last {@link takeChangedCalls}. */
  private readonly changedCalls = new Set<string>();
  /** Released calls whose cost is not known yet, with the reservation they hold. */
  private readonly pending = new Map<string, Lease>();
  /** A running figure of how long calls last, for the line's estimates. */
  typicalCallSeconds: number;

  constructor(
    private readonly days: DayBook,
    private readonly ledger: Pick<StartLedger, 'addUsd'>,
    /** What a call whose lease is unknown is charged when its report never comes. */
    private readonly worstCaseUsd: () => number,
    typicalCallSeconds: number,
    stored?: Omit<StoredLeases, 'typicalCallSeconds'> & { typicalCallSeconds?: number },
  ) {
    this.typicalCallSeconds = stored?.typicalCallSeconds ?? typicalCallSeconds;
    for (const lease of stored?.leases ?? []) {
      this.held.set(lease.id, { ...lease, networks: lease.networks ?? [] });
    }
    for (const [id, call] of stored?.calls ?? []) this.calls.set(id, call);
    for (const [id, lease] of stored?.pending ?? []) this.pending.set(id, lease);
  }

  /** Places held. */
  get size(): number {
    return this.held.size;
  }

  /** Calls that ended with their cost not known yet (the sweep settles them at the worst case). */
  get unsettled(): number {
    return this.pending.size;
  }

  values(): IterableIterator<Lease> {
    return this.held.values();
  }

  /** When the soonest place held reaches `longestMs` of its call (ms), or null with none held. */
  soonestEnd(longestMs: number): number | null {
    let soonest: number | null = null;
    for (const lease of this.held.values()) {
      soonest = Math.min(soonest ?? Infinity, lease.startedAt + longestMs);
    }
    return soonest;
  }

  /** Holds a place for an admitted call, its worst case reserved against its day. */
  take(lease: Lease): void {
    this.held.set(lease.id, lease);
    this.days.reserve(lease.day, lease.reservedUsd);
    this.ledger.addUsd(lease.visitor, lease.day, lease.reservedUsd);
  }

  /** The calls changed since last asked, with their new records (null: forget it). */
  takeChangedCalls(): [string, CallRecord | null][] {
    const out: [string, CallRecord | null][] = [];
    for (const id of this.changedCalls) out.push([id, this.calls.get(id) ?? null]);
    this.changedCalls.clear();
    return out;
  }

  stored(now: number): StoredLeases {
    const yesterday = utcDay(now - DAY_MS);
    return {
      leases: [...this.held.values()],
      calls: [...this.calls.entries()].filter(([, call]) => call.day >= yesterday),
      pending: [...this.pending.entries()],
      typicalCallSeconds: this.typicalCallSeconds,
    };
  }

  /** The provider created the admitted call. */
  attachCall(leaseId: string, callId: string): void {
    const lease = this.held.get(leaseId);
    if (!lease) return;
    lease.callId = callId;
    this.calls.set(callId, { day: lease.day, rated: false, settled: false, released: false });
    this.changedCalls.add(callId);
    this.days.totals(lease.day).calls += 1;
  }

  /** No answer from the provider: the call may exist, so its place and worst case stay held. */
  markUnknown(leaseId: string, now: number): void {
    const lease = this.held.get(leaseId);
    if (!lease) return;
    lease.unknown = true;
    lease.lastProbeAt = now;
    const totals = this.days.totals(lease.day);
    totals.failures['provider-no-answer'] = (totals.failures['provider-no-answer'] ?? 0) + 1;
  }

  /** Leases whose call may exist without the gate knowing its id, due to be looked for. */
  unknownDue(now: number): Lease[] {
    return [...this.held.values()].filter(
      (lease) => lease.unknown && now - lease.lastProbeAt >= PROBE_EVERY_SECONDS * 1000,
    );
  }

  /** A call found by its lease's tag (a server message or a lookup): it is that lease's call. */
  private claim(leaseId: string | undefined, callId: string): void {
    if (!leaseId || this.calls.has(callId)) return;
    const lease = this.held.get(leaseId);
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
    const lease = this.held.get(leaseId);
    if (!lease) return;
    lease.lastProbeAt = now;
    if (!call) return;
    this.claim(leaseId, call.id);
    this.probed(call.id, call.ended, call.costUsd, now);
  }

  /** The provider did not create the call: its place and reservation go back. */
  abandon(leaseId: string, now: number): void {
    const lease = this.held.get(leaseId);
    if (!lease) return;
    this.held.delete(leaseId);
    this.days.release(lease.day, lease.reservedUsd, 0, now);
    this.ledger.addUsd(lease.visitor, lease.day, -lease.reservedUsd);
  }

  private leaseOfCall(callId: string): Lease | undefined {
    for (const lease of this.held.values()) if (lease.callId === callId) return lease;
    return undefined;
  }

  /** Frees the call's place (its reservation stays until its cost is known). */
  private release(callId: string, now: number): boolean {
    const lease = this.leaseOfCall(callId);
    const call = this.calls.get(callId);
    if (!lease || !call || call.released) return false;
    this.held.delete(lease.id);
    call.released = true;
    this.changedCalls.add(callId);
    const seconds = Math.max(1, (now - lease.startedAt) / 1000);
    this.typicalCallSeconds = Math.round(this.typicalCallSeconds * 0.8 + seconds * 0.2);
    if (!call.settled) this.pending.set(callId, lease);
    return true;
  }

  /** Settles a call's cost against its day: the reservation goes, the real cost stays. */
  private settle(
    callId: string,
    costUsd: number | null,
    minutes: number | null,
    now: number,
  ): boolean {
    const call = this.calls.get(callId);
    if (!call || call.settled) return false;
    const lease = this.pending.get(callId) ?? this.leaseOfCall(callId);
    call.settled = true;
    this.changedCalls.add(callId);
    this.pending.delete(callId);
    const reserved = lease?.reservedUsd ?? this.worstCaseUsd();
    // No cost reported: the worst case is what the day is charged, never less.
    const charged = costUsd ?? reserved;
    this.days.release(call.day, reserved, charged, now);
    if (lease) this.ledger.addUsd(lease.visitor, call.day, charged - reserved);
    if (minutes !== null) this.days.addMinutes(call.day, minutes);
    return true;
  }

  /**
   * The page gives back a call it never joined (its microphone failed, or the visitor stopped):
   * the place is free at once; the reservation stays until the call's cost is known. A call the
   * provider said is in progress keeps its place (its end frees it). True when a place was freed.
   */
  giveBack(callId: string, now: number): boolean {
    const lease = this.leaseOfCall(callId);
    if (!lease || lease.joined) return false;
    return this.release(callId, now);
  }

  /** A server message from the provider; true when it changed anything. */
  providerEvent(event: CallEvent, now: number): boolean {
    this.claim(event.leaseId, event.callId);
    const call = this.calls.get(event.callId);
    if (!call) return false;
    if (event.type === 'status-update' && event.status === 'ended') {
      return this.release(event.callId, now);
    }
    if (event.type === 'status-update' && JOINED_STATUSES.has(event.status ?? '')) {
      const lease = this.leaseOfCall(event.callId);
      if (!lease || lease.joined) return false;
      lease.joined = true;
      return true;
    }
    if (event.type !== 'end-of-call-report') return false;
    const released = this.release(event.callId, now);
    const minutes =
      event.durationSeconds === undefined ? null : Math.max(0, event.durationSeconds) / 60;
    const settled = this.settle(event.callId, event.cost ?? null, minutes, now);
    if (settled) {
      const totals = this.days.totals(call.day);
      for (const key of failureKeys(event.endedReason, event.outliers)) {
        totals.failures[key] = (totals.failures[key] ?? 0) + 1;
      }
    }
    return released || settled;
  }

  /**
   * What the provider said when the backstop asked about a call. `status` is the call's status
   * as the provider answered it: in progress marks it joined; one that has not started, past the
   * join backstop, frees its place (nobody joined it, and the provider ends it itself).
   */
  probed(
    callId: string,
    ended: boolean,
    costUsd: number | null,
    now: number,
    status: string | null = null,
  ): void {
    const lease = this.leaseOfCall(callId);
    if (lease) {
      lease.lastProbeAt = now;
      if (JOINED_STATUSES.has(status ?? '')) lease.joined = true;
      else if (
        !ended &&
        !lease.joined &&
        UNJOINED_STATUSES.has(status ?? '') &&
        now - lease.startedAt > JOIN_BACKSTOP_SECONDS * 1000
      ) {
        this.release(callId, now);
      }
    }
    if (!ended) return;
    this.release(callId, now);
    if (costUsd !== null) this.settle(callId, costUsd, null, now);
  }

  /**
   * The backstop: frees places held past `limitMs` (a call's maximum plus the grace), settles at
   * the worst case what the provider never reported, forgets calls from before yesterday, and
   * names the calls worth asking the provider about: those not known to have joined, seconds
   * after their admission (the join backstop), and those quiet for a minute.
   */
  sweep(now: number, limitMs: number): { expired: number; probe: string[] } {
    let expired = 0;
    const probe: string[] = [];
    for (const lease of [...this.held.values()]) {
      const age = now - lease.startedAt;
      if (age > limitMs) {
        if (lease.callId) {
          this.release(lease.callId, now);
          this.settle(lease.callId, null, null, now);
        } else {
          // No call known: charged its worst case, never less.
          this.held.delete(lease.id);
          this.days.release(lease.day, lease.reservedUsd, lease.reservedUsd, now);
        }
        expired += 1;
      } else if (lease.callId && !lease.joined && age > JOIN_BACKSTOP_SECONDS * 1000) {
        // The join backstop: a call not known to have joined is looked up in seconds.
        if (
          lease.lastProbeAt - lease.startedAt <= JOIN_BACKSTOP_SECONDS * 1000 ||
          now - lease.lastProbeAt >= JOIN_RECHECK_SECONDS * 1000
        ) {
          probe.push(lease.callId);
        }
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
      if (now - lease.startedAt > limitMs) this.settle(callId, null, null, now);
    }
    // Records of calls from before yesterday: nobody rates them, and nothing is owed on them.
    const yesterday = utcDay(now - DAY_MS);
    for (const [callId, call] of [...this.calls.entries()]) {
      if (call.day < yesterday && !this.pending.has(callId) && !this.leaseOfCall(callId)) {
        this.calls.delete(callId);
        this.changedCalls.add(callId);
      }
    }
    return { expired, probe };
  }

  /** Records a rating of a call that has ended and was not rated yet. */
  rate(callId: string, score: Score, comment: boolean): 'ok' | 'not-ratable' {
    const call = this.calls.get(callId);
    if (!call || call.rated || !call.released) return 'not-ratable';
    call.rated = true;
    this.changedCalls.add(callId);
    const totals = this.days.totals(call.day);
    totals.ratings[score] += 1;
    if (comment) totals.ratings.comments += 1;
    return 'ok';
  }
}
