// `npm run surge`: the day Pepa goes viral, measured against a local court (the gate in workerd in
// front of the provider stand-in and Prism, scripts/lib/court-stack.mjs), on loopback only. It
// builds nothing (the gate serves an empty folder) and stops by itself.
//
// 10,000 visitors arrive within 60 s from 2,000 addresses. Each asks for a call with the bot
// check's dummy token, follows Retry-After to check in, and is admitted, refused, or gives up:
// some leave the line, some abandon it (stop checking in). One scripted abuser reuses a ticket,
// checks in faster than asked, and hammers without a bot token. Two attackers with valid bot
// tokens rotate addresses, one inside a single IPv6 /64 and one inside a single IPv4 /24, and
// follow their tickets as a live visitor would. A junk flood (starts without a token, made-up
// tickets, ratings of made-up calls) hits the court's paths in five-second bursts through the
// viral minute, so the court's load with and without it can be compared in the same run. One
// ticket near the head of the line checks in once as a hidden page, then falls silent. The
// stand-in's calls last 30–180 s (compressed in time), 5 % of them never send their server
// messages, so the gate's backstop must free their places, and 2 % of its answers to
// `POST /call/web` come after the gate stopped waiting (the call still runs).
//
// Every request the court itself hears is counted (the report's courtLoad), and printed per
// second (p50, max) beside the arrivals per second.
//
// It prints a table and ends with one line:
//   surge: peak P/L concurrent, admitted A, waited W, refused R, leaked K, spend S/C USD,
//   abuser admitted X, /64 admitted Y/A64, /24 admitted Z/A24, idle place I s (allowed J s),
//   court N req/s with the flood / M without, p95 gate V ms, p95 wait T s
// and exits non-zero when the peak passed the limit, a place leaked, the spend passed the cap,
// the abuser or an attacker got past its allowance, a place sat idle longer than its live
// visitors' check-in interval, or the flood more than doubled the court's load.
//
// Options (environment): SURGE_VISITORS (10000), SURGE_ADDRESSES (2000), SURGE_ARRIVAL_SECONDS
// (60), SURGE_TIME_SCALE (10: provider seconds per real second), SURGE_SEED, SURGE_FLOOD (1; 0
// for none), and the gate's GATE_* limits (GATE_MAX_CONCURRENT_CALLS, GATE_DAILY_BUDGET_USD,
// GATE_MAX_WAIT_MINUTES: the owner's 15 minutes, compressed like the calls, by default, …).
import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from './lib/prism.mjs';
import { startCourtStack } from './lib/court-stack.mjs';

const numberFrom = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`surge: ${name} must be a positive number (got "${raw}")`);
    process.exit(2);
  }
  return value;
};

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
/**
 * How late past its check-in interval a live visitor may take a freed place: the line's own
 * slack for a late check-in (LIVE_SLACK_MS in gate/src/line.ts) and this script's jitter.
 */
const IDLE_SLACK_S = 1.25;
const TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
const LEAVE_SHARE = 0.1;
const ABANDON_SHARE = 0.1;
/** Requests to the gate at once, at most: Node's own concurrency stays bounded. */
const SOCKETS = 48;
const ABUSER_EVERY_MS = 100;

// A small seeded generator, so a run can be repeated.
let seed = numberFrom('SURGE_SEED', Date.now() % 2 ** 31);
const firstSeed = seed;
function random() {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
}

const gateMaxCallSeconds = Math.max(10, Math.round(MAX_CALL_SECONDS / SCALE));
const timeScale = MAX_CALL_SECONDS / gateMaxCallSeconds;
const MAX_WAIT_MINUTES = numberFrom(
  'GATE_MAX_WAIT_MINUTES',
  Math.max(1, Math.round(15 / timeScale)),
);
const vars = {
  GATE_MAX_CONCURRENT_CALLS: LIMIT,
  GATE_DAILY_BUDGET_USD: CAP,
  // Time runs SCALE times faster: a call's limit shrinks, and a real minute costs SCALE minutes.
  GATE_MAX_CALL_SECONDS: gateMaxCallSeconds,
  GATE_COST_PER_MINUTE_USD: RATE * (MAX_CALL_SECONDS / gateMaxCallSeconds),
  GATE_MAX_WAIT_MINUTES: MAX_WAIT_MINUTES,
};

const assets = mkdtempSync(join(tmpdir(), 'pepa-surge-assets-'));
const [sitePort, mockPort] = [await findFreePort(), await findFreePort()];
console.log(
  `surge: ${VISITORS} visitors from ${ADDRESSES} addresses within ${ARRIVAL_MS / 1000} s, ` +
    `limit ${LIMIT}, cap $${CAP}, wait limit ${MAX_WAIT_MINUTES} min, time ×${timeScale}, ` +
    `flood ${FLOOD ? 'on' : 'off'}, seed ${firstSeed}`,
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
  },
});
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  rmSync(assets, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));

const gate = new URL(stack.url);
// Arrivals, check-ins, the abuser and the owner each queue for their own sockets: one visitor's
// check-in does not wait behind thousands of strangers' arrivals in this script (it still does
// in the gate, as it would on the day).
const agents = {
  arrive: new Agent({ keepAlive: true, maxSockets: SOCKETS / 2 }),
  line: new Agent({ keepAlive: true, maxSockets: SOCKETS / 2 }),
  abuser: new Agent({ keepAlive: true, maxSockets: 2 }),
  attackers: new Agent({ keepAlive: true, maxSockets: 4 }),
  flood: new Agent({ keepAlive: true, maxSockets: FLOOD_SOCKETS }),
  owner: new Agent({ keepAlive: true, maxSockets: 4 }),
};

/** One request to the gate: its status, Retry-After, body and how long it took. */
function call(method, path, { address, body, headers = {}, agent = agents.line } = {}) {
  return new Promise((resolveCall) => {
    const queued = performance.now();
    // The gate's latency counts from when a connection takes the request, not from when it
    // waited for one of this script's bounded sockets.
    let started = queued;
    const text = body === undefined ? undefined : JSON.stringify(body);
    const out = httpRequest(
      {
        host: gate.hostname,
        port: gate.port,
        method,
        path,
        agent,
        headers: {
          ...(address ? { 'cf-connecting-ip': address } : {}),
          ...(text === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }),
          ...headers,
        },
      },
      (answer) => {
        const chunks = [];
        answer.on('data', (chunk) => chunks.push(chunk));
        answer.on('end', () => {
          const answerText = Buffer.concat(chunks).toString('utf8');
          let parsed = null;
          try {
            parsed = JSON.parse(answerText || 'null');
          } catch {
            // Not the gate's JSON: kept (briefly) for the table's notes.
            parsed = { text: answerText.slice(0, 160) };
          }
          const result = {
            status: answer.statusCode ?? 0,
            retryAfter: Number(answer.headers['retry-after'] ?? '1') || 1,
            body: parsed,
            ms: performance.now() - started,
            waitedMs: performance.now() - queued,
          };
          noteAnswer(result);
          resolveCall(result);
        });
      },
    );
    out.once('socket', () => {
      started = performance.now();
    });
    out.on('error', (error) =>
      resolveCall({
        status: 0,
        retryAfter: 1,
        body: { error: error.message },
        ms: performance.now() - started,
        waitedMs: performance.now() - queued,
      }),
    );
    out.end(text);
  });
}

/** Tickets found gone at check-in, by the ten seconds of the run they were found in. */
const goneAt = {};
const latencies = [];
const seen = [];
const waits = [];
const tally = {
  arrived: 0,
  admittedAtOnce: 0,
  admittedAfterWaiting: 0,
  left: 0,
  abandoned: 0,
  ticketGone: 0,
  transportErrors: 0,
  refused: {},
};
const oddAnswers = [];
const refuse = (answer) => {
  if (answer.status === 0) {
    tally.transportErrors += 1;
    return;
  }
  const code = answer.body?.code ?? `http-${answer.status}`;
  if (!answer.body?.code && oddAnswers.length < 3) oddAnswers.push(JSON.stringify(answer.body));
  tally.refused[code] = (tally.refused[code] ?? 0) + 1;
};
let unresolved = VISITORS;
let resolveAll;
const allDone = new Promise((done) => (resolveAll = done));
const finish = () => {
  unresolved -= 1;
  if (unresolved === 0) resolveAll();
};
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
// Each address in its own /24: the visitors are strangers, not one network.
const address = (n) => `10.${Math.floor(n / 256) % 256}.${n % 256}.1`;

/**
 * What the places are measured by: when live visitors (checking in as asked) stood in line,
 * and every place the court filled, with the check-in interval of the visitor who filled it.
 */
const liveChanges = [];
const live = (delta) => liveChanges.push({ at: Date.now(), delta });
const placesTaken = [];
/**
 * A place taken by the request that just answered, from a visitor who was checking in every
 * `intervalS` (0: at once); counted from when the visitor sent it, not from its answer.
 */
const took = (intervalS, answer) =>
  placesTaken.push({ at: Date.now() - answer.waitedMs, intervalS });
/** When the court first said its day's budget is spent: places idle after it are its choice. */
let closedAt = Infinity;
/** A line has formed: some visitor was given a ticket. */
let lineFormed = false;
const noteAnswer = (answer) => {
  if (answer.body?.code === 'court-closed') closedAt = Math.min(closedAt, Date.now());
  if (answer.status === 202) lineFormed = true;
};

/**
 * A ticket followed as a live visitor follows it: check in with its secret, from the address it
 * was given to, at the pace asked, until admitted, refused or out of patience. Says how it ended.
 */
async function followTicket(first, from, { patienceMs = Infinity, agent = agents.line } = {}) {
  const ticket = first.body.ticket;
  const proof = { 'ticket-secret': ticket.secret };
  const since = performance.now();
  let retryAfter = first.retryAfter;
  live(1);
  for (;;) {
    const waitMs = retryAfter * 1000 + random() * 250;
    if (performance.now() - since + waitMs > patienceMs) {
      await sleep(Math.max(0, patienceMs - (performance.now() - since)));
      live(-1);
      return { ended: 'patience', ticket };
    }
    await sleep(waitMs);
    const answer = await call('POST', `/api/tickets/${ticket.id}`, {
      address: from,
      headers: proof,
      agent,
    });
    latencies.push(answer.ms);
    seen.push(answer.waitedMs);
    if (answer.status === 200 || answer.status === 429) {
      retryAfter = answer.retryAfter;
      continue;
    }
    live(-1);
    // Admitted, or admitted and then let down by the provider: either way a place was taken.
    if (answer.status === 201 || answer.body?.code === 'provider-error') {
      took(retryAfter, answer);
    }
    if (answer.status === 201) {
      waits.push((performance.now() - since) / 1000);
      return { ended: 'admitted', ticket };
    }
    return { ended: 'refused', answer, ticket };
  }
}

async function visitor(n) {
  const from = address(n % ADDRESSES);
  const temper = random();
  const gives =
    temper < LEAVE_SHARE ? 'leave' : temper < LEAVE_SHARE + ABANDON_SHARE ? 'abandon' : 'stay';
  const patienceMs = 5000 + random() * 35_000;
  tally.arrived += 1;
  arrivedAt.push(Date.now());
  const first = await call('POST', '/api/calls', {
    address: from,
    body: { botCheckToken: TOKEN },
    agent: agents.arrive,
  });
  latencies.push(first.ms);
  seen.push(first.waitedMs);
  if (first.status === 201 || first.body?.code === 'provider-error') took(0, first);
  if (first.status === 201) {
    tally.admittedAtOnce += 1;
    return finish();
  }
  if (first.status !== 202) {
    refuse(first);
    return finish();
  }
  const outcome = await followTicket(first, from, {
    patienceMs: gives === 'stay' ? Infinity : patienceMs,
  });
  if (outcome.ended === 'patience') {
    if (gives === 'leave') {
      const left = await call('DELETE', `/api/tickets/${outcome.ticket.id}`, {
        address: from,
        headers: { 'ticket-secret': outcome.ticket.secret },
      });
      latencies.push(left.ms);
      seen.push(left.waitedMs);
      tally.left += 1;
    } else {
      tally.abandoned += 1;
    }
  } else if (outcome.ended === 'admitted') {
    tally.admittedAfterWaiting += 1;
  } else if (outcome.answer.status === 404) {
    tally.ticketGone += 1;
    const bucket = Math.floor((performance.now() - began) / 10_000) * 10;
    goneAt[bucket] = (goneAt[bucket] ?? 0) + 1;
  } else {
    refuse(outcome.answer);
  }
  return finish();
}

// The abuser: one address, no patience, no manners.
const abuser = { requests: 0, admitted: 0, statuses: {} };
let abuserRunning = true;
async function abuse() {
  const from = '198.19.255.1';
  let ticket = null;
  let round = 0;
  const count = (answer) => {
    abuser.requests += 1;
    abuser.statuses[answer.status] = (abuser.statuses[answer.status] ?? 0) + 1;
    if (answer.status === 201 || answer.body?.code === 'provider-error') took(0, answer);
    if (answer.status === 201) abuser.admitted += 1;
  };
  while (abuserRunning) {
    round += 1;
    if (round % 3 === 0) {
      // Without a bot token, or with an empty one.
      count(
        await call('POST', '/api/calls', {
          address: from,
          body: round % 2 ? {} : { botCheckToken: '' },
          agent: agents.abuser,
        }),
      );
    } else if (ticket && round % 3 === 1) {
      // The same ticket again and again, never waiting as asked (and after it was admitted).
      count(
        await call('POST', `/api/tickets/${ticket.id}`, {
          address: from,
          headers: { 'ticket-secret': ticket.secret },
          agent: agents.abuser,
        }),
      );
    } else {
      const answer = await call('POST', '/api/calls', {
        address: from,
        body: { botCheckToken: TOKEN },
        agent: agents.abuser,
      });
      count(answer);
      if (answer.status === 202) ticket = answer.body.ticket;
    }
    await sleep(ABUSER_EVERY_MS);
  }
}

/**
 * An attacker with valid bot tokens and a fresh address each try, all inside one network: its
 * tickets are followed as a live visitor's, so every place it could win, it wins.
 */
function attacker(label, addressOf) {
  const record = { label, tries: 0, admitted: 0, statuses: {} };
  const followed = [];
  const run = async () => {
    let n = 0;
    while (attackersRunning) {
      n += 1;
      const from = addressOf(n);
      const answer = await call('POST', '/api/calls', {
        address: from,
        body: { botCheckToken: TOKEN },
        agent: agents.attackers,
      });
      record.tries += 1;
      record.statuses[answer.status] = (record.statuses[answer.status] ?? 0) + 1;
      if (answer.status === 201 || answer.body?.code === 'provider-error') took(0, answer);
      if (answer.status === 201) record.admitted += 1;
      if (answer.status === 202) {
        followed.push(
          followTicket(answer, from, { agent: agents.attackers }).then((outcome) => {
            if (outcome.ended === 'admitted') record.admitted += 1;
          }),
        );
      }
      await sleep(ATTACKER_EVERY_MS);
    }
    await Promise.all(followed);
  };
  return { record, run };
}
let attackersRunning = true;
const hex = (n) => (n % 0xffff).toString(16);
// 2001:db8:64:1::/64, a fresh interface id each try.
const ipv6Attacker = attacker(
  '/64',
  (n) => `2001:db8:64:1:${hex(n)}:${hex(n * 7)}:${hex(n * 13)}:1`,
);
// 198.51.100.0/24, a fresh address each try (254 of them, then round again).
const ipv4Attacker = attacker('/24', (n) => `198.51.100.${(n % 254) + 1}`);

/**
 * Junk at the court's paths: starts without a token, made-up tickets (checked in and left),
 * ratings of made-up calls, from addresses that change with every request. Bursts of
 * FLOOD_BURST_MS on, then as long off, until the viral minute ends.
 */
const flood = { requests: 0, statuses: {}, bursts: [] };
let flooding = false;
let floodRunning = true;
const junkId = () => {
  let id = '';
  while (id.length < 22) id += Math.floor(random() * 2 ** 31).toString(36);
  return id.slice(0, 22);
};
async function junkLoop(lane) {
  let n = 0;
  while (floodRunning) {
    if (!flooding) {
      await sleep(50);
      continue;
    }
    n += 1;
    const from = `172.${16 + (lane % 16)}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
    const kind = n % 4;
    const answer =
      kind === 0
        ? await call('POST', '/api/calls', { address: from, body: {}, agent: agents.flood })
        : kind === 1
          ? await call('POST', `/api/tickets/${junkId()}`, {
              address: from,
              headers: { 'ticket-secret': junkId() },
              agent: agents.flood,
            })
          : kind === 2
            ? await call('DELETE', `/api/tickets/${junkId()}`, {
                address: from,
                headers: { 'ticket-secret': junkId() },
                agent: agents.flood,
              })
            : await call('POST', '/api/ratings', {
                address: from,
                body: { callId: junkId(), score: 'delighted' },
                agent: agents.flood,
              });
    flood.requests += 1;
    flood.statuses[answer.status] = (flood.statuses[answer.status] ?? 0) + 1;
  }
}
async function floodBursts() {
  // Off for the first burst (the court's load without the flood), then on and off in turn.
  let on = false;
  while (floodRunning) {
    if (on) flood.bursts.push({ from: Date.now(), to: Date.now() + FLOOD_BURST_MS });
    flooding = on;
    await sleep(FLOOD_BURST_MS);
    on = !on;
  }
  flooding = false;
}

/**
 * A ticket near the head of the line that checks in once as a hidden page, then never again:
 * given once the first places are taken, so it stands near the front.
 */
const silent = { position: null, checkedIn: null };
async function silentTicket() {
  while (!lineFormed && performance.now() - began < ARRIVAL_MS) await sleep(10);
  const from = '192.0.2.77';
  const first = await call('POST', '/api/calls', {
    address: from,
    body: { botCheckToken: TOKEN },
    agent: agents.attackers,
  });
  if (first.status !== 202) {
    silent.position = `not in line (${first.status})`;
    if (first.status === 201) took(0, first);
    return;
  }
  silent.position = first.body.ticket.position;
  await sleep(first.retryAfter * 1000);
  const hidden = await call('POST', `/api/tickets/${first.body.ticket.id}?hidden=true`, {
    address: from,
    headers: { 'ticket-secret': first.body.ticket.secret },
    agent: agents.attackers,
  });
  silent.checkedIn = hidden.status;
  if (hidden.status === 201) took(first.retryAfter, hidden);
}

const arrivedAt = [];
const began = performance.now();
const startedAtMs = Date.now();
const abuserDone = abuse();
const attackersDone = Promise.all([ipv6Attacker.run(), ipv4Attacker.run()]);
const floodDone = FLOOD
  ? Promise.all([floodBursts(), ...Array.from({ length: FLOOD_SOCKETS }, (_, i) => junkLoop(i))])
  : Promise.resolve();
const silentDone = silentTicket();
const arrivals = Array.from({ length: VISITORS }, () => random() * ARRIVAL_MS).sort(
  (a, b) => a - b,
);
const visits = [];
for (const [n, at] of arrivals.entries()) {
  const delay = at - (performance.now() - began);
  if (delay > 0) await sleep(delay);
  visits.push(visitor(n));
}
// The viral minute is over: the flood stops, and the court's load so far is read.
if (ARRIVAL_MS > performance.now() - began) await sleep(ARRIVAL_MS - (performance.now() - began));
floodRunning = false;
await floodDone;
const viralEndedAtMs = Date.now();
const loadReport = await call('GET', '/api/report?days=1', {
  headers: { authorization: `Bearer ${stack.secrets.GATE_ADMIN_TOKEN}` },
  agent: agents.owner,
});
await allDone;
await Promise.all(visits);
abuserRunning = false;
attackersRunning = false;
await Promise.all([abuserDone, attackersDone, silentDone]);
const linesDoneAt = (performance.now() - began) / 1000;

// Every call the provider started ends by itself; then the backstop gets its window.
const standIn = stack.standIn;
while (standIn.stats.active > 0) await sleep(500);
const lastStart = Math.max(0, ...[...standIn.calls.values()].map((c) => c.startedAt));
const backstopAt = lastStart + (gateMaxCallSeconds + GRACE_SECONDS + 6) * 1000;
if (backstopAt > Date.now()) await sleep(backstopAt - Date.now());

// Leaked: a place the gate still holds for a call that ended. Replaying `ended` for every call
// is harmless (applied once), and it frees exactly the places still held.
let leaked = 0;
for (const id of standIn.calls.keys()) {
  const answer = await call('POST', '/api/provider-events', {
    body: { message: { type: 'status-update', status: 'ended', call: { id } } },
    headers: { authorization: `Bearer ${stack.secrets.GATE_WEBHOOK_SECRET}` },
    agent: agents.owner,
  });
  if (answer.body?.applied === true) leaked += 1;
}
const report = await call('GET', '/api/report?days=1', {
  headers: { authorization: `Bearer ${stack.secrets.GATE_ADMIN_TOKEN}` },
  agent: agents.owner,
});
const today = report.body?.days?.[0] ?? {};
const spend = Number(today.spendUsd ?? NaN);
const providerCost = [...standIn.calls.values()].reduce((sum, c) => sum + (c.cost ?? 0), 0);
const elapsed = (performance.now() - began) / 1000;
for (const agent of Object.values(agents)) agent.destroy();

const percentile = (values, p) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const admitted = tally.admittedAtOnce + tally.admittedAfterWaiting;
const refusedTotal = Object.values(tally.refused).reduce((a, b) => a + b, 0);

// The court's load through the viral minute, second by second (its own count of what it heard),
// beside the arrivals; and in the seconds the flood was on against those it was off.
const load = loadReport.body?.courtLoad;
const loadFrom = load ? Math.floor(Date.parse(load.from) / 1000) : 0;
const viralSeconds = [];
for (let s = Math.ceil(startedAtMs / 1000); s < Math.floor(viralEndedAtMs / 1000); s += 1) {
  viralSeconds.push(s);
}
const heardIn = (s) => load?.requestsPerSecond?.[s - loadFrom] ?? 0;
const courtPerSecond = viralSeconds.map(heardIn);
const arrivalsPerSecond = viralSeconds.map(
  (s) => arrivedAt.filter((at) => Math.floor(at / 1000) === s).length,
);
const floodOn = (s) =>
  flood.bursts.some((burst) => s * 1000 >= burst.from && (s + 1) * 1000 <= burst.to);
const floodOff = (s) =>
  !flood.bursts.some((burst) => (s + 1) * 1000 > burst.from && s * 1000 < burst.to);
const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
// The first seconds fill the places at once: the comparison starts once the line formed.
const settled = viralSeconds.filter((s) => s * 1000 >= startedAtMs + FLOOD_BURST_MS);
const courtWithFlood = mean(settled.filter(floodOn).map(heardIn));
const courtWithoutFlood = mean(settled.filter(floodOff).map(heardIn));

// Idle places: each place the gate learnt was free (the end of a call it was told of, or the
// backstop's sweep for one it was not), while live visitors stood in line, until a visitor took
// it: the provider's next call (its own record, so an answer lost on the way here still counts).
// Matched in order: the first place freed is the first taken. A place taken from the line may
// sit idle as long as the check-in interval the gate gave the visitors who took places.
const liveAt = (() => {
  const changes = [...liveChanges].sort((a, b) => a.at - b.at);
  return (at) => {
    let n = 0;
    for (const change of changes) {
      if (change.at > at) break;
      n += change.delta;
    }
    return n;
  };
})();
// The backstop's sweep runs every 2 s: a place it frees goes within a second either side of this.
const SWEEP_S = 1;
const freed = [...standIn.calls.values()]
  .map((c) =>
    c.messagesLost || c.gateToldAt === null
      ? { at: c.startedAt + (gateMaxCallSeconds + GRACE_SECONDS + SWEEP_S) * 1000, by: 'backstop' }
      : { at: c.gateToldAt, by: 'message' },
  )
  .sort((a, b) => a.at - b.at);
const taken = [...standIn.calls.values()]
  .map((c) => ({ at: c.createdAt }))
  .sort((a, b) => a.at - b.at);
const takersInterval = Math.max(1, ...placesTaken.map((place) => place.intervalS));
let idleMax = 0;
let idleAllowed = 0;
let idleOver = 0;
let idleCounted = 0;
let idleWorst = '';
{
  // The places free before the first call: taken first, never idle with anyone waiting.
  let free = LIMIT;
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
    const idle = (place.at - at) / 1000;
    const allowed = takersInterval + IDLE_SLACK_S;
    idleCounted += 1;
    if (idle > idleMax) {
      idleMax = idle;
      idleAllowed = allowed;
      idleWorst = `freed by the ${by} at ${((at - startedAtMs) / 1000).toFixed(1)} s`;
    }
    if (idle > allowed) idleOver += 1;
  }
}
// What the per-visitor limits allow an attacker over the run: starts per window, per day.
const attackSeconds = elapsed;
const allowance = (perWindow) =>
  Math.min(STARTS_PER_DAY, perWindow * Math.max(1, Math.ceil(attackSeconds / WINDOW_SECONDS)));
const allowed64 = allowance(STARTS_PER_WINDOW);
const allowed24 = Math.max(
  allowed64,
  NETWORK_STARTS_PER_WINDOW * Math.max(1, Math.ceil(attackSeconds / WINDOW_SECONDS)),
);
const perSecond = (values) =>
  `${percentile(values, 50).toFixed(0)} / ${Math.max(0, ...values).toFixed(0)}`;
const rows = [
  ['Visitors arrived', tally.arrived],
  ['Admitted at once', tally.admittedAtOnce],
  ['Admitted after waiting', tally.admittedAfterWaiting],
  ...Object.entries(tally.refused)
    .sort()
    .map(([code, n]) => [`Refused: ${code}`, n]),
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
    `${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 95).toFixed(0)} / ${Math.max(0, ...latencies).toFixed(0)} ms`,
  ],
  [
    'Seen by visitors p50 / p95 (with queueing here)',
    `${percentile(seen, 50).toFixed(0)} / ${percentile(seen, 95).toFixed(0)} ms`,
  ],
  [
    'Wait in line p50 / p95',
    `${percentile(waits, 50).toFixed(1)} / ${percentile(waits, 95).toFixed(1)} s`,
  ],
  ['Provider calls created / ended', `${standIn.stats.created} / ${standIn.stats.ended}`],
  ['Provider messages lost (calls)', standIn.stats.dropped],
  ['Provider peak calls at once', `${standIn.stats.peak} (limit ${LIMIT})`],
  ['Provider cost (reported)', `$${providerCost.toFixed(2)}`],
  ['Gate spend today (spent + reserved)', `$${spend.toFixed(2)} (cap $${CAP})`],
  [
    'Gate calls / starts / waited',
    `${today.calls ?? '?'} / ${today.starts ?? '?'} / ${today.waited ?? '?'}`,
  ],
  ['Places leaked after the backstop', leaked],
  ['Abuser requests', abuser.requests],
  [
    'Abuser answers',
    Object.entries(abuser.statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(' '),
  ],
  ['Abuser admitted', `${abuser.admitted} (limit ${STARTS_PER_WINDOW} per window)`],
  ...[ipv6Attacker.record, ipv4Attacker.record].map(({ label, tries, statuses, admitted: n }) => [
    `Attacker in one ${label}: tries / answers / admitted`,
    `${tries} / ${Object.entries(statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')} / ${n} (allowance ${label === '/64' ? allowed64 : allowed24})`,
  ]),
  [
    'Junk flood: requests / answers',
    FLOOD
      ? `${flood.requests} / ${Object.entries(flood.statuses)
          .map(([status, count]) => `${status}×${count}`)
          .join(' ')}`
      : 'off',
  ],
  ['Silent ticket: position / its one hidden check-in', `${silent.position} / ${silent.checkedIn}`],
  ['Provider answers late (calls)', standIn.stats.late],
  ['Arrivals/s in the viral minute p50 / max', perSecond(arrivalsPerSecond)],
  ['Court requests/s in the viral minute p50 / max', perSecond(courtPerSecond)],
  [
    'Court requests/s with the flood / without (mean)',
    `${courtWithFlood.toFixed(1)} / ${courtWithoutFlood.toFixed(1)}`,
  ],
  [
    'Places idle with live visitors waiting: max / allowed',
    `${idleMax.toFixed(1)} s / ${idleAllowed.toFixed(1)} s (${idleCounted} places, ${idleOver} over; ` +
      `the longest ${idleWorst || '-'})`,
  ],
  ['Lines settled / run ended', `${linesDoneAt.toFixed(0)} s / ${elapsed.toFixed(0)} s`],
];
const width = Math.max(...rows.map(([label]) => label.length));
for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
for (const odd of oddAnswers) console.log(`  (an answer without a problem code: ${odd})`);

const failures = [];
if (standIn.stats.peak > LIMIT)
  failures.push(`peak ${standIn.stats.peak} above the limit ${LIMIT}`);
if (leaked > 0) failures.push(`${leaked} places leaked`);
if (!(spend <= CAP)) failures.push(`spend $${spend} above the cap $${CAP}`);
if (abuser.admitted > STARTS_PER_WINDOW)
  failures.push(`the abuser was admitted ${abuser.admitted} times`);
if (ipv6Attacker.record.admitted > allowed64)
  failures.push(`the /64 attacker was admitted ${ipv6Attacker.record.admitted} times`);
if (ipv4Attacker.record.admitted > allowed24)
  failures.push(`the /24 attacker was admitted ${ipv4Attacker.record.admitted} times`);
if (idleOver > 0) failures.push(`${idleOver} places idle past their visitors' check-in interval`);
if (!load) failures.push('the report gave no court load');
if (FLOOD && !(courtWithFlood <= 2 * courtWithoutFlood)) {
  failures.push(
    `the flood took the court from ${courtWithoutFlood.toFixed(1)} to ${courtWithFlood.toFixed(1)} requests/s`,
  );
}
for (const failure of failures) console.error(`surge: FAILED: ${failure}`);
console.log(
  `surge: peak ${standIn.stats.peak}/${LIMIT} concurrent, admitted ${admitted}, waited ${tally.admittedAfterWaiting}, ` +
    `refused ${refusedTotal}, leaked ${leaked}, spend ${spend.toFixed(2)}/${CAP} USD, ` +
    `abuser admitted ${abuser.admitted}, /64 admitted ${ipv6Attacker.record.admitted}/${allowed64}, ` +
    `/24 admitted ${ipv4Attacker.record.admitted}/${allowed24}, ` +
    `idle place ${idleMax.toFixed(1)} s (allowed ${idleAllowed.toFixed(1)} s), ` +
    `court ${courtWithFlood.toFixed(1)} req/s with the flood / ${courtWithoutFlood.toFixed(1)} without, ` +
    `court p50/max ${perSecond(courtPerSecond)} req/s beside arrivals ${perSecond(arrivalsPerSecond)}/s, ` +
    `p95 gate ${percentile(latencies, 95).toFixed(0)} ms, ` +
    `p95 wait ${percentile(waits, 95).toFixed(0)} s`,
);
await shutdown(failures.length > 0 ? 1 : 0);
