// The surge's measures, from what the run recorded: percentiles, the court's own count of the
// requests it heard per second (with the flood and without), the places that sat idle while live
// visitors waited, and what the per-visitor limits allow an attacker.

/**
 * The p-th percentile (nearest rank) of `values`; 0 for none.
 * @param {readonly number[]} values
 * @param {number} p
 */
export function percentile(values, p) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * The largest of `values`, at least 0. A loop, not `Math.max(...values)`: a full surge records
 * more requests than a call's arguments may hold.
 * @param {Iterable<number>} values
 */
export function maximum(values) {
  let most = 0;
  for (const value of values) if (value > most) most = value;
  return most;
}

/** @param {readonly number[]} values */
export const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** "p50 / max" of per-second counts, for the table. @param {readonly number[]} values */
export const perSecond = (values) =>
  `${percentile(values, 50).toFixed(0)} / ${maximum(values).toFixed(0)}`;

/**
 * The court's load through the viral minute, second by second (its own count of what it heard),
 * beside the arrivals; and in the seconds the flood was on against those it was off.
 * @param {{
 *   load: { from: string, requestsPerSecond?: number[] } | undefined,
 *   startedAtMs: number,
 *   viralEndedAtMs: number,
 *   arrivedAt: readonly number[],
 *   bursts: readonly { from: number, to: number }[],
 *   settleMs: number,
 * }} run `settleMs`: the first seconds fill the places at once, so the comparison starts after
 */
export function courtLoad({ load, startedAtMs, viralEndedAtMs, arrivedAt, bursts, settleMs }) {
  const loadFrom = load ? Math.floor(Date.parse(load.from) / 1000) : 0;
  /** @type {number[]} */
  const viralSeconds = [];
  for (let s = Math.ceil(startedAtMs / 1000); s < Math.floor(viralEndedAtMs / 1000); s += 1) {
    viralSeconds.push(s);
  }
  /** @param {number} s */
  const heardIn = (s) => load?.requestsPerSecond?.[s - loadFrom] ?? 0;
  const arrivals = new Map();
  for (const at of arrivedAt) {
    const s = Math.floor(at / 1000);
    arrivals.set(s, (arrivals.get(s) ?? 0) + 1);
  }
  /** @param {number} s */
  const floodOn = (s) =>
    bursts.some((burst) => s * 1000 >= burst.from && (s + 1) * 1000 <= burst.to);
  /** @param {number} s */
  const floodOff = (s) =>
    !bursts.some((burst) => (s + 1) * 1000 > burst.from && s * 1000 < burst.to);
  const settled = viralSeconds.filter((s) => s * 1000 >= startedAtMs + settleMs);
  const on = settled.filter(floodOn);
  const off = settled.filter(floodOff);
  return {
    /** Whole seconds after the first were heard both with the flood and without it. */
    compared: on.length > 0 && off.length > 0,
    courtPerSecond: viralSeconds.map(heardIn),
    /** @type {number[]} */
    arrivalsPerSecond: viralSeconds.map((s) => arrivals.get(s) ?? 0),
    withFlood: mean(on.map(heardIn)),
    withoutFlood: mean(off.map(heardIn)),
  };
}

/**
 * Idle places: each place the gate learnt was free (the end of a call it was told of, or the
 * backstop's sweep for one it was not), while live visitors stood in line, until a visitor took
 * it: the provider's next call (its own record, so an answer lost on the way here still counts).
 * Matched in order: the first place freed is the first taken. A place taken from the line may sit
 * idle as long as the check-in interval the gate gave the visitors who took places, and the slack.
 * @param {{
 *   calls: Iterable<{ startedAt: number, createdAt: number, messagesLost: boolean, gateToldAt: number | null }>,
 *   limit: number,
 *   backstopS: number,
 *   liveChanges: readonly { at: number, delta: number }[],
 *   placesTaken: readonly { at: number, intervalS: number }[],
 *   closedAt: number,
 *   slackS: number,
 *   startedAtMs: number,
 * }} run `backstopS`: a call's maximum and the grace after it, s; `closedAt`: when the court first
 *   said its day's budget is spent (time a place stays free after it is its choice)
 */
export function idlePlaces({
  calls,
  limit,
  backstopS,
  liveChanges,
  placesTaken,
  closedAt,
  slackS,
  startedAtMs,
}) {
  const changes = [...liveChanges].sort((a, b) => a.at - b.at);
  /** Live visitors in line at `at`. @param {number} at */
  const liveAt = (at) => {
    let n = 0;
    for (const change of changes) {
      if (change.at > at) break;
      n += change.delta;
    }
    return n;
  };
  // The backstop's sweep runs every 2 s: a place it frees goes within a second either side of this.
  const SWEEP_S = 1;
  const all = [...calls];
  const freed = all
    .map((c) =>
      c.messagesLost || c.gateToldAt === null
        ? { at: c.startedAt + (backstopS + SWEEP_S) * 1000, by: 'backstop' }
        : { at: c.gateToldAt, by: 'message' },
    )
    .sort((a, b) => a.at - b.at);
  const taken = all.map((c) => ({ at: c.createdAt })).sort((a, b) => a.at - b.at);
  const takersInterval = Math.max(1, maximum(placesTaken.map((place) => place.intervalS)));
  let max = 0;
  let allowed = 0;
  let over = 0;
  let counted = 0;
  let worst = '';
  // The places free before the first call: taken first, never idle with anyone waiting.
  let free = limit;
  let next = 0;
  for (const place of taken) {
    if (free > 0) {
      free -= 1;
      continue;
    }
    const at = freed[next]?.at;
    const by = freed[next]?.by;
    next += 1;
    if (at === undefined || at > place.at || at > closedAt || liveAt(at) <= 0) continue;
    // Once the court has said its budget is spent, a place it keeps free is money's choice: a
    // place freed just before that answer (no call affordable until a running one settles below
    // its worst case) is idle only until the answer.
    const idle = (Math.min(place.at, closedAt) - at) / 1000;
    const allowedHere = takersInterval + slackS;
    counted += 1;
    if (idle > max) {
      max = idle;
      allowed = allowedHere;
      worst = `freed by the ${by} at ${((at - startedAtMs) / 1000).toFixed(1)} s`;
    }
    if (idle > allowedHere) over += 1;
  }
  return { max, allowed, over, counted, worst };
}

/**
 * What the per-visitor limits allow an attacker over `seconds`: starts per window, per day; the
 * /24 attacker at least the network's starts per window.
 * @param {{ seconds: number, perWindow: number, windowSeconds: number, perDay: number, networkPerWindow: number }} limits
 */
export function attackerAllowances({
  seconds,
  perWindow,
  windowSeconds,
  perDay,
  networkPerWindow,
}) {
  const windows = Math.max(1, Math.ceil(seconds / windowSeconds));
  const allowed64 = Math.min(perDay, perWindow * windows);
  return { allowed64, allowed24: Math.max(allowed64, networkPerWindow * windows) };
}
