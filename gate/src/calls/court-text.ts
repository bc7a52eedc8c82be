/**
 * Text's share of the day's one budget, as the court keeps it. The court is not asked per reply:
 * each text desk draws a grant (a slice of the budget, held as reserved) and replies are reserved
 * and settled against it at the desk. A desk tops its grant up when it runs low and settles it
 * (what its replies really cost) when it falls idle or the grant grows old. A grant not settled
 * in time (a desk evicted, its storage lost) is charged in full: money is never spent unmetered.
 * Text never commits more than its share (`GATE_TEXT_SHARE`): the rest of the day is voice's.
 */
import type { CourtLimits } from '../floor/court-limits';
import { cents, type DayBook } from './court-money';
import { backAt, releasedUsd } from './court-pace';
import { nextUtcMidnight, secondsToNextUtcDay, secondsUntil, utcDay } from '../floor/day';

/** The holder of the grants quote cards' judgements draw. */
export const JUDGE_HOLDER = 'card-judge';
/** A grant no desk has settled or topped up for this long is charged in full. */
export const GRANT_EXPIRY_MS = 10 * 60_000;
/** A grant never takes more than this share of what is left of the day's budget. */
const GRANT_SHARE = 1 / 8;

export interface Grant {
  id: string;
  holder: string;
  day: string;
  usd: number;
  drawnAt: number;
}

/**
 * A draw refused: the day is spent (`closed`, until UTC midnight), what is spent reaches the pace
 * (`resting`, until the part of the day whose release covers the reply), or only reservations
 * stand in the way (`held`: calls under way and grants may cost less; asked again after
 * `retryAfterSeconds`, when one of them lifts at the latest).
 */
export type Draw =
  | { ok: true; grantId: string; usd: number }
  | { ok: false; why: 'closed' | 'resting'; reopensAt: string; retryAfterSeconds: number }
  | { ok: false; why: 'held'; retryAfterSeconds: number };

/** What the text book reads of the court's limits: the budget, text's share and the pace. */
type TextMoney = Pick<
  CourtLimits,
  'dailyBudgetUsd' | 'textShare' | 'paceReleases' | 'paceBurstShares'
>;

/**
 * What a desk counted of its text: replies settled (`turns`), chats started, and of the replies
 * those answered from the record of openings (a desk from before openings sends none).
 */
export interface TextCounts {
  turns: number;
  chats: number;
  fromRecord?: number;
}

export interface TextBookSnapshot {
  grants: Grant[];
  /** The UTC day the provider refused to bill chats on (402): text is closed until it ends. */
  closedDay: string | null;
}

export class TextBook {
  private readonly grants = new Map<string, Grant>();
  private closedDay: string | null;

  constructor(
    private readonly days: DayBook,
    /** The day's budget, text's share of it (`GATE_TEXT_SHARE`) and the pace it is released at. */
    private readonly limits: () => TextMoney,
    private readonly newId: () => string,
    /** When the soonest call under way reaches its longest (ms), or null with none. */
    private readonly callsLiftAt: () => number | null,
    snapshot?: TextBookSnapshot,
  ) {
    for (const grant of snapshot?.grants ?? []) this.grants.set(grant.id, grant);
    this.closedDay = snapshot?.closedDay ?? null;
  }

  stored(): TextBookSnapshot {
    return { grants: [...this.grants.values()], closedDay: this.closedDay };
  }

  get open(): number {
    return this.grants.size;
  }

  /**
   * A desk asks for `want` USD (at least `need`: one reply's worst case) of today's budget, added
   * to its grant `grantId` when that is still open and of today. `grantSpentUsd`: what the replies
   * settled against that grant cost so far, which the court learns only when the grant is settled.
   * It counts as spent when the draw is refused: a desk whose own grant spent what was left hears
   * that the day (or text's share) is spent, not that a reservation holds it.
   */
  draw(
    holder: string,
    grantId: string | null,
    need: number,
    want: number,
    now: number,
    grantSpentUsd = 0,
  ): Draw {
    const day = utcDay(now);
    const closed = (): Draw => ({
      ok: false,
      why: 'closed',
      reopensAt: new Date(nextUtcMidnight(now)).toISOString(),
      retryAfterSeconds: secondsToNextUtcDay(now),
    });
    if (this.closedDay === day) return closed();
    const limits = this.limits();
    const budget = limits.dailyBudgetUsd;
    const released = releasedUsd(limits, now);
    const totals = this.days.totals(day);
    const textSpent = totals.text.spentUsd;
    const existing = grantId ? this.grants.get(grantId) : undefined;
    const own = existing && existing.holder === holder && existing.day === day ? existing : null;
    // What text may still commit: what the pace has released beside voice's calls, and text's
    // own share of that.
    const left = Math.min(
      released - this.days.committedUsd(now),
      released * limits.textShare - textSpent - this.reservedOn(day),
    );
    if (left + 1e-9 < need) {
      // What is spent: what the book holds, and what the asking desk's own grant has spent
      // (never more than the grant holds).
      const ownSpent = own ? Math.min(own.usd, Math.max(0, grantSpentUsd)) : 0;
      const spent = totals.spentUsd + ownSpent;
      const textSpentAll = textSpent + ownSpent;
      // Spent alone fills the day (or text's share of it): closed until midnight.
      const room = Math.min(budget - spent, budget * limits.textShare - textSpentAll);
      if (room + 1e-9 < need) return closed();
      // Spent alone reaches the pace: resting until the release that covers one more reply.
      const target = Math.max(spent + need, (textSpentAll + need) / limits.textShare);
      const back = backAt(limits, target, now);
      if (back !== null) {
        return {
          ok: false,
          why: 'resting',
          reopensAt: new Date(back).toISOString(),
          retryAfterSeconds: secondsUntil(back, now),
        };
      }
      return this.held(now);
    }
    const usd = cents(Math.max(need, Math.min(want, left * GRANT_SHARE)));
    const grant = own ?? { id: this.newId(), holder, day, usd: 0, drawnAt: now };
    grant.usd = cents(grant.usd + usd);
    grant.drawnAt = now;
    this.grants.set(grant.id, grant);
    this.days.reserve(day, usd);
    return { ok: true, grantId: grant.id, usd };
  }

  /** What the grants of `day` hold. */
  private reservedOn(day: string): number {
    let usd = 0;
    for (const grant of this.grants.values()) if (grant.day === day) usd += grant.usd;
    return usd;
  }

  /** Only reservations hold the budget: asked again once the soonest one lifts, at the latest. */
  private held(now: number): Draw {
    const ends = [...this.grants.values()].map((grant) => grant.drawnAt + GRANT_EXPIRY_MS);
    const call = this.callsLiftAt();
    if (call !== null) ends.push(call);
    const soonest = Math.min(...ends, now + GRANT_EXPIRY_MS);
    return {
      ok: false,
      why: 'held',
      retryAfterSeconds: secondsUntil(soonest, now),
    };
  }

  /**
   * A desk settles its grant: `spentUsd` is what its replies cost (the provider's figures, or
   * their worst case where none could be read). False when the grant is not open (settled, or
   * charged in full after it expired).
   */
  settle(
    grantId: string,
    holder: string,
    spentUsd: number,
    counts: TextCounts,
    now: number,
  ): boolean {
    const grant = this.grants.get(grantId);
    if (!grant || grant.holder !== holder) return false;
    this.grants.delete(grantId);
    const spent = cents(Math.max(0, spentUsd));
    this.days.release(grant.day, grant.usd, spent, now);
    const totals = this.days.totals(grant.day);
    totals.text.spentUsd = cents(totals.text.spentUsd + spent);
    this.count(grant.day, counts);
    return true;
  }

  /**
   * What a desk counted with no grant left to settle it with (chats started, replies answered
   * from the record of openings, which hold none of the budget), added to the day it is told.
   */
  count(day: string, counts: TextCounts): void {
    const { text } = this.days.totals(day);
    text.turns += Math.max(0, counts.turns);
    text.chats += Math.max(0, counts.chats);
    text.fromRecord += Math.max(0, counts.fromRecord ?? 0);
  }

  /**
   * A card's judgement settled (the judge is a chat message, not a reply to a visitor: its cost
   * is part of the day's spend, not text's), and a judgement that gave no verdict counted among
   * the day's failures under `failure`.
   */
  judged(
    grantId: string | null,
    holder: string,
    spentUsd: number,
    failure: string | null,
    now: number,
  ) {
    const grant = grantId ? this.grants.get(grantId) : undefined;
    if (grant && grant.holder === holder) {
      this.grants.delete(grant.id);
      this.days.release(grant.day, grant.usd, cents(Math.max(0, spentUsd)), now);
    }
    if (failure) {
      const totals = this.days.totals(utcDay(now));
      totals.failures[failure] = (totals.failures[failure] ?? 0) + 1;
    }
  }

  /** The provider will not bill chats today: text is closed until the next UTC day. */
  close(now: number): void {
    this.closedDay = utcDay(now);
  }

  /** Grants left unsettled past their expiry are charged in full. */
  sweep(now: number): number {
    let expired = 0;
    for (const grant of [...this.grants.values()]) {
      if (now - grant.drawnAt < GRANT_EXPIRY_MS) continue;
      this.grants.delete(grant.id);
      this.days.release(grant.day, grant.usd, grant.usd, now);
      const totals = this.days.totals(grant.day);
      totals.text.spentUsd = cents(totals.text.spentUsd + grant.usd);
      expired += 1;
    }
    return expired;
  }

  /** Text's reserved money today (its open grants), for the report. */
  reservedUsd(day: string): number {
    let sum = 0;
    for (const grant of this.grants.values()) if (grant.day === day) sum += grant.usd;
    return cents(sum);
  }
}
