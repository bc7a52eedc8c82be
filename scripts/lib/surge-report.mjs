// The surge's report: the table of what happened, the failures that make the run exit non-zero,
// and its one `surge:` line.
import { fromRecordShare } from './surge-openings.mjs';
import { maximum, objectLoads, percentile, perSecond } from './surge-measures.mjs';
import { percent, textFailures, textRows } from './surge-report-text.mjs';
import { JOIN_BACKSTOP_SECONDS, SWEEP_SECONDS } from './surge-microphones.mjs';

/** @typedef {import('./surge-visitors.mjs').SurgeRecords} SurgeRecords */
/** @typedef {import('./surge-attackers.mjs').AbuserRecord} AbuserRecord */
/** @typedef {import('./surge-attackers.mjs').AttackerRecord} AttackerRecord */
/** @typedef {import('./surge-attackers.mjs').FloodRecord} FloodRecord */
/** @typedef {import('./surge-attackers.mjs').SilentRecord} SilentRecord */
/** @typedef {ReturnType<typeof import('./surge-measures.mjs').courtLoad>} CourtLoad */
/** @typedef {ReturnType<typeof import('./surge-measures.mjs').idlePlaces>} IdlePlaces */

/**
 * @typedef {{
 *   limit: number,
 *   cap: number,
 *   startsPerWindow: number,
 *   flood: boolean,
 *   records: SurgeRecords,
 *   standIn: { stats: { created: number, ended: number, dropped: number, peak: number, late: number, joined: number, joinTimeouts: number } },
 *   providerCost: number,
 *   spend: number,
 *   today: { calls?: unknown, starts?: unknown, waited?: unknown, text?: { fromRecord?: unknown } },
 *   leaked: number,
 *   abuser: AbuserRecord,
 *   ipv6: AttackerRecord,
 *   ipv4: AttackerRecord,
 *   allowed64: number,
 *   allowed24: number,
 *   floodRecord: FloodRecord,
 *   silent: SilentRecord,
 *   court: CourtLoad,
 *   loadReport: unknown,
 *   idle: IdlePlaces,
 *   placesPeak: number,
 *   microphones: MicrophoneOutcome,
 *   linesDoneAt: number,
 *   elapsed: number,
 *   text: import('./surge-report-text.mjs').TextOutcome,
 * }} SurgeOutcome
 * All a run found: its settings, records and measures. `loadReport`: the owner's report as the
 * viral minute ended (its body), for what the court, the desks and the shelves heard.
 */

/**
 * @typedef {import('./surge-microphones.mjs').MicrophoneRecords & {
 *   held: ReturnType<typeof import('./surge-microphones.mjs').microphoneHeld>,
 * }} MicrophoneOutcome
 * The visitors whose microphone failed, and the seconds of place they held.
 */

/** @param {{ sum: number, p50: number, max: number }} held */
const seconds = (held) =>
  `${held.sum.toFixed(1)} / ${held.p50.toFixed(1)} / ${held.max.toFixed(1)} s`;

/**
 * The failed microphones' rows of the table.
 * @param {SurgeOutcome} o
 * @returns {[string, string | number][]}
 */
function microphoneRows(o) {
  const m = o.microphones;
  return [
    [
      'Failed microphones: visitors / give back / never give back',
      `${m.visitors} / ${m.givesBack} / ${m.keeps}`,
    ],
    [
      'Place held, given back: sum / p50 / max',
      `${seconds(m.held.givenBack)} (${m.held.givenBack.count} places, ${m.held.refusedGiveBacks} give-backs refused)`,
    ],
    [
      '  of it, after the microphone failed: sum / p50 / max',
      seconds(m.held.givenBackAfterFailure),
    ],
    [
      'Place held, never given back: sum / p50 / max',
      `${seconds(m.held.kept)} (${m.held.kept.count} places, ${m.held.keptByBackstop} by the join backstop)`,
    ],
    [
      'Provider calls joined / ended unjoined (join timeout)',
      `${o.standIn.stats.joined} / ${o.standIn.stats.joinTimeouts}`,
    ],
  ];
}

/**
 * The table's rows: a label and its value.
 * @param {SurgeOutcome} o
 * @returns {[string, string | number][]}
 */
export function surgeRows(o) {
  const { tally, goneAt, latencies, seen, waits } = o.records;
  const { stats } = o.standIn;
  /** @param {Record<number, number>} statuses */
  const answers = (statuses) =>
    Object.entries(statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
  return [
    ['Visitors arrived', tally.arrived],
    ['Admitted at once', tally.admittedAtOnce],
    ['Admitted after waiting', tally.admittedAfterWaiting],
    .../** @type {[string, number][]} */ (
      Object.entries(tally.refused)
        .sort()
        .map(([code, n]) => [`Refused: ${code}`, n])
    ),
    ['Left the line', tally.left],
    ['Abandoned the line', tally.abandoned],
    ['Ticket gone at check-in', tally.ticketGone],
    [
      'Tickets gone, by time (s)',
      Object.entries(goneAt)
        .map(([at, n]) => `${at}:${n}`)
        .join(' ') || '-',
    ],
    ['Transport errors', tally.transportErrors],
    ['Gate requests (visitors)', latencies.length],
    [
      'Gate latency p50 / p95 / max',
      `${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 95).toFixed(0)} / ${maximum(latencies).toFixed(0)} ms`,
    ],
    [
      'Seen by visitors p50 / p95 (with queueing here)',
      `${percentile(seen, 50).toFixed(0)} / ${percentile(seen, 95).toFixed(0)} ms`,
    ],
    [
      'Wait in line p50 / p95',
      `${percentile(waits, 50).toFixed(1)} / ${percentile(waits, 95).toFixed(1)} s`,
    ],
    ['Provider calls created / ended', `${stats.created} / ${stats.ended}`],
    ['Provider messages lost (calls)', stats.dropped],
    ['Places held at once (peak)', `${o.placesPeak} (limit ${o.limit})`],
    // A call given back frees its place at once, but the provider keeps it to its join timeout.
    ['Provider peak calls at once (given back included)', stats.peak],
    ['Provider cost (reported)', `$${o.providerCost.toFixed(2)}`],
    ['Gate spend today (spent + reserved)', `$${o.spend.toFixed(2)} (cap $${o.cap})`],
    [
      'Gate calls / starts / waited',
      `${o.today.calls ?? '?'} / ${o.today.starts ?? '?'} / ${o.today.waited ?? '?'}`,
    ],
    ['Places leaked after the backstop', o.leaked],
    ['Abuser requests', o.abuser.requests],
    ['Abuser answers', answers(o.abuser.statuses)],
    ['Abuser admitted', `${o.abuser.admitted} (limit ${o.startsPerWindow} per window)`],
    .../** @type {[string, string][]} */ (
      [o.ipv6, o.ipv4].map(({ label, tries, statuses, admitted: n }) => [
        `Attacker in one ${label}: tries / answers / admitted`,
        `${tries} / ${answers(statuses)} / ${n} (allowance ${label === '/64' ? o.allowed64 : o.allowed24})`,
      ])
    ),
    [
      'Junk flood: requests / answers',
      o.flood ? `${o.floodRecord.requests} / ${answers(o.floodRecord.statuses)}` : 'off',
    ],
    [
      'Silent ticket: position / its one hidden check-in',
      `${o.silent.position} / ${o.silent.checkedIn}`,
    ],
    ['Provider answers late (calls)', stats.late],
    ['Arrivals/s in the viral minute p50 / max', perSecond(o.court.arrivalsPerSecond)],
    ['Court requests/s in the viral minute p50 / max', perSecond(o.court.courtPerSecond)],
    ...loadRows(o),
    [
      'Court requests/s with the flood / without (mean)',
      `${o.court.withFlood.toFixed(1)} / ${o.court.withoutFlood.toFixed(1)}`,
    ],
    [
      'Places idle with live visitors waiting: max to the call / to the check-in / allowed',
      `${o.idle.max.toFixed(1)} s / ${o.idle.maxUntilCheckIn.toFixed(1)} s / ${o.idle.allowed.toFixed(1)} s (${o.idle.counted} places, ${o.idle.over} over, ` +
        `${o.idle.heldBySilent} held for a ticket gone silent; the longest ${o.idle.worst || '-'})`,
    ],
    ...microphoneRows(o),
    ['Lines settled / run ended', `${o.linesDoneAt.toFixed(0)} s / ${o.elapsed.toFixed(0)} s`],
    ...(o.text.mode === 'off' ? [] : textRows(o)),
  ];
}

/**
 * The rows of what reached the desks and the shelves in the viral minute, and the court's
 * requests per arriving visitor. A shelf hears only of cards: a run that asked for none says so.
 * @param {SurgeOutcome} o
 * @returns {[string, string][]}
 */
function loadRows(o) {
  const loads = objectLoads(o.loadReport, o.court);
  const perVisitor = loads.courtPerVisitor;
  /** @param {ReturnType<typeof objectLoads>['desk']} busiest @param {string} none */
  const busiestRow = (busiest, none) =>
    !busiest.given
      ? 'not in the report'
      : busiest.heard === 0
        ? `${perSecond(busiest.perSecond)} (${none})`
        : `${perSecond(busiest.perSecond)} (${busiest.object}, ${busiest.heard} requests)`;
  return [
    [
      'Court requests per arriving visitor: the minute / p50 / max second',
      perVisitor === null
        ? '-'
        : `${perVisitor.toFixed(2)} / ${percentile(loads.courtPerVisitorEach, 50).toFixed(2)} / ${maximum(loads.courtPerVisitorEach).toFixed(2)}`,
    ],
    [
      'Busiest desk requests/s in the viral minute p50 / max',
      busiestRow(loads.desk, 'no desk heard a request: no chats'),
    ],
    [
      'Busiest shelf requests/s in the viral minute p50 / max',
      busiestRow(
        loads.shelf,
        o.text.records.cards.asked === 0
          ? 'no shelf heard a request: the run asked for no cards (SURGE_CARD_SHARE)'
          : 'no shelf heard a request in the minute',
      ),
    ],
  ];
}

/**
 * The rows as the table prints them, labels padded to one width.
 * @param {[string, string | number][]} rows
 */
export function tableLines(rows) {
  const width = maximum(rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
}

/**
 * Why the run fails, if it does: the places held at once passed the limit, a place leaked, a
 * failed microphone's give-back was refused or a place never given back outlived the join
 * backstop, the spend passed the
 * cap, the abuser or an attacker got past its allowance, a place sat idle longer than its live
 * visitors' check-in interval, the report gave no court load (or no busiest desk's or shelf's),
 * or the flood more than doubled the court's.
 * @param {SurgeOutcome} o
 */
export function surgeFailures(o) {
  /** @type {string[]} */
  const failures = [];
  if (o.placesPeak > o.limit) failures.push(`peak ${o.placesPeak} above the limit ${o.limit}`);
  const mics = o.microphones.held;
  if (mics.refusedGiveBacks > 0) failures.push(`${mics.refusedGiveBacks} give-backs refused`);
  // The join backstop, its sweep and two seconds for the court's lookup.
  const keptBound = JOIN_BACKSTOP_SECONDS + SWEEP_SECONDS + 2;
  if (mics.kept.max > keptBound) {
    failures.push(
      `a place never given back was held ${mics.kept.max.toFixed(1)} s (bound ${keptBound} s)`,
    );
  }
  if (o.leaked > 0) failures.push(`${o.leaked} places leaked`);
  if (!(o.spend <= o.cap)) failures.push(`spend $${o.spend} above the cap $${o.cap}`);
  if (o.abuser.admitted > o.startsPerWindow)
    failures.push(`the abuser was admitted ${o.abuser.admitted} times`);
  if (o.ipv6.admitted > o.allowed64)
    failures.push(`the /64 attacker was admitted ${o.ipv6.admitted} times`);
  if (o.ipv4.admitted > o.allowed24)
    failures.push(`the /24 attacker was admitted ${o.ipv4.admitted} times`);
  if (o.idle.over > 0)
    failures.push(
      `${o.idle.over} places idle past their visitors' check-in interval (and any ticket gone silent ahead)`,
    );
  const loads = objectLoads(o.loadReport, o.court);
  if (!loads.courtGiven) failures.push('the report gave no court load');
  if (!loads.desk.given || !loads.shelf.given) {
    failures.push("the report gave no busiest desk's or shelf's load");
  }
  if (o.flood && !o.court.compared) {
    // A viral minute shorter than two bursts past the first has no seconds to set side by side.
    failures.push('the viral minute was too short to compare the court with and without the flood');
  } else if (o.flood && !(o.court.withFlood <= 2 * o.court.withoutFlood)) {
    failures.push(
      `the flood took the court from ${o.court.withoutFlood.toFixed(1)} to ${o.court.withFlood.toFixed(1)} requests/s`,
    );
  }
  failures.push(...textFailures(o));
  return failures;
}

/**
 * The run's one line.
 * @param {SurgeOutcome} o
 */
export function surgeLine(o) {
  const { tally, latencies, waits } = o.records;
  const admitted = tally.admittedAtOnce + tally.admittedAfterWaiting;
  const refusedTotal = Object.values(tally.refused).reduce((a, b) => a + b, 0);
  const loads = objectLoads(o.loadReport, o.court);
  return (
    `surge: peak ${o.placesPeak}/${o.limit} concurrent, admitted ${admitted}, waited ${tally.admittedAfterWaiting}, ` +
    `refused ${refusedTotal}, leaked ${o.leaked}, spend ${o.spend.toFixed(2)}/${o.cap} USD, ` +
    `abuser admitted ${o.abuser.admitted}, /64 admitted ${o.ipv6.admitted}/${o.allowed64}, ` +
    `/24 admitted ${o.ipv4.admitted}/${o.allowed24}, ` +
    `idle place ${o.idle.max.toFixed(1)} s to the call, ${o.idle.maxUntilCheckIn.toFixed(1)} s to the check-in (allowed ${o.idle.allowed.toFixed(1)} s), ` +
    `court ${o.court.withFlood.toFixed(1)} req/s with the flood / ${o.court.withoutFlood.toFixed(1)} without, ` +
    `court p50/max ${perSecond(o.court.courtPerSecond)} req/s beside arrivals ${perSecond(o.court.arrivalsPerSecond)}/s, ` +
    `busiest desk p50/max ${perSecond(loads.desk.perSecond)} req/s, busiest shelf ${perSecond(loads.shelf.perSecond)} req/s, ` +
    `p95 gate ${percentile(latencies, 95).toFixed(0)} ms, ` +
    `p95 wait ${percentile(waits, 95).toFixed(0)} s, ` +
    `failed microphones held given back ${seconds(o.microphones.held.givenBack)} ` +
    `(after the failure ${seconds(o.microphones.held.givenBackAfterFailure)}) / ` +
    `never given back ${seconds(o.microphones.held.kept)} (sum / p50 / max)` +
    (o.text.mode === 'off'
      ? ''
      : `, heard Pepa within 5 s ${percent(o.text.servedFast, o.text.asked)} of ${o.text.asked} who asked, ` +
        `text first words p50/p95 ${percentile(o.text.records.firstWordThroughGate, 50).toFixed(0)}/` +
        `${percentile(o.text.records.firstWordThroughGate, 95).toFixed(0)} ms ` +
        `(stand-in ${percentile(o.text.standInFirstWord, 95).toFixed(0)} ms p95), ` +
        `replies ${o.text.records.turns}, stopped ${o.text.records.aborts}, ` +
        `openings from the record ${fromRecordShare(Number(o.today.text?.fromRecord ?? 0), o.text.records.openings + o.text.attacker.openings)}, ` +
        `spend voice/text ${Math.max(0, o.spend - o.text.textSpend).toFixed(2)}/${o.text.textSpend.toFixed(2)} USD, ` +
        `court ${o.text.court.withFlood.toFixed(1)} req/s with text / ${o.text.court.withoutFlood.toFixed(1)} without, ` +
        `text attacker ${o.text.attacker.chats} chats ${o.text.attacker.turns} replies`)
  );
}
