/**
 * The gate's day: the UTC day, the same for every visitor wherever they are. The day's budget,
 * every per-day limit (calls, chats, messages, cards) and the day's totals turn over together at
 * UTC midnight, so a refusal's Retry-After and a closed court's `reopensAt` come from here alone.
 * Every refusal's countdown to a moment (`secondsUntil`) is counted here too.
 */

/** A day in milliseconds: how far back "yesterday" is. */
export const DAY_MS = 86_400_000;

/** The UTC day `at` falls on, as `YYYY-MM-DD`: the key of that day's totals and limits. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** When the UTC day after the one `at` falls on begins, in epoch milliseconds. */
export function nextUtcMidnight(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
}

/**
 * Whole seconds from `now` until `at`, rounded up and at least one: a refusal's Retry-After, so a
 * visitor who waits that long is not refused again for the same reason.
 */
export function secondsUntil(at: number, now: number): number {
  return Math.max(1, Math.ceil((at - now) / 1000));
}

/** Seconds until the next UTC day begins (at least one): when a day's limits reset. */
export function secondsToNextUtcDay(now: number): number {
  return secondsUntil(nextUtcMidnight(now), now);
}
