/**
 * What a provider message's numbers may be believed to say. A message with the right secret can
 * still carry nonsense (a bug, a leaked secret): its cost and duration are held within what a
 * call the gate created can cost and last, and every number pulled in is recorded as an outlier.
 */
import type { CourtLimits } from '../floor/court-limits';

/** A call's reported cost is believed up to this many times its worst case. */
export const COST_CEILING_WORST_CASES = 4;

export type Outlier = 'outlier-cost' | 'outlier-duration';

export interface BelievedNumbers {
  cost?: number;
  durationSeconds?: number;
  outliers: Outlier[];
}

/** Ended reasons kept under their own name: the provider's known families. */
const KNOWN_REASON =
  /^(pipeline-error|call\.|assistant-|customer-|silence-|exceeded-|twilio-|vonage-|worker-|phone-call-provider|manually-canceled|voicemail|db-error|unknown-error|no-server-available|license-check-failed)[a-z0-9.-]*$/;

/** An ended reason as the report counts it: unknown ones grouped, so they cannot grow it. */
export function reasonKey(reason: string): string {
  return reason.length <= 100 && KNOWN_REASON.test(reason) ? reason : 'other-ended-reason';
}

export function believe(
  reported: { cost?: number; durationSeconds?: number },
  limits: Pick<CourtLimits, 'maxCallSeconds' | 'graceSeconds' | 'costPerMinuteUsd'>,
): BelievedNumbers {
  const outliers: Outlier[] = [];
  const worstCase = (limits.maxCallSeconds / 60) * limits.costPerMinuteUsd;
  let durationSeconds = reported.durationSeconds;
  if (durationSeconds !== undefined) {
    const longest = limits.maxCallSeconds + limits.graceSeconds;
    if (!Number.isFinite(durationSeconds) || durationSeconds < 0 || durationSeconds > longest) {
      outliers.push('outlier-duration');
      durationSeconds = Number.isFinite(durationSeconds) && durationSeconds < 0 ? 0 : longest;
    }
  }
  let cost = reported.cost;
  if (cost !== undefined) {
    const ceiling = COST_CEILING_WORST_CASES * worstCase;
    if (!Number.isFinite(cost) || cost < 0 || cost > ceiling) {
      outliers.push('outlier-cost');
      cost = Number.isFinite(cost) && cost < 0 ? 0 : ceiling;
    }
    // A call that lasted is not charged less than a quarter of its minutes at the owner's rate (the
    // provider's real price may be under the rate set, but not by that much): a cost of 0 for a
    // long call would let the day's budget be spent twice. Below that, the minutes are charged.
    if (durationSeconds !== undefined) {
      const byMinutes = (durationSeconds / 60) * limits.costPerMinuteUsd;
      if (cost < byMinutes / 4) {
        if (!outliers.includes('outlier-cost')) outliers.push('outlier-cost');
        cost = byMinutes;
      }
    }
  }
  return {
    ...(cost === undefined ? {} : { cost }),
    ...(durationSeconds === undefined ? {} : { durationSeconds }),
    outliers,
  };
}
