/**
 * The court's rules, free of any runtime: who is admitted, who waits, and who is refused. Each
 * concern is its own module, testable alone: the leases (court-leases.ts), the line and its pace
 * (line.ts), the visitor limits (visitor-limits.ts) and the money (court-money.ts); this one puts
 * them together. The Durable Object (court.ts) owns one instance, feeds it the clock and the
 * provider's answers, and persists what must survive a restart.
 */
import type { CourtLimits } from '../floor/court-limits';
import { DayBook, worstCaseUsd, type DayTotals } from './court-money';
import { backAt, paceHour, releasedUsd } from './court-pace';
import { DAY_MS, nextUtcMidnight, secondsUntil, utcDay } from '../floor/day';
import { Leases, type CallRecord, type Lease, type StoredLeases } from './court-leases';
import { estimateWait, hiddenGrace, Line, LIVE_SLACK_MS, retryAfterFor, type Ticket } from './line';
import type { ProblemCode } from '../floor/problem';
import { TextBook, type TextBookSnapshot } from './court-text';
import type { Visitor } from '../floor/visitor';
import { visitorRefusal, windowKeys, type StartLedger } from './visitor-limits';

export type { Lease, Score } from './court-leases';

/**
 * How long a place offered to a visitor who is talking by text is held for their tap: the
 * slowest check-in the line asks for, and its grace.
 */
export const OFFER_SECONDS = 30;

/** A visitor told the court is full comes back no sooner than this. */
const FULL_RETRY_MIN_SECONDS = 60;

export interface Refusal {
  kind: 'refuse';
  code: ProblemCode;
  retryAfterSeconds?: number;
  reopensAt?: string;
}

/** A ticket's standing in the line, as the court answers it. */
export interface Place {
  kind: 'wait';
  ticket: Ticket;
  position: number;
  estimatedWaitSeconds: number;
  retryAfterSeconds: number;
  checkInBySeconds: number;
  /** The ticket's turn has come and its place is held for the visitor's tap. */
  offered: boolean;
}

export interface Admission {
  kind: 'admit';
  lease: Lease;
  waitedSeconds: number;
}

export type Decision = Admission | Place | Refusal;

/** What the court keeps across restarts. The line and visitor windows are stored on their own. */
export interface CourtSnapshot extends StoredLeases {
  days: DayTotals[];
  text?: TextBookSnapshot;
}

export class CourtState {
  readonly line = new Line();
  private readonly days: DayBook;
  /**
   * The places and calls: the provider's answers, the backstop's lookups, give-backs and ratings
   * go to them directly (court.ts); the rules here decide who takes a place.
   */
  readonly leases: Leases;
  /** Text's share of the budget: the grants the text desks (and the card judge) drew. */
  readonly text: TextBook;
  private prunedAt = 0;

  constructor(
    readonly limits: CourtLimits,
    private readonly newId: () => string,
    private readonly ledger: StartLedger,
    snapshot?: CourtSnapshot,
  ) {
    this.days = new DayBook(snapshot?.days, (at) => paceHour(limits.paceClock, at));
    this.leases = new Leases(
      this.days,
      ledger,
      () => this.worstCaseUsd,
      Math.min(limits.maxCallSeconds, 90),
      snapshot,
    );
    this.text = new TextBook(
      this.days,
      () => this.limits,
      newId,
      () => this.leases.soonestEnd(this.limits.maxCallSeconds * 1000),
      snapshot?.text,
    );
  }

  /** The calls changed since last asked, with their new records (null: forget it). */
  takeChangedCalls(): [string, CallRecord | null][] {
    return this.leases.takeChangedCalls();
  }

  snapshot(now: number): CourtSnapshot {
    return { ...this.leases.stored(now), days: this.days.kept(now), text: this.text.stored() };
  }

  /** Grants of text not settled yet. */
  get openGrants(): number {
    return this.text.open;
  }

  get activeLeases(): number {
    return this.leases.size;
  }

  /** Calls that ended with their cost not known yet (the sweep settles them at the worst case). */
  get unsettledCalls(): number {
    return this.leases.unsettled;
  }

  get freeLeases(): number {
    return Math.max(0, this.limits.maxConcurrent - this.leases.size - this.line.offered);
  }

  /** The worst a call can cost: its maximum duration at the configured rate. */
  get worstCaseUsd(): number {
    return worstCaseUsd(this.limits);
  }

  /** Spent plus reserved today: what the day's budget is measured against. */
  committedUsd(now: number): number {
    return this.days.committedUsd(now);
  }

  /** One more call's worst case fits what the pace has released of the day's budget so far. */
  private budgetAllows(now: number): boolean {
    return this.days.allowsAnother(now, this.worstCaseUsd, releasedUsd(this.limits, now));
  }

  /**
   * Places a call may take now: free, with the day's budget holding one more worst case. While
   * only what calls and text may still cost holds it, the court is as full: visitors wait in line.
   */
  private openPlaces(now: number): number {
    return this.budgetAllows(now) ? this.freeLeases : 0;
  }

  private refuse(now: number, refusal: Omit<Refusal, 'kind'>): Refusal {
    this.days.refused(refusal.code, now);
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
      retryAfterSeconds: secondsUntil(reopens, now),
    });
  }

  /**
   * What is spent today already reaches the pace: Pepa rests until the part of the day whose
   * release covers one more call. Null while the pace allows one (or the day is spent: closed).
   */
  private resting(now: number): Refusal | null {
    const spent = this.days.totals(utcDay(now)).spentUsd;
    const back = backAt(this.limits, spent + this.worstCaseUsd, now);
    if (back === null) return null;
    return this.refuse(now, {
      code: 'court-resting',
      reopensAt: new Date(back).toISOString(),
      retryAfterSeconds: secondsUntil(back, now),
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
    if (!this.days.spentAllowsAnother(now, this.worstCaseUsd, this.limits.dailyBudgetUsd)) {
      return this.closed(now);
    }
    return this.resting(now);
  }

  /**
   * Before the bot check: a start that would be refused anyway is refused (and counted) without
   * the round trip to siteverify. Null when the start may go on to the bot check.
   */
  precheck(visitor: Visitor, now: number): Refusal | null {
    const refusal = this.limitFor(visitor, now) ?? this.fullFor(now);
    if (refusal) this.days.totals(utcDay(now)).starts += 1;
    return refusal;
  }

  /**
   * The court is full when a newcomer's estimated wait passes the owner's limit: they are told
   * when the wait should be back under it, rather than given a ticket for an hour. Null when a
   * newcomer would be admitted or given a ticket.
   */
  private fullFor(now: number): Refusal | null {
    if (this.line.size === 0 && this.openPlaces(now) > 0) return null;
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
    const totals = this.days.totals(utcDay(now));
    totals.starts += 1;
    // A full court refuses before the start is recorded: a visitor turned away keeps their starts.
    const refusal = this.limitFor(visitor, now) ?? this.fullFor(now);
    if (refusal) return refusal;
    this.ledger.recordStart(windowKeys(visitor), visitor.key, now, utcDay(now));
    // An idle court has no sweep: starts prune what has expired, once a minute at most.
    if (now - this.prunedAt > 60_000) this.prune(now);
    const open = this.openPlaces(now);
    if (this.line.size === 0 && open > 0) return this.admit(visitor, now, now);
    totals.waited += 1;
    const retryAfterSeconds = retryAfterFor(this.line.size + 1, open);
    const ticket = this.line.add({
      id: this.newId(),
      visitor: visitor.key,
      networks: visitor.networks,
      issuedAt: now,
      deadline: now + (retryAfterSeconds + this.limits.checkInGraceSeconds) * 1000,
      notBefore: now + retryAfterSeconds * 500,
      dueAt: now + retryAfterSeconds * 1000 + LIVE_SLACK_MS,
      hiddenClaimed: false,
      offeredUntil: null,
    });
    return this.place(ticket, now, false);
  }

  /**
   * A ticket checks in: its standing kept, or its turn come, or it is gone. With `offer` (the
   * visitor is talking by text), a turn that comes holds the place for them rather than admit
   * them: their next check-in without `offer` (a tap) takes it, within the offer's time.
   */
  checkIn(ticketId: string, hidden: boolean, now: number, offer = false): Decision {
    const ticket = this.line.get(ticketId);
    if (!ticket) return { kind: 'refuse', code: 'ticket-gone' };
    if (ticket.offeredUntil !== null) {
      // A place held past its time is gone, whether or not the sweep has been by yet.
      if (now > ticket.offeredUntil) {
        this.line.remove(ticket.id);
        return { kind: 'refuse', code: 'ticket-gone' };
      }
      if (offer) return this.offered(ticket, now);
      if (!this.budgetAllows(now)) {
        // A tap while reservations hold the budget: the place stays held, from the tap on.
        this.line.offer(ticket, now + OFFER_SECONDS * 1000);
        return this.offered(ticket, now);
      }
      this.line.remove(ticket.id);
      return this.admit({ key: ticket.visitor, networks: ticket.networks }, now, ticket.issuedAt);
    }
    if (now < ticket.notBefore) {
      return {
        kind: 'refuse',
        code: 'rate-limited',
        retryAfterSeconds: secondsUntil(ticket.notBefore, now),
      };
    }
    if (!this.days.spentAllowsAnother(now, this.worstCaseUsd, this.limits.dailyBudgetUsd)) {
      // Nobody in line can be admitted today, whatever the calls under way cost: say so now
      // rather than at each ticket's turn.
      this.line.remove(ticket.id);
      return this.closed(now);
    }
    // What is spent reached the pace: no place opens before the next release, so the ticket is
    // told when Pepa is back rather than kept waiting in a line that cannot move for an hour.
    const resting = this.resting(now);
    if (resting) {
      this.line.remove(ticket.id);
      return resting;
    }
    // An open place goes to the first live tickets: those ahead that fell silent do not hold it.
    const free = this.openPlaces(now);
    if (free > 0 && this.line.liveAhead(ticket, now, free) < free) {
      if (offer) {
        this.line.offer(ticket, now + OFFER_SECONDS * 1000);
        return this.offered(ticket, now);
      }
      this.line.remove(ticket.id);
      return this.admit({ key: ticket.visitor, networks: ticket.networks }, now, ticket.issuedAt);
    }
    return this.place(ticket, now, hidden);
  }

  /** A place held for a ticket: how long it is held, and nothing else asked of it. */
  private offered(ticket: Ticket, now: number): Place {
    const left = secondsUntil(ticket.offeredUntil ?? now, now);
    return {
      kind: 'wait',
      ticket,
      position: this.line.position(ticket),
      estimatedWaitSeconds: 0,
      retryAfterSeconds: left,
      checkInBySeconds: left,
      offered: true,
    };
  }

  leave(ticketId: string): boolean {
    return this.line.remove(ticketId) !== undefined;
  }

  private place(ticket: Ticket, now: number, hidden: boolean): Place {
    const position = this.line.position(ticket);
    const retryAfterSeconds = retryAfterFor(position, this.openPlaces(now));
    const grace = hidden && !ticket.hiddenClaimed ? hiddenGrace(position, this.limits) : null;
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
      offered: false,
    };
  }

  private admit(visitor: Visitor, now: number, since: number): Admission {
    const lease: Lease = {
      id: this.newId(),
      callId: null,
      visitor: visitor.key,
      networks: visitor.networks,
      day: utcDay(now),
      startedAt: now,
      reservedUsd: this.worstCaseUsd,
      lastProbeAt: now,
    };
    this.leases.take(lease);
    return { kind: 'admit', lease, waitedSeconds: Math.round((now - since) / 1000) };
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
    const limitMs = (this.limits.maxCallSeconds + this.limits.graceSeconds) * 1000;
    const { expired, probe } = this.leases.sweep(now, limitMs);
    this.text.sweep(now);
    this.prune(now);
    return { dropped, expired, probe };
  }

  /** Forgets start windows that are over and visitor days before yesterday. */
  private prune(now: number): void {
    this.prunedAt = now;
    this.ledger.prune(now - this.limits.visitorWindowSeconds * 1000, utcDay(now - DAY_MS));
  }

  /** How long the visitor at `position` can expect to wait, in seconds (rounded to 5). */
  estimate(position: number, now: number): number {
    const ages = [...this.leases.values()].map((lease) => (now - lease.startedAt) / 1000);
    return estimateWait(position, ages, this.leases.typicalCallSeconds, this.limits.maxConcurrent);
  }

  /** The days' totals, each with what text's open grants hold of it. */
  report(now: number, days: number): (DayTotals & { textReservedUsd: number })[] {
    return this.days
      .report(now, days)
      .map((day) => ({ ...day, textReservedUsd: this.text.reservedUsd(day.day) }));
  }
}
