/**
 * The court's limits: what the owner sets (wrangler.jsonc `vars`, read by config.ts) and what is
 * the court's own design, the join timeout among them. It imports nothing: the provider's client,
 * the court and the surge's tests all read it.
 */

/** The limits of one visitor and of their neighbours (calls/visitor-limits.ts applies them). */
export interface VisitorLimitSettings {
  /** Calls (or places in line) one visitor may hold at once. */
  visitorConcurrent: number;
  /** Starts one visitor may make per window. */
  visitorStartsPerWindow: number;
  visitorWindowSeconds: number;
  /** Starts one visitor may make per UTC day. */
  visitorStartsPerDay: number;
  /** What one visitor's calls may commit per UTC day (worst case until their cost is known). */
  visitorDailyUsd: number;
  /** Calls or places a network (/24 or /48) may hold at once. */
  networkConcurrent: number;
  /** Starts a network may make per window. */
  networkStartsPerWindow: number;
  /** Calls or places one ASN may hold at once. */
  asnConcurrent: number;
}

export interface CourtLimits extends VisitorLimitSettings {
  /** Calls at once (the provider's concurrency limit): the court's places. */
  maxConcurrent: number;
  /** The longest a call may last (fixed on every call the gate creates). */
  maxCallSeconds: number;
  /** How long past its maximum a call's place is kept before the backstop frees it. */
  graceSeconds: number;
  dailyBudgetUsd: number;
  /**
   * The share of the day's budget text may commit (0 to 1): the rest is voice's, which text never
   * takes; what text leaves unused voice may borrow.
   */
  textShare: number;
  /**
   * The pace (calls/court-pace.ts): the day's budget is released in this many equal shares over
   * the UTC day, one as each part begins; 1 releases it all at midnight (no pace).
   */
  paceReleases: number;
  /** Shares released ahead of their part, so a burst may draw on the next part's money. */
  paceBurstShares: number;
  /**
   * A local simulation's clock for the pace alone (`GATE_PACE_CLOCK`, honoured only on this
   * machine's loopback): the hours the pace releases pass faster than real ones, so a whole day
   * can be played in minutes. Absent everywhere else: the pace follows the real UTC day.
   */
  paceClock?: PaceClock;
  costPerMinuteUsd: number;
  /** A ticket not checked in within its Retry-After plus this is dropped. */
  checkInGraceSeconds: number;
  /** The same for a page that said it is hidden (its timers may be throttled). */
  hiddenCheckInGraceSeconds: number;
  /** The longest estimated wait a newcomer is given a ticket for; past it the court is full. */
  maxWaitMinutes: number;
}

/**
 * A simulated clock: real time from `realStartMs` on is read as simulated time from `simStartMs`,
 * each step running `scale` times faster than real time for `seconds` real seconds (the last step
 * for ever). It stops at the last moment of the simulated day it starts on.
 */
export interface PaceClock {
  simStartMs: number;
  realStartMs: number;
  steps: readonly { scale: number; seconds: number }[];
}

/** The limits that are the court's own design, not the owner's to set. */
export const FIXED_LIMITS = {
  graceSeconds: 30,
  checkInGraceSeconds: 10,
  hiddenCheckInGraceSeconds: 75,
} as const satisfies Partial<CourtLimits>;

/** The slowest check-in the line asks for, so deep places still prove they are there. */
export const MAX_CHECK_IN_SECONDS = 20;
/** A lease this old with no word from the provider is looked up (`GET /call/{id}`). */
export const PROBE_AFTER_SECONDS = 60;
export const PROBE_EVERY_SECONDS = 30;
/**
 * How long the provider has to let a visitor join a call before it ends the call itself
 * (`customerJoinTimeoutSeconds`, set on every call the gate creates).
 */
export const PROVIDER_JOIN_SECONDS = 20;
/**
 * The backstop for a call that never joined: a call the provider has not said is in progress
 * this long after its admission is looked up, and its place freed unless the provider says it
 * goes on (its own join timeout, and ten seconds for its word to come).
 */
export const JOIN_BACKSTOP_SECONDS = PROVIDER_JOIN_SECONDS + 10;
/** A call not known to have joined whose lookup found no answer is asked again this soon. */
export const JOIN_RECHECK_SECONDS = 10;
