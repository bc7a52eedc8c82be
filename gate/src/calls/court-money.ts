/**
 * The money: each UTC day's totals (what was spent and what is reserved, with the day's calls,
 * starts, ratings, refusals and failures), the worst case a call can cost, and the budget's test.
 */
import type { CourtLimits } from '../floor/court-limits';
import { DAY_MS, utcDay } from '../floor/day';
import type { ProblemCode } from '../floor/problem';
import { reasonKey } from '../provider/provider-numbers';

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
  /**
   * Text with Pepa: chats started, replies settled, and what they cost (in spentUsd too); of the
   * replies, those answered from the record of openings Pepa had already answered (no model).
   */
  text: { chats: number; turns: number; spentUsd: number; fromRecord: number };
  /** What was spent in each UTC hour of the day (by when its cost was settled), for the pace. */
  hours: number[];
}

/** How long a day's totals are kept (the owner's report reads at most this far back). */
const KEPT_DAYS = 90;

/** Money to the millionth of a dollar: sums of reservations stay exact enough to compare. */
export const cents = (usd: number): number => Math.round(usd * 1e6) / 1e6;

/** The worst a call can cost: its maximum duration at the configured rate. */
export function worstCaseUsd(limits: Pick<CourtLimits, 'maxCallSeconds' | 'costPerMinuteUsd'>) {
  return cents((limits.maxCallSeconds / 60) * limits.costPerMinuteUsd);
}

/** Ended reasons that are a call ending as it should, not a failure. */
const NORMAL_ENDINGS = new Set([
  'customer-ended-call',
  'assistant-ended-call',
  'assistant-said-end-call-phrase',
  'exceeded-max-duration',
  'silence-timed-out',
  'customer-did-not-give-microphone-permission',
]);

/** What an ended call counts among the day's failures: its outliers, and a reason gone wrong. */
export function failureKeys(endedReason: string | undefined, outliers: readonly string[] = []) {
  const keys = [...outliers];
  if (endedReason && !NORMAL_ENDINGS.has(endedReason)) keys.push(reasonKey(endedReason));
  return keys;
}

function emptyDay(day: string): DayTotals {
  return {
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
    text: { chats: 0, turns: 0, spentUsd: 0, fromRecord: 0 },
    hours: new Array<number>(24).fill(0),
  };
}

/** Each day's totals, and the budget's test against them. */
export class DayBook {
  private readonly days = new Map<string, DayTotals>();

  /**
   * @param hourOf the hour of its day a cost settled at a real moment is counted in: the UTC hour,
   *   or the pace's simulated one (court-pace.ts `paceHour`).
   */
  constructor(
    stored: readonly DayTotals[] = [],
    private readonly hourOf: (at: number) => number = (at) => new Date(at).getUTCHours(),
  ) {
    // Days stored before text was counted have no text totals, before openings no count of them,
    // and before the pace no hours.
    for (const day of stored) {
      const stored = day.text as Partial<DayTotals['text']> | undefined;
      const text = { chats: 0, turns: 0, spentUsd: 0, fromRecord: 0, ...stored };
      this.days.set(day.day, { ...day, text, hours: day.hours ?? new Array<number>(24).fill(0) });
    }
  }

  /** The day's totals, begun at nothing the first time it is asked for. */
  totals(day: string): DayTotals {
    let totals = this.days.get(day);
    if (!totals) {
      totals = emptyDay(day);
      this.days.set(day, totals);
    }
    return totals;
  }

  /** Spent plus reserved today: what the day's budget is measured against. */
  committedUsd(now: number): number {
    const totals = this.totals(utcDay(now));
    return cents(totals.spentUsd + totals.reservedUsd);
  }

  /** One more call's worst case fits today's budget beside what is spent and reserved. */
  allowsAnother(now: number, worstCase: number, budgetUsd: number): boolean {
    return this.committedUsd(now) + worstCase <= budgetUsd + 1e-9;
  }

  /** What is already spent today (reservations aside) leaves room for one more call. */
  spentAllowsAnother(now: number, worstCase: number, budgetUsd: number): boolean {
    return this.totals(utcDay(now)).spentUsd + worstCase <= budgetUsd + 1e-9;
  }

  /** A start refused today, counted under its problem code. */
  refused(code: ProblemCode, now: number): void {
    const totals = this.totals(utcDay(now));
    totals.refusals[code] = (totals.refusals[code] ?? 0) + 1;
  }

  /** Holds `usd` against `day` until the call's cost is known. */
  reserve(day: string, usd: number): void {
    const totals = this.totals(day);
    totals.reservedUsd = cents(totals.reservedUsd + usd);
  }

  /**
   * Lets a reservation go; `chargedUsd` of it (or of the real cost) is spent, counted in the hour
   * it was settled at (`at`; the day's last hour when that is a later day).
   */
  release(day: string, reservedUsd: number, chargedUsd: number, at: number): void {
    const totals = this.totals(day);
    totals.reservedUsd = cents(Math.max(0, totals.reservedUsd - reservedUsd));
    totals.spentUsd = cents(totals.spentUsd + chargedUsd);
    const hour = utcDay(at) === day ? this.hourOf(at) : 23;
    totals.hours[hour] = cents((totals.hours[hour] ?? 0) + chargedUsd);
  }

  /** Call minutes reported for `day`. */
  addMinutes(day: string, minutes: number): void {
    const totals = this.totals(day);
    totals.minutes = cents(totals.minutes + minutes);
  }

  /** The totals of the last `days` days, today first (days with nothing are left out). */
  report(now: number, days: number): DayTotals[] {
    const out: DayTotals[] = [];
    for (let i = 0; i < days; i += 1) {
      const totals = this.days.get(utcDay(now - i * DAY_MS));
      if (totals) out.push(structuredClone(totals));
    }
    return out;
  }

  /** What is stored: the days still reported. */
  kept(now: number): DayTotals[] {
    const first = utcDay(now - KEPT_DAYS * DAY_MS);
    return [...this.days.values()].filter((day) => day.day >= first);
  }
}
