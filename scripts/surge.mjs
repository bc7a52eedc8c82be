// `npm run surge`: the day Pepa goes viral, measured against a local court (the gate in workerd in
// front of the provider stand-in and Prism, scripts/lib/court-stack.mjs), on loopback only. It
// builds nothing (the gate serves an empty folder) and stops by itself.
//
// 10,000 visitors arrive within 60 s from 2,000 addresses. Each asks for a call with the bot
// check's dummy token, follows Retry-After to check in, and is admitted, refused, or gives up
// (leaves the line, or stops checking in). One scripted abuser reuses a ticket, checks in faster
// than asked, and hammers without a bot token. Two attackers with valid bot tokens rotate
// addresses, one inside an IPv6 /64 and one inside an IPv4 /24, and follow their tickets as a
// live visitor would. A junk flood (starts without a token, made-up tickets and ratings) hits the
// court in five-second bursts through the viral minute, so its load with and without it can be
// compared in one run. One ticket near the head of the line checks in once as a hidden page, then
// falls silent. The stand-in's calls last 30–180 s (compressed in time), 5 % never send their
// server messages (the gate's backstop frees their places), and 2 % of its answers to
// `POST /call/web` come after the gate stopped waiting (the call still runs).
//
// Text with Pepa: a visitor the court does not admit at once chooses text (SURGE_TEXT_SHARE,
// 90 %) or leaves; texting, they send one to three messages a few seconds apart, read each reply
// as a stream and now and then stop one at its first words, while their ticket goes on. Text is
// offered in alternate windows of the viral minute (SURGE_TEXT=windows; `on`, `off`), so the
// court's load with and without it is compared in one run. The stand-in writes replies at the
// field model's pace. One attacker drives text from one IPv6 /64 with valid bot tokens. The table
// adds the share of those who asked (admitted at once, or chose text) who heard Pepa's first
// words within 5 s of arriving, the first words' latency through the gate beside the stand-in's,
// spend by channel, and the attacker against one visitor's allowance.
//
// The simulated day (SURGE_DAY=on, scripts/lib/surge-day.mjs): the pace at the owner's settings on
// a clock that plays the rest of the viral minute's UTC day in minutes, with visitors through it.
//
// Every request the court hears is counted (the report's courtLoad), and printed per second (p50,
// max) beside the arrivals per second. Failed microphones (surge-microphones.mjs): of the admitted,
// a share (SURGE_FAILED_MIC_SHARE, 5 %) whose microphone fails give the place back as the page
// does, or (SURGE_NO_GIVE_BACK_SHARE, 20 % of them) never do: the provider's join timeout or the
// court's join backstop frees it. The parties are in scripts/lib/surge-visitors.mjs and
// surge-attackers.mjs, the measures in surge-measures.mjs, the table and the line in surge-report.mjs.
//
// It prints a table and ends with one line:
//   surge: peak P/L concurrent, admitted A, waited W, refused R, leaked K, spend S/C USD,
//   abuser admitted X, /64 admitted Y/A64, /24 admitted Z/A24, idle place I s (allowed J s),
//   court N req/s with the flood / M without, p95 gate V ms, p95 wait T s
// and exits non-zero when the places held at once passed the limit, a place leaked, the spend
// passed the cap, the abuser or an attacker got past its allowance, a place sat idle longer than
// its live visitors' check-in interval, the flood more than doubled the court's load (or the
// minute was too short to compare), or the simulated day failed one of its own checks.
//
// Visitors, attackers and owner speak to the Worker's own socket, not wrangler's dev proxy
// (SURGE_VIA_PROXY=1 does); the stand-in's server messages still go through it.
//
// Options (environment): SURGE_VISITORS (10000), SURGE_ADDRESSES (2000), SURGE_ARRIVAL_SECONDS
// (60), SURGE_TIME_SCALE (10: provider seconds per real second), SURGE_SEED, SURGE_FLOOD (1; 0
// for none), and the gate's GATE_* limits (GATE_MAX_CONCURRENT_CALLS, GATE_DAILY_BUDGET_USD,
// GATE_MAX_WAIT_MINUTES: the owner's 15 minutes, compressed like the calls, by default, …).
import { mkdtempSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from './lib/prism.mjs';
import { startCourtStack } from './lib/court-stack.mjs';
import { gateCaller, placesLeaked, surgeAgents } from './lib/surge-gate.mjs';
import { seededRandom, surgeRecords, surgeVisitors } from './lib/surge-visitors.mjs';
import * as parties from './lib/surge-attackers.mjs';
import { attackerAllowances, courtLoad, IDLE_SLACK_S, idlePlaces } from './lib/surge-measures.mjs';
import { surgeFailures, surgeLine, surgeRows, tableLines } from './lib/surge-report.mjs';
import { FIELD, textDay } from './lib/surge-text.mjs';
import { textCosts, textStandInOf } from './lib/surge-text-costs.mjs';
import { numberFrom, shareFrom, textOptions } from './lib/surge-options.mjs';
import {
  JOIN_BACKSTOP_SECONDS,
  microphoneDay,
  microphoneOutcome,
} from './lib/surge-microphones.mjs';
import { stackCpuMeter } from './lib/stack-cpu.mjs';
import { dayOptions, surgeDay } from './lib/surge-day.mjs';

const VISITORS = numberFrom('SURGE_VISITORS', 10_000);
const ADDRESSES = numberFrom('SURGE_ADDRESSES', 2_000);
const ARRIVAL_MS = numberFrom('SURGE_ARRIVAL_SECONDS', 60) * 1000;
const SCALE = numberFrom('SURGE_TIME_SCALE', 10);
const LIMIT = numberFrom('GATE_MAX_CONCURRENT_CALLS', 10);
const CAP = numberFrom('GATE_DAILY_BUDGET_USD', 25);
const RATE = numberFrom('GATE_COST_PER_MINUTE_USD', 0.15);
const MAX_CALL_SECONDS = 180;
/** The gate's grace past a call's maximum before its backstop frees the place. */
const GRACE_SECONDS = 30;
const STARTS_PER_WINDOW = numberFrom('GATE_VISITOR_STARTS_PER_WINDOW', 3);
const WINDOW_SECONDS = numberFrom('GATE_VISITOR_WINDOW_SECONDS', 600);
const STARTS_PER_DAY = numberFrom('GATE_VISITOR_STARTS_PER_DAY', 12);
const NETWORK_STARTS_PER_WINDOW = numberFrom('GATE_NETWORK_STARTS_PER_WINDOW', 12);
const FLOOD = process.env.SURGE_FLOOD !== '0';
/** The flood's bursts: on for this long, then off as long, through the viral minute. */
const FLOOD_BURST_MS = 5000;
/** Junk requests at once, at most. */
const FLOOD_SOCKETS = 8;
/** An attacker tries a new address this often. */
const ATTACKER_EVERY_MS = 150;
const TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
const LEAVE_SHARE = 0.1;
const ABANDON_SHARE = 0.1;
/** Requests to the gate at once, at most: Node's own concurrency stays bounded. */
const SOCKETS = 48;
const ABUSER_EVERY_MS = 100;
const TEXT = textOptions();
const FAILED_MIC_SHARE = shareFrom('SURGE_FAILED_MIC_SHARE', 0.05);
const NO_GIVE_BACK_SHARE = shareFrom('SURGE_NO_GIVE_BACK_SHARE', 0.2);

const firstSeed = numberFrom('SURGE_SEED', Date.now() % 2 ** 31);
const random = seededRandom(firstSeed);

const gateMaxCallSeconds = Math.max(10, Math.round(MAX_CALL_SECONDS / SCALE));
const timeScale = MAX_CALL_SECONDS / gateMaxCallSeconds;
const MAX_WAIT_MINUTES = numberFrom(
  'GATE_MAX_WAIT_MINUTES',
  Math.max(1, Math.round(15 / timeScale)),
);
const DAY = surgeDay(dayOptions(), { VISITORS, ARRIVAL_MS, CAP, timeScale, random });
const vars = {
  GATE_MAX_CONCURRENT_CALLS: LIMIT,
  GATE_DAILY_BUDGET_USD: CAP,
  // Time runs SCALE times faster: a call's limit shrinks, and a real minute costs SCALE minutes.
  GATE_MAX_CALL_SECONDS: gateMaxCallSeconds,
  GATE_COST_PER_MINUTE_USD: RATE * (MAX_CALL_SECONDS / gateMaxCallSeconds),
  GATE_MAX_WAIT_MINUTES: MAX_WAIT_MINUTES,
  GATE_PACE_RELEASES: process.env.GATE_PACE_RELEASES ?? 1, // its hours are not compressed: off
  ...TEXT.gateVars,
  ...DAY.gateVars, // the pace on a simulated clock, when the day is played
};

const assets = mkdtempSync(join(tmpdir(), 'pepa-surge-assets-'));
const [sitePort, mockPort] = [await findFreePort(), await findFreePort()];
console.log(
  `surge: ${VISITORS} visitors from ${ADDRESSES} addresses within ${ARRIVAL_MS / 1000} s, ` +
    `limit ${LIMIT}, cap $${CAP}, wait limit ${MAX_WAIT_MINUTES} min, time ×${timeScale}, ` +
    `flood ${FLOOD ? 'on' : 'off'}, text ${TEXT.mode} by ${TEXT.engine}, seed ${firstSeed}`,
);
const stack = await startCourtStack({
  sitePort,
  mockPort,
  assetsDir: assets,
  // SURGE_VERBOSE=1 shows the gate's own log (its errors, workerd's restarts).
  quiet: process.env.SURGE_VERBOSE !== '1',
  vars,
  standIn: {
    callSeconds: { min: 30, max: 180 },
    dropEndMessages: 0.05,
    lateAnswers: 0.02,
    timeScale,
    costPerMinuteUsd: RATE,
    random,
    // Replies are written at the field model's pace; calls keep the surge's compressed time.
    latency: {
      siteverifyMs: 0,
      gateWorkMs: 0,
      callWebMs: 0,
      chatFirstWordMs: FIELD.chatFirstWordMs ?? 700,
      chatWordMs: FIELD.chatWordMs ?? 40,
    },
  },
});
const standIn = stack.standIn;
const textStandIn = textStandInOf(standIn, TEXT.engine);
const viaProxy = process.env.SURGE_VIA_PROXY === '1' || stack.workerUrl === null;
const gateUrl = new URL(viaProxy ? stack.url : (stack.workerUrl ?? stack.url));
console.log(
  viaProxy
    ? `surge: the gate through wrangler's dev proxy at ${gateUrl.origin}`
    : `surge: the gate on the Worker's own socket at ${gateUrl.origin} (wrangler's dev proxy skipped)`,
);
let stopping = false;
/** @param {number} code */
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  rmSync(assets, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));

const agents = surgeAgents(SOCKETS, FLOOD_SOCKETS);
/** When the court first said its money is spent or paced: places idle after it are its choice. */
let closedAt = DAY.on ? 0 : Infinity; // the day's pace binds from its first minute
/** A line has formed: some visitor was given a ticket. */
let lineFormed = false;
const call = gateCaller(gateUrl, agents.line, (answer) => {
  const code = answer.body?.code;
  if (code === 'court-closed' || code === 'court-resting')
    closedAt = Math.min(closedAt, Date.now());
  if (answer.status === 202) lineFormed = true;
  DAY.heard(answer);
  microphones.heard(answer); // rooms joined but the failed microphones'
});
/** @param {number} ms */
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const party = { call, agents, random, sleep, token: TOKEN };
const microphones = microphoneDay({
  share: FAILED_MIC_SHARE,
  keepShare: NO_GIVE_BACK_SHARE,
  random,
  sleep,
  call,
  joinRoom: (roomUrl) => standIn.joinRoom(roomUrl),
});

let unresolved = VISITORS + DAY.visitors;
/** @type {() => void} */
let resolveAll = () => {};
const allDone = new Promise((/** @type {(value?: undefined) => void} */ done) => {
  resolveAll = done;
});
const finish = () => {
  unresolved -= 1;
  if (unresolved === 0) resolveAll();
};

// This script plays every visitor and the provider stand-in in one process: how late its own
// event loop ran is printed beside the latencies it measured.
const loopDelay = monitorEventLoopDelay({ resolution: 20 });
loopDelay.enable();
const records = surgeRecords();
await DAY.begin();
const cpu = stackCpuMeter({ sitePort });
const began = performance.now();
const startedAtMs = Date.now();
const textSurge = textDay({
  mode: TEXT.mode,
  windowMs: TEXT.windowMs,
  share: TEXT.share,
  stopShare: TEXT.stopShare,
  startedAtMs,
  arrivalMs: ARRIVAL_MS,
  call,
  gate: gateUrl,
  random,
  sleep,
  token: TOKEN,
});
const { visitor, followTicket, took } = surgeVisitors({
  ...party,
  records,
  addresses: ADDRESSES,
  leaveShare: LEAVE_SHARE,
  abandonShare: ABANDON_SHARE,
  began,
  finish,
  admitted: textSurge.admitted,
  turnedAway: textSurge.turnedAway,
  microphones,
});
const abuserRunning = parties.running();
const attackersRunning = parties.running();
const floodRunning = parties.running();
/** @type {import('./lib/surge-attackers.mjs').AbuserRecord} */
const abuser = { requests: 0, admitted: 0, statuses: {} };
/** @type {import('./lib/surge-attackers.mjs').FloodRecord} */
const flood = { requests: 0, statuses: {}, bursts: [] };
/** @type {import('./lib/surge-attackers.mjs').SilentRecord} */
const silent = { position: null, checkedIn: null };
const attack = {
  ...party,
  took,
  followTicket,
  everyMs: ATTACKER_EVERY_MS,
  while: attackersRunning,
};
const textAttackerDone = textSurge.attacker(agents.attackers, TEXT.messageChars);
const ipv6Attacker = parties.attacker(attack, '/64', parties.inOneIpv6Network);
const ipv4Attacker = parties.attacker(attack, '/24', parties.inOneIpv4Network);

const abuserDone = parties.abuse(
  { ...party, took, everyMs: ABUSER_EVERY_MS, while: abuserRunning },
  abuser,
);
const attackersDone = Promise.all([ipv6Attacker.run(), ipv4Attacker.run()]);
const floodDone = FLOOD
  ? parties.junkFlood(
      { ...party, burstMs: FLOOD_BURST_MS, sockets: FLOOD_SOCKETS, while: floodRunning },
      flood,
    )
  : Promise.resolve();
const silentDone = parties.silentTicket(
  { ...party, took, lineFormed: () => lineFormed, began, arrivalMs: ARRIVAL_MS },
  silent,
);
const arrivals = Array.from({ length: VISITORS }, () => random() * ARRIVAL_MS)
  .sort((a, b) => a - b)
  .concat(DAY.arrivals().sort((a, b) => a - b));
/** @type {Promise<void>[]} */
const visits = [];
/** Visitors `from` to `to` - 1, each at their time. @param {number} from @param {number} to */
async function arrive(from, to) {
  for (let n = from; n < to; n += 1) {
    const delay = (arrivals[n] ?? 0) - (performance.now() - began);
    if (delay > 0) await sleep(delay);
    visits.push(visitor(n));
  }
}
await arrive(0, VISITORS);
// The viral minute is over: the flood stops, and the court's load so far is read.
if (ARRIVAL_MS > performance.now() - began) await sleep(ARRIVAL_MS - (performance.now() - began));
floodRunning.on = false;
await floodDone;
const viralEndedAtMs = Date.now();
const viralCpu = cpu.line();
const loadReport = await call('GET', '/api/report?days=1', {
  headers: { authorization: `Bearer ${stack.secrets.GATE_ADMIN_TOKEN}` },
  agent: agents.owner,
});
await arrive(VISITORS, arrivals.length); // the simulated day's visitors, when it is played
// While the last visitors finish (their lines, their chats), a line every 20 s says who is left.
const progress = setInterval(() => {
  console.log(
    `surge: ${unresolved} visitors not done yet, ${textStandIn.writing} replies being written, ` +
      `${standIn.stats.active} calls under way`,
  );
}, 20_000);
await allDone;
clearInterval(progress);
await Promise.all(visits);
await microphones.settled();
abuserRunning.on = false;
attackersRunning.on = false;
textSurge.stopAttacker();
await Promise.all([abuserDone, attackersDone, silentDone, textAttackerDone]);
const linesDoneAt = (performance.now() - began) / 1000;

// Every call the provider started ends by itself; then the backstop gets its window.
while (standIn.stats.active > 0) await sleep(500);
let lastStart = 0;
for (const c of standIn.calls.values()) lastStart = Math.max(lastStart, c.startedAt);
const backstopAt = lastStart + (gateMaxCallSeconds + GRACE_SECONDS + 6) * 1000;
if (backstopAt > Date.now()) await sleep(backstopAt - Date.now());

const leaked = await placesLeaked(call, standIn.calls.keys(), {
  authorization: `Bearer ${stack.secrets.GATE_WEBHOOK_SECRET}`,
  agent: agents.owner,
});
const report = await call('GET', '/api/report?days=1', {
  headers: { authorization: `Bearer ${stack.secrets.GATE_ADMIN_TOKEN}` },
  agent: agents.owner,
});
/** @type {{ spendUsd?: unknown, calls?: unknown, starts?: unknown, waited?: unknown }} */
const today = /** @type {{ days?: object[] } | null} */ (report.body)?.days?.[0] ?? {};
const spend = Number(today.spendUsd ?? NaN);
const providerCost = [...standIn.calls.values()].reduce((sum, c) => sum + (c.cost ?? 0), 0);
const elapsed = (performance.now() - began) / 1000;
for (const agent of Object.values(agents)) agent.destroy();
textSurge.destroy();

const load = /** @type {{ courtLoad?: { from: string, requestsPerSecond?: number[] } } | null} */ (
  loadReport.body
)?.courtLoad;
const court = courtLoad({
  load,
  startedAtMs,
  viralEndedAtMs,
  arrivedAt: records.arrivedAt,
  bursts: flood.bursts,
  settleMs: FLOOD_BURST_MS,
});
const mics = microphoneOutcome(microphones.records, standIn.calls);
const idle = idlePlaces({
  calls: standIn.calls.values(),
  limit: LIMIT,
  backstopS: gateMaxCallSeconds + GRACE_SECONDS,
  joinBackstopS: JOIN_BACKSTOP_SECONDS,
  givenBackAt: mics.givenBackAt,
  liveChanges: records.liveChanges,
  placesTaken: records.placesTaken,
  silentTickets: records.silentTickets,
  closedAt,
  slackS: IDLE_SLACK_S,
  startedAtMs,
});
const textCourt = courtLoad({
  load,
  startedAtMs,
  viralEndedAtMs,
  arrivedAt: records.arrivedAt,
  bursts: textSurge.windows,
  // A window's first seconds still hear the last one's chats: they are left out.
  settleMs: 2000,
});
const minutesRun = Math.ceil(elapsed / 60);
const { allowed64, allowed24 } = attackerAllowances({
  seconds: elapsed,
  perWindow: STARTS_PER_WINDOW,
  windowSeconds: WINDOW_SECONDS,
  perDay: STARTS_PER_DAY,
  networkPerWindow: NETWORK_STARTS_PER_WINDOW,
});

/** @type {import('./lib/surge-report.mjs').SurgeOutcome} */
const outcome = {
  limit: LIMIT,
  cap: CAP,
  startsPerWindow: STARTS_PER_WINDOW,
  flood: FLOOD,
  records,
  standIn,
  providerCost,
  spend,
  today,
  leaked,
  abuser,
  ipv6: ipv6Attacker.record,
  ipv4: ipv4Attacker.record,
  allowed64,
  allowed24,
  floodRecord: flood,
  silent,
  court,
  loadReport: loadReport.body,
  idle,
  placesPeak: mics.placesPeak,
  microphones: { ...microphones.records, held: mics.held },
  linesDoneAt,
  elapsed,
  text: {
    mode: TEXT.mode,
    records: textSurge.text,
    asked: textSurge.asked(),
    servedFast: textSurge.servedFast(),
    engine: TEXT.engine,
    standInFirstWord: textStandIn.stats.firstWordMs,
    standInStopped: textStandIn.stats.aborted,
    costs: textCosts(standIn, TEXT.engine),
    court: textCourt,
    attacker: textSurge.attack,
    allowedChats: TEXT.startsPerDay,
    allowedTurns: Math.min(TEXT.turnsPerDay, TEXT.turnsPerMinute * (minutesRun + 1)),
    textSpend: Number(/** @type {{ text?: { spendUsd?: unknown } }} */ (today).text?.spendUsd ?? 0),
    closed: closedAt !== Infinity,
  },
};
loopDelay.disable();
for (const line of tableLines(surgeRows(outcome))) console.log(line);
console.log(
  `  This script's own event loop late p50 / p99 / max: ${(loopDelay.percentile(50) / 1e6).toFixed(0)} / ` +
    `${(loopDelay.percentile(99) / 1e6).toFixed(0)} / ${(loopDelay.max / 1e6).toFixed(0)} ms`,
);
console.log(`  Processor time in the viral minute: ${viralCpu}`);
for (const odd of records.oddAnswers) console.log(`  (an answer without a problem code: ${odd})`);
const day = DAY.outcome({ today, startedAtMs, arrivals, textSurge, records });
for (const line of day.lines) console.log(line);
const failures = [...surgeFailures(outcome), ...day.failures];
for (const failure of failures) console.error(`surge: FAILED: ${failure}`);
console.log(surgeLine(outcome));
await shutdown(failures.length > 0 ? 1 : 0);
