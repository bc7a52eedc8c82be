// The surge's measures, from what the run recorded: percentiles, the court's own count of the
// requests it heard per second (with the flood and without), the busiest desk's and shelf's, the
// places that sat idle while live visitors waited, the most places held at once, the seconds of
// place a failed microphone held, and what the per-visitor limits allow an attacker.

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

/**
 * Seconds of place held, summed and at the median and the most; all 0 for none.
 * @param {readonly number[]} seconds
 */
export function placeSeconds(seconds) {
  return {
    count: seconds.length,
    sum: seconds.reduce((a, b) => a + b, 0),
    p50: percentile(seconds, 50),
    max: maximum(seconds),
  };
}

/**
 * The most spans open at once (a span is open from `from`, closed at `to`; one that closes as
 * another opens is not counted with it).
 * @param {Iterable<{ from: number, to: number }>} spans
 */
export function peakAtOnce(spans) {
  /** @type {[number, number][]} */
  const edges = [];
  for (const span of spans) {
    if (!(span.to > span.from)) continue;
    edges.push([span.from, 1], [span.to, -1]);
  }
  // At one instant, closes before opens.
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let open = 0;
  let most = 0;
  for (const [, delta] of edges) {
    open += delta;
    if (open > most) most = open;
  }
  return most;
}

/** Half the court's sweep interval: a place the sweep frees goes within this either side. */
const SWEEP_S = 1;

/**
 * When the gate freed a call's place, as this run knows it: given back by its page (the
 * give-back's answer), else the gate told it ended (the stand-in's record), else its messages
 * lost, the backstop's sweep: the join backstop's lookup (`joinBackstopS` after the call began)
 * finds a call that has ended by then; one still running keeps its place to the call's limit and
 * the grace (`backstopS`). The sweep runs every 2 s: a place it frees goes within a second either
 * side of this.
 * @param {{ id?: string, startedAt: number, messagesLost: boolean, gateToldAt: number | null, endedAt?: string | null }} c
 * @param {{ backstopS: number, joinBackstopS?: number, givenBackAt?: ReadonlyMap<string, number> }} court
 * @returns {{ at: number, by: 'message' | 'backstop' | 'give-back' }}
 */
export function placeFreed(c, { backstopS, joinBackstopS, givenBackAt }) {
  /** @type {{ at: number, by: 'message' | 'backstop' | 'give-back' }} */
  let freed;
  if (!c.messagesLost && c.gateToldAt !== null) freed = { at: c.gateToldAt, by: 'message' };
  else {
    const endedAt = c.endedAt ? Date.parse(c.endedAt) : Infinity;
    const lookedUpAt = c.startedAt + (joinBackstopS ?? 0) * 1000;
    const foundEnded = joinBackstopS !== undefined && endedAt <= lookedUpAt;
    const at = foundEnded ? lookedUpAt : c.startedAt + backstopS * 1000;
    freed = { at: at + SWEEP_S * 1000, by: 'backstop' };
  }
  const given = c.id === undefined ? undefined : givenBackAt?.get(c.id);
  return given !== undefined && given < freed.at ? { at: given, by: 'give-back' } : freed;
}

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
  /** @type {number[]} */
  const viralSeconds = [];
  for (let s = Math.ceil(startedAtMs / 1000); s < Math.floor(viralEndedAtMs / 1000); s += 1) {
    viralSeconds.push(s);
  }
  /** @param {number} s */
  const heardIn = (s) => heardInSeconds(load, [s])[0] ?? 0;
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
    /** The viral minute's whole seconds (epoch s), which the per-second counts are of. */
    seconds: viralSeconds,
    /** Whole seconds after the first were heard both with the flood and without it. */
    compared: on.length > 0 && off.length > 0,
    courtPerSecond: viralSeconds.map(heardIn),
    /** @type {number[]} */
    arrivalsPerSecond: viralSeconds.map((s) => arrivals.get(s) ?? 0),
    withFlood: mean(on.map(heardIn)),
    withoutFlood: mean(off.map(heardIn)),
  };
}

/** @typedef {{ from: string, requestsPerSecond?: number[] }} LoadWindow */
/** @typedef {(LoadWindow & { object?: string }) | null | undefined} BusiestWindow */

/**
 * What an object's count of requests per second (the report's `courtLoad`, or a busiest desk's or
 * shelf's) says of each of `seconds` (epoch s): 0 where it says nothing.
 * @param {LoadWindow | null | undefined} load
 * @param {readonly number[]} seconds
 */
export function heardInSeconds(load, seconds) {
  const from = load ? Math.floor(Date.parse(load.from) / 1000) : 0;
  return seconds.map((s) => load?.requestsPerSecond?.[s - from] ?? 0);
}

/**
 * What reached each kind of Durable Object in the viral minute, from the owner's report read as it
 * ended (`report`, its body): the busiest desk's and the busiest shelf's requests per second (each
 * the one that heard the most in the report's ten minutes), which objects they were and how many
 * they heard in all; and the court's requests per arriving visitor, over the whole minute and in
 * each second that had arrivals. `court` is courtLoad's measure of the same minute.
 * @param {unknown} report
 * @param {{ seconds: readonly number[], courtPerSecond: readonly number[], arrivalsPerSecond: readonly number[] }} court
 */
export function objectLoads(report, court) {
  const body =
    /** @type {{ courtLoad?: LoadWindow | null, deskLoad?: BusiestWindow, shelfLoad?: BusiestWindow }} */ (
      report ?? {}
    );
  /** @param {BusiestWindow} load */
  const busiest = (load) => {
    const perSecond = heardInSeconds(load, court.seconds);
    return {
      given: load !== undefined && load !== null,
      object: load?.object ?? '-',
      perSecond,
      heard: perSecond.reduce((a, b) => a + b, 0),
    };
  };
  const sum = (/** @type {readonly number[]} */ values) => values.reduce((a, b) => a + b, 0);
  const arrived = sum(court.arrivalsPerSecond);
  /** The court's requests per arrival in each second that had arrivals. @type {number[]} */
  const perVisitorEach = [];
  court.arrivalsPerSecond.forEach((arrivals, n) => {
    if (arrivals > 0) perVisitorEach.push((court.courtPerSecond[n] ?? 0) / arrivals);
  });
  return {
    courtGiven: body.courtLoad !== undefined && body.courtLoad !== null,
    desk: busiest(body.deskLoad),
    shelf: busiest(body.shelfLoad),
    /** The court's requests in the minute over the visitors who arrived in it (null for none). */
    courtPerVisitor: arrived === 0 ? null : sum(court.courtPerSecond) / arrived,
    courtPerVisitorEach: perVisitorEach,
  };
}

/**
 * How late past its check-in interval a live visitor may take a freed place: the line's own
 * slack for a late check-in (LIVE_SLACK_MS in gate/src/calls/line.ts) and the surge's jitter.
 */
export const IDLE_SLACK_S = 1.25;

/**
 * Idle places: each place the gate learnt was free (the end of a call it was told of, a call
 * given back, or the backstop's sweep for one it was not; placeFreed), while live visitors stood
 * in line, until a visitor took it: the provider's next call (its own record, so an answer lost on
 * the way here still counts). Matched in order: the first place freed is the first taken.
 *
 * A place taken from the line may sit idle as long as the check-in interval the gate gave the
 * visitors who took places, and the slack; and, before that, as long as the gate still counted a
 * ticket ahead as live that had in fact gone silent (its visitor stopped checking in, and left
 * without a word or with one the gate had not heard yet): the line gives a free place to the first
 * live tickets, and a ticket is live until its due check-in has passed (gate/src/calls/line.ts, `dueAt`),
 * which nobody can know sooner. Each idle
 * place is split into those parts: held for a silent ticket, waiting for the taker's check-in,
 * and from that check-in to the provider's record of the call (the gate's answer, the call's
 * creation). The allowance is held to the first two: the line's promise ends when the taker checks
 * in, and the admission's own time after it is the gate's latency (reported with the requests'),
 * not a place the line left idle; and it stretches by the taker's check-in before it, whose answer
 * a visitor waits for before timing the next. A place the backstop's sweep freed is known to
 * within a second.
 * @param {{
 *   calls: Iterable<{ id?: string, startedAt: number, createdAt: number, messagesLost: boolean, gateToldAt: number | null, endedAt?: string | null }>,
 *   limit: number,
 *   backstopS: number,
 *   joinBackstopS?: number,
 *   givenBackAt?: ReadonlyMap<string, number>,
 *   liveChanges: readonly { at: number, delta: number }[],
 *   placesTaken: readonly { at: number, intervalS: number, answeredAt?: number, issuedAt?: number, previousAnswerMs?: number }[],
 *   silentTickets?: readonly { issuedAt: number, at: number, dueAt: number }[],
 *   closedAt: number,
 *   slackS: number,
 *   startedAtMs: number,
 * }} run `backstopS`: a call's maximum and the grace after it, s; `joinBackstopS`: when the court
 *   looks up a call not heard in progress, s after its start; `givenBackAt`: when each call given
 *   back by its page was (its id); `placesTaken`: each place filled, when the request that filled
 *   it was sent (`at`), answered, and the ticket it came from was issued; `silentTickets`: tickets
 *   their visitors stopped following without leaving (`at`), and when the gate stopped counting
 *   them live (`dueAt`); `closedAt`: when the court first said its day's budget is spent (time a
 *   place stays free after it is its choice)
 */
export function idlePlaces({
  calls,
  limit,
  backstopS,
  joinBackstopS,
  givenBackAt,
  liveChanges,
  placesTaken,
  silentTickets = [],
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
  const all = [...calls];
  const freed = all
    .map((c) => placeFreed(c, { backstopS, joinBackstopS, givenBackAt }))
    .sort((a, b) => a.at - b.at);
  const taken = all.map((c) => ({ at: c.createdAt })).sort((a, b) => a.at - b.at);
  const takersInterval = Math.max(1, maximum(placesTaken.map((place) => place.intervalS)));
  /**
   * The request that filled a place the provider recorded at `createdAt`: the latest sent before
   * it and answered after it.
   * @param {number} createdAt
   */
  const takerOf = (createdAt) => {
    let found;
    for (const place of placesTaken) {
      if (place.at > createdAt || (place.answeredAt ?? Infinity) < createdAt) continue;
      if (!found || place.at > found.at) found = place;
    }
    return found;
  };
  /**
   * How long past `at` the gate still counted a ticket issued before the taker's as live though
   * its visitor had gone (0: none): the place waited for it that long.
   * @param {number} at @param {number} takenAt @param {number | undefined} takerIssuedAt
   */
  const silentHold = (at, takenAt, takerIssuedAt) => {
    let longest = 0;
    for (const silent of silentTickets) {
      if (takerIssuedAt !== undefined && silent.issuedAt >= takerIssuedAt) continue;
      if (silent.at > takenAt || silent.dueAt <= at) continue;
      longest = Math.max(longest, Math.min(silent.dueAt, takenAt) - at);
    }
    return longest / 1000;
  };
  let max = 0;
  let allowed = 0;
  let over = 0;
  let heldBySilent = 0;
  let maxUntilCheckIn = 0;
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
    const taker = takerOf(place.at);
    const held = silentHold(at, place.at, taker?.issuedAt);
    // The line's promise ends at the taker's check-in: what follows is the admission's own time
    // (the gate's answer, the call's creation), not a place the line left idle. A place the
    // backstop's sweep freed is known only to within the sweep's second either side.
    const untilCheckIn = taker ? Math.min(idle, Math.max(0, (taker.at - at) / 1000)) : idle;
    // A visitor times a check-in from the last answer's arrival: a slow answer before it spaced
    // their check-ins out by as long (the gate's latency, not the line's).
    const cadence = (taker?.previousAnswerMs ?? 0) / 1000;
    const allowedHere =
      held + takersInterval + slackS + cadence + (by === 'backstop' ? SWEEP_S : 0);
    counted += 1;
    if (untilCheckIn > takersInterval + slackS && held > 0) heldBySilent += 1;
    if (untilCheckIn > maxUntilCheckIn) maxUntilCheckIn = untilCheckIn;
    if (idle > max) {
      max = idle;
      allowed = allowedHere;
      const parts = [];
      if (held > 0) parts.push(`${held.toFixed(1)} s held for a ticket gone silent`);
      if (cadence > 0)
        parts.push(`the taker's check-in before took ${cadence.toFixed(1)} s to answer`);
      if (taker) {
        parts.push(
          `${Math.max(0, untilCheckIn - held).toFixed(1)} s until the taker's check-in`,
          `${((place.at - taker.at) / 1000).toFixed(1)} s from it to the provider's record`,
        );
      }
      worst = `freed by the ${by} at ${((at - startedAtMs) / 1000).toFixed(1)} s`;
      if (parts.length > 0) worst += `; ${parts.join(', ')}`;
    }
    if (untilCheckIn > allowedHere) over += 1;
  }
  return { max, maxUntilCheckIn, allowed, over, counted, worst, heldBySilent };
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
