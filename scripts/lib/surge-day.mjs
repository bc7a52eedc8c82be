// @ts-check
// The simulated day (SURGE_DAY=on): the viral minute and then the rest of its UTC day, with the
// pace at the owner's settings on a clock that plays the day in minutes. The gate's pace reads a
// simulated clock (GATE_PACE_CLOCK, refused anywhere but on this machine): through the viral
// minute it runs as fast as the calls' compressed time, so the minute spends what ten minutes of
// calls spend against the hour's release; then much faster, while a steady stream of visitors
// comes through the rest of the day. The table says, hour by simulated hour, what was released,
// what was spent, who came and who heard Pepa, and what the others were told.
import { FIRST_WORDS_WITHIN_MS, numberFrom } from './surge-options.mjs';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The calls' pace past the last arrival of the viral minute, so its last visitors meet it. */
const VIRAL_TAIL_MS = 10_000;
/** What the court says to a visitor it will not serve now, as counted in the table. */
const TOLD = ['court-resting', 'court-closed', 'court-full'];

/** @typedef {ReturnType<typeof dayOptions>} DayOptions */

/**
 * The simulated day's options: SURGE_DAY (`on`; off by default), SURGE_DAY_START (the simulated
 * UTC time the viral minute begins at, HH:MM, 00:00 by default: the pace's hardest hour),
 * SURGE_DAY_SECONDS (real seconds for the rest of the day, 240) and SURGE_DAY_VISITORS (visitors
 * spread over it, 1,200), and the pace's own settings (GATE_PACE_RELEASES, GATE_PACE_BURST_SHARES:
 * the shipped 24 and 1 unless set).
 * @param {NodeJS.ProcessEnv} [env]
 */
export function dayOptions(env = process.env) {
  const start = env.SURGE_DAY_START ?? '00:00';
  const hm = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(start);
  if (!hm) {
    console.error(`surge: SURGE_DAY_START must be a time of day as HH:MM (got "${start}")`);
    process.exit(2);
  }
  return {
    on: env.SURGE_DAY === 'on',
    startMs: (Number(hm[1]) * 60 + Number(hm[2])) * 60_000,
    restMs: numberFrom('SURGE_DAY_SECONDS', 240, env) * 1000,
    visitors: Math.round(numberFrom('SURGE_DAY_VISITORS', 1200, env)),
    releases: numberFrom('GATE_PACE_RELEASES', 24, env),
    burstShares: Number(env.GATE_PACE_BURST_SHARES ?? 1),
  };
}

/**
 * The simulated clock for a run whose viral minute lasts `arrivalMs` and begins at the real
 * moment `realStartMs`: the calls' `timeScale` until the minute's last visitors have met it,
 * then as fast as it takes to reach the day's end in `restMs`.
 * @param {DayOptions} options
 * @param {{ arrivalMs: number, timeScale: number, realStartMs: number }} run
 */
export function dayClock(options, { arrivalMs, timeScale, realStartMs }) {
  const simDay = Math.floor(realStartMs / DAY_MS) * DAY_MS;
  const simStartMs = simDay + options.startMs;
  const viralMs = arrivalMs + VIRAL_TAIL_MS;
  const leftMs = simDay + DAY_MS - (simStartMs + viralMs * timeScale);
  const fast = Math.max(timeScale, Math.ceil(leftMs / options.restMs));
  /** @param {number} real epoch ms @returns {number} the simulated time then */
  const simAt = (real) => {
    const since = Math.max(0, real - realStartMs);
    const slow = Math.min(since, viralMs);
    return Math.min(simStartMs + slow * timeScale + (since - slow) * fast, simDay + DAY_MS - 1);
  };
  return {
    simStartMs,
    viralMs,
    fast,
    simAt,
    /** The gate's GATE_PACE_CLOCK for this clock (gate/src/floor/config.ts). */
    setting: `${new Date(simStartMs).toISOString()}@${realStartMs} ${timeScale}:${viralMs / 1000} ${fast}`,
  };
}

/**
 * What each simulated hour released, spent and served.
 * @param {{
 *   cap: number, releases: number, burstShares: number,
 *   hoursSpent: number[],
 *   arrivals: { simAt: number, asked: boolean, heard: boolean, fast: boolean }[],
 *   told: { simAt: number, code: string }[],
 *   callsAt: number[],
 * }} day the report's spend per hour; each visitor of the day's stream (when they arrived on the
 *   simulated clock, whether they asked for Pepa by voice or text, heard her, and heard her
 *   within 5 s); what visitors were told, and when calls were admitted (simulated)
 */
export function hourRows(day) {
  const perPart = day.cap / day.releases;
  let spentBy = 0;
  return Array.from({ length: 24 }, (_, hour) => {
    const inHour = (/** @type {number} */ at) => new Date(at).getUTCHours() === hour;
    const spent = day.hoursSpent[hour] ?? 0;
    spentBy = Math.round((spentBy + spent) * 1e6) / 1e6;
    const parts = Math.floor(((hour + 1) * day.releases) / 24);
    const came = day.arrivals.filter((a) => inHour(a.simAt));
    /** @type {Record<string, number>} */
    const told = Object.fromEntries(TOLD.map((code) => [code, 0]));
    for (const t of day.told) if (inHour(t.simAt)) told[t.code] = (told[t.code] ?? 0) + 1;
    return {
      hour,
      releasedBy: Math.min(day.cap, (parts + day.burstShares) * perPart),
      spent,
      spentBy,
      arrived: came.length,
      asked: came.filter((a) => a.asked).length,
      heard: came.filter((a) => a.heard).length,
      fast: came.filter((a) => a.fast).length,
      calls: day.callsAt.filter(inHour).length,
      told,
    };
  });
}

/** @typedef {ReturnType<typeof hourRows>[number]} HourRow */

/**
 * What the simulated day failed: a court said closed for the day during the viral minute, an
 * hour whose spend (with the hours before it) passed what the pace had released by its end, or a
 * later hour whose visitors all asked in vain.
 * @param {HourRow[]} rows
 * @param {{ closedInViral: number, viralHour: number }} viral
 */
export function dayFailures(rows, { closedInViral, viralHour }) {
  const failures = [];
  if (closedInViral > 0) {
    failures.push(
      `${closedInViral} visitors were told the court is closed during the viral minute`,
    );
  }
  for (const row of rows) {
    const hh = String(row.hour).padStart(2, '0');
    if (row.spentBy > row.releasedBy + 0.01) {
      failures.push(
        `by ${hh}:59 $${row.spentBy.toFixed(2)} was spent, past the $${row.releasedBy.toFixed(2)} the pace had released`,
      );
    }
    if (row.hour > viralHour && row.asked >= 5 && row.heard === 0) {
      failures.push(`none of the ${row.asked} visitors who asked in the hour ${hh} heard Pepa`);
    }
  }
  return failures;
}

/** How long from now the viral minute is to begin, while the stack starts (it waits if early). */
const LEAD_MS = 25_000;

/**
 * The simulated day of one run, or nothing to do when it is off.
 * @param {DayOptions} options
 * @param {{
 *   VISITORS: number, ARRIVAL_MS: number, CAP: number, timeScale: number, random: () => number,
 * }} run the viral minute's visitors and length, the day's budget, and the calls' time scale
 */
export function surgeDay(options, run) {
  const { ARRIVAL_MS: arrivalMs, timeScale, random } = run;
  const realStartMs = Date.now() + LEAD_MS;
  const clock = dayClock(options, { arrivalMs, timeScale, realStartMs });
  /** @type {{ at: number, code: string }[]} */
  const told = [];
  const pace = {
    GATE_PACE_RELEASES: options.releases,
    GATE_PACE_BURST_SHARES: options.burstShares,
    GATE_PACE_CLOCK: clock.setting,
  };
  return {
    on: options.on,
    visitors: options.on ? options.visitors : 0,
    /** The gate's pace for the run: the owner's, on the simulated clock; none when off. */
    gateVars: options.on ? pace : {},
    /** Waits for the moment the clock was set to begin the viral minute at. */
    begin: async () => {
      const early = realStartMs - Date.now();
      if (options.on && early > 0) await new Promise((done) => setTimeout(done, early));
    },
    /** The day's stream of visitors: when each arrives, in ms from the viral minute's start. */
    arrivals: () =>
      Array.from(
        { length: options.on ? options.visitors : 0 },
        () => clock.viralMs + random() * options.restMs,
      ),
    /** @param {{ body: { code?: string } | null }} answer */
    heard: (answer) => {
      const code = answer.body?.code;
      if (options.on && code && TOLD.includes(code)) told.push({ at: Date.now(), code });
    },
    /**
     * The table's lines and the day's failures.
     * @param {{
     *   today: { [key: string]: unknown }, startedAtMs: number, arrivals: number[],
     *   textSurge: { askedBy: (n: number) => boolean, firstWordsOf: (n: number) => number | null },
     *   records: { placesTaken: { answeredAt: number }[] },
     * }} surge the day's report, when the run began (epoch ms) and each visitor arrived (ms from
     *   then), who asked for Pepa and how soon each heard her, and when each place was taken
     */
    outcome: (surge) => {
      if (!options.on) return { lines: [], failures: [] };
      const viralEnd = realStartMs + clock.viralMs;
      const visitor = (/** @type {number} */ offset, /** @type {number} */ n) => {
        const asked = surge.textSurge.askedBy(n);
        const ms = surge.textSurge.firstWordsOf(n);
        const heard = asked && ms !== null;
        const fast = heard && ms <= FIRST_WORDS_WITHIN_MS;
        return { simAt: clock.simAt(surge.startedAtMs + offset), asked, heard, fast };
      };
      const all = surge.arrivals.map(visitor);
      const viral = all.slice(0, run.VISITORS);
      const rows = hourRows({
        cap: run.CAP,
        releases: options.releases,
        burstShares: options.burstShares,
        hoursSpent: Array.isArray(surge.today.hours) ? surge.today.hours.map(Number) : [],
        arrivals: all.slice(run.VISITORS),
        told: told.filter((t) => t.at >= viralEnd).map((t) => ({ ...t, simAt: clock.simAt(t.at) })),
        callsAt: surge.records.placesTaken
          .map((p) => p.answeredAt)
          .filter((at) => at >= viralEnd)
          .map(clock.simAt),
      });
      const toldInViral = told.filter((t) => t.at < viralEnd);
      const count = (/** @type {string} */ code) =>
        toldInViral.filter((t) => t.code === code).length;
      const asked = viral.filter((v) => v.asked).length;
      const heard = viral.filter((v) => v.heard).length;
      const fast = viral.filter((v) => v.fast).length;
      const hhmm = (/** @type {number} */ at) => new Date(at).toISOString().slice(11, 16);
      const viralHour = new Date(clock.simStartMs).getUTCHours();
      const lines = [
        `  Simulated day: pace ${options.releases} releases, burst ${options.burstShares}; the clock ` +
          `×${timeScale} from ${hhmm(clock.simStartMs)} for ${clock.viralMs / 1000} s, then ×${clock.fast}`,
        `  Viral minute (${hhmm(clock.simStartMs)}–${hhmm(clock.simAt(viralEnd))}): ` +
          `${viral.length} arrived; of ${asked} who asked, ${fast} heard Pepa within 5 s ` +
          `(${asked ? ((100 * fast) / asked).toFixed(1) : '–'} %) and ${heard} at all; told ` +
          TOLD.map((code) => `${code} ${count(code)}`).join(', '),
        '  hour  released by end  spent  spent by end  arrived  asked  heard  ≤5 s  calls  resting  full  closed',
        ...rows.map(
          (r) =>
            `  ${String(r.hour).padStart(2, '0')}    ${r.releasedBy.toFixed(2).padStart(15)}` +
            `  ${r.spent.toFixed(2).padStart(5)}  ${r.spentBy.toFixed(2).padStart(12)}` +
            `  ${String(r.arrived).padStart(7)}  ${String(r.asked).padStart(5)}` +
            `  ${String(r.heard).padStart(5)}  ${String(r.fast).padStart(4)}  ${String(r.calls).padStart(5)}` +
            `  ${String(r.told['court-resting']).padStart(7)}  ${String(r.told['court-full']).padStart(4)}` +
            `  ${String(r.told['court-closed']).padStart(6)}`,
        ),
      ];
      return {
        lines,
        failures: dayFailures(rows, { closedInViral: count('court-closed'), viralHour }),
      };
    },
  };
}
