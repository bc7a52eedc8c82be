/**
 * The pace: the day's budget released over the UTC day rather than all at midnight, so a viral
 * first minute cannot spend the day and leave a closed court to everyone who comes after it. The
 * day is cut into `releases` equal parts; the budget's share for a part is released when the part
 * begins, and `burstShares` more shares are released ahead of their time, so a burst can draw on
 * the next part's money. What a part leaves unspent stays released: an hour may spend its own
 * share plus whatever earlier hours left. One release is no pace: the whole budget at midnight.
 *
 * The pace is measured against what is spent and reserved, like the budget itself. When only what
 * is spent stands in the way, Pepa is resting: newcomers and tickets checking in are told when she
 * is back (the part whose release covers one more call or reply), and calls under way go on.
 */
import type { CourtLimits, PaceClock } from '../floor/court-limits';
import { DAY_MS } from '../floor/day';

export type PaceLimits = Pick<
  CourtLimits,
  'dailyBudgetUsd' | 'paceReleases' | 'paceBurstShares' | 'paceClock'
>;

/**
 * What the pace's clock reads at the real moment `at`: the real time, or with a simulated clock
 * (a local simulation's, `GATE_PACE_CLOCK`) the simulated time, which stops at the last moment of
 * the day it starts on.
 */
export function paceTime(clock: PaceClock | undefined, at: number): number {
  if (!clock) return at;
  let real = clock.realStartMs;
  let sim = clock.simStartMs;
  for (const { scale, seconds } of clock.steps) {
    const span = Math.min(Math.max(0, at - real), seconds * 1000);
    sim += span * scale;
    real += span;
    if (at <= real) break;
  }
  return Math.min(sim, dayStart(clock.simStartMs) + DAY_MS - 1);
}

/** The real moment the pace's clock reads `sim` (the first, when it reads it for a while). */
export function realTime(clock: PaceClock | undefined, sim: number): number {
  if (!clock) return sim;
  let real = clock.realStartMs;
  let read = clock.simStartMs;
  for (const { scale, seconds } of clock.steps) {
    const span = Math.min(Math.max(0, sim - read) / scale, seconds * 1000);
    real += span;
    read += span * scale;
    if (sim <= read) break;
  }
  return Math.ceil(real);
}

/** The hour of the day (0 to 23) the pace's clock reads at the real moment `at`. */
export function paceHour(clock: PaceClock | undefined, at: number): number {
  return new Date(paceTime(clock, at)).getUTCHours();
}

function dayStart(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** How long one part of the day is, in milliseconds. */
export function partMs(limits: PaceLimits): number {
  return DAY_MS / limits.paceReleases;
}

/** Which part of its UTC day `at` falls in, from 0 to `paceReleases - 1`. */
export function partOf(limits: PaceLimits, at: number): number {
  const part = Math.floor((at - dayStart(at)) / partMs(limits));
  return Math.min(limits.paceReleases - 1, Math.max(0, part));
}

/** The budget released by the part `part` of the day (it and the burst ahead of it). */
function releasedBy(limits: PaceLimits, part: number): number {
  const shares = part + 1 + limits.paceBurstShares;
  return limits.dailyBudgetUsd * Math.min(1, shares / limits.paceReleases);
}

/** What of the day's budget is released at `at`: what may be spent and reserved by then. */
export function releasedUsd(limits: PaceLimits, at: number): number {
  return releasedBy(limits, partOf(limits, paceTime(limits.paceClock, at)));
}

/**
 * When the day's release first reaches `targetUsd` (what is spent plus one more call or reply):
 * the real moment that part begins, in epoch milliseconds. Null when it is released already, or when not
 * even the whole day's budget reaches it (the court is closed, not resting).
 */
export function backAt(limits: PaceLimits, targetUsd: number, real: number): number | null {
  const at = paceTime(limits.paceClock, real);
  if (releasedBy(limits, partOf(limits, at)) + 1e-9 >= targetUsd) return null;
  if (limits.dailyBudgetUsd + 1e-9 < targetUsd) return null;
  const shares = (targetUsd / limits.dailyBudgetUsd) * limits.paceReleases;
  // The first part whose release covers the target; never the part we are in (it does not).
  const part = Math.max(
    partOf(limits, at) + 1,
    Math.ceil(shares - 1 - limits.paceBurstShares - 1e-9),
  );
  if (part >= limits.paceReleases) return null;
  return realTime(limits.paceClock, dayStart(at) + part * partMs(limits));
}

/** The pace's settings and the money it has released so far today, for the owner's report. */
export function paceReport(limits: PaceLimits, at: number) {
  return {
    releases: limits.paceReleases,
    burstShares: limits.paceBurstShares,
    shareUsd: Math.round((limits.dailyBudgetUsd / limits.paceReleases) * 1e6) / 1e6,
    releasedUsd: Math.round(releasedUsd(limits, at) * 1e6) / 1e6,
  };
}
