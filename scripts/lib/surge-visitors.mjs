// The surge's visitors: each asks for a call, follows its ticket at the pace asked, and is
// admitted, refused, or gives up (leaves the line, or abandons it by no longer checking in). What
// they met is recorded here for the measures and the table.

/** @typedef {import('./surge-gate.mjs').GateAnswer} GateAnswer */
/** @typedef {import('./surge-gate.mjs').GateRequest} GateRequest */
/** @typedef {import('./surge-gate.mjs').SurgeAgents} SurgeAgents */
/** @typedef {(method: string, path: string, request?: GateRequest) => Promise<GateAnswer>} GateCall */
/** @typedef {{ id: string, secret: string, position: number }} Ticket */

/**
 * @typedef {{
 *   call: GateCall,
 *   agents: SurgeAgents,
 *   random: () => number,
 *   sleep: (ms: number) => Promise<void>,
 *   token: string,
 * }} SurgeParty
 * What every party to the surge shares: the gate, its sockets, the seeded generator, and the bot
 * check's dummy token.
 */

/**
 * @typedef {{ ended: 'patience', ticket: Ticket, issuedAt: number, dueAt: number }
 *   | { ended: 'admitted', ticket: Ticket, answer: GateAnswer }
 *   | { ended: 'refused', answer: GateAnswer, ticket: Ticket }} TicketOutcome
 */

/**
 * How late past its Retry-After a check-in may come and its ticket still count as live: the
 * line's own (LIVE_SLACK_MS in gate/src/calls/line.ts, which a test holds this to).
 */
export const LIVE_SLACK_MS = 1000;

/**
 * A small seeded generator (the 31-bit LCG), so a run can be repeated: numbers in [0, 1).
 * Math.imul keeps the product exact; a plain multiplication passes 2^53, loses its low bits, and
 * falls into a short cycle.
 * @param {number} seed
 */
export function seededRandom(seed) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) & 0x7fffffff;
    return state / 2 ** 31;
  };
}

/** What the visitors met, for the measures and the table. */
export function surgeRecords() {
  return {
    tally: {
      arrived: 0,
      admittedAtOnce: 0,
      admittedAfterWaiting: 0,
      left: 0,
      abandoned: 0,
      ticketGone: 0,
      transportErrors: 0,
      /** @type {Record<string, number>} */
      refused: {},
    },
    /** Tickets found gone at check-in, by the ten seconds of the run they were found in. */
    /** @type {Record<number, number>} */
    goneAt: {},
    /** The gate's time for each visitor's request, ms. */
    /** @type {number[]} */
    latencies: [],
    /** The time each visitor's request took as seen here, queueing included, ms. */
    /** @type {number[]} */
    seen: [],
    /** Each admitted visitor's wait in line, s. */
    /** @type {number[]} */
    waits: [],
    /** Up to three answers without a problem code, for the table's notes. */
    /** @type {string[]} */
    oddAnswers: [],
    /** When each visitor arrived (epoch ms). */
    /** @type {number[]} */
    arrivedAt: [],
    /** When live visitors (checking in as asked) joined (+1) or left (-1) the line. */
    /** @type {{ at: number, delta: number }[]} */
    liveChanges: [],
    /**
     * Every place the court filled: when the request that filled it was sent and answered, the
     * check-in interval of the visitor who sent it, when their ticket was issued and how long
     * their check-in before took to answer (none when admitted at once).
     */
    /** @type {{ at: number, answeredAt: number, intervalS: number, issuedAt?: number, previousAnswerMs?: number }[]} */
    placesTaken: [],
    /**
     * Tickets whose visitors stopped checking in: when their ticket was issued, when they stopped,
     * and when the gate stops counting them live (their due check-in passed, or their leave was
     * heard).
     */
    /** @type {{ issuedAt: number, at: number, dueAt: number }[]} */
    silentTickets: [],
  };
}

/** @typedef {ReturnType<typeof surgeRecords>} SurgeRecords */

/**
 * The visitors and their tickets.
 * @param {SurgeParty & {
 *   records: SurgeRecords,
 *   addresses: number,
 *   leaveShare: number,
 *   abandonShare: number,
 *   began: number,
 *   finish: () => void,
 *   admitted?: (n: number, ms: number) => void,
 *   turnedAway?: (n: number, from: string, arrivedAt: number) => Promise<void> | null,
 *   microphones?: {
 *     draw: () => import('./surge-microphones.mjs').FailedMicrophone | null,
 *     admitted: (kind: import('./surge-microphones.mjs').FailedMicrophone, answer: GateAnswer, from: string) => void,
 *   },
 * }} party `began`: the run's start (performance.now()); `finish`: called once a visitor is done;
 *   `admitted`: told of a visitor admitted at once, with the ms since they arrived; `turnedAway`:
 *   told of a visitor the court did not admit at once (full, or a ticket), what they do meanwhile;
 *   `microphones`: whose microphone fails, and what their page does with the place once admitted
 *   (surge-microphones.mjs)
 */
export function surgeVisitors({
  call,
  agents,
  random,
  sleep,
  token,
  records,
  addresses,
  leaveShare,
  abandonShare,
  began,
  finish,
  admitted,
  turnedAway,
  microphones,
}) {
  const { tally, goneAt, latencies, seen, waits, oddAnswers, arrivedAt } = records;
  /** @param {GateAnswer} answer */
  const refuse = (answer) => {
    if (answer.status === 0) {
      tally.transportErrors += 1;
      return;
    }
    const code = answer.body?.code ?? `http-${answer.status}`;
    if (!answer.body?.code && oddAnswers.length < 3) oddAnswers.push(JSON.stringify(answer.body));
    tally.refused[code] = (tally.refused[code] ?? 0) + 1;
  };
  // Each address in its own /24: the visitors are strangers, not one network.
  /** @param {number} n */
  const address = (n) => `10.${Math.floor(n / 256) % 256}.${n % 256}.1`;
  /** @param {number} delta */
  const live = (delta) => records.liveChanges.push({ at: Date.now(), delta });
  /**
   * A place taken by the request that just answered, from a visitor who was checking in every
   * `intervalS` (0: at once) on a ticket issued at `issuedAt`; counted from when the visitor sent
   * it, not from its answer.
   * @param {number} intervalS
   * @param {GateAnswer} answer
   * @param {number} [issuedAt]
   * @param {number} [previousAnswerMs] how long the visitor's check-in before it took to answer
   */
  const took = (intervalS, answer, issuedAt, previousAnswerMs) => {
    const answeredAt = Date.now();
    records.placesTaken.push({
      at: answeredAt - answer.waitedMs,
      answeredAt,
      intervalS,
      ...(issuedAt === undefined ? {} : { issuedAt }),
      ...(previousAnswerMs === undefined ? {} : { previousAnswerMs }),
    });
  };

  /**
   * A ticket followed as a live visitor follows it: check in with its secret, from the address it
   * was given to, at the pace asked, until admitted, refused or out of patience. Says how it ended.
   * @param {GateAnswer & { body: { ticket: Ticket } }} first the answer that gave the ticket
   * @param {string} from
   * @param {{ patienceMs?: number, agent?: import('node:http').Agent }} [options]
   * @returns {Promise<TicketOutcome>}
   */
  async function followTicket(first, from, { patienceMs = Infinity, agent = agents.line } = {}) {
    const ticket = first.body.ticket;
    const proof = { 'ticket-secret': ticket.secret };
    const since = performance.now();
    const issuedAt = Date.now();
    let retryAfter = first.retryAfter;
    // When the gate stops counting the ticket live if it is not checked in again: its
    // Retry-After from the last answer, and the line's slack (LIVE_SLACK_MS, gate/src/calls/line.ts).
    let dueAt = issuedAt + retryAfter * 1000 + LIVE_SLACK_MS;
    // The last answer's time, as seen here: the next check-in is timed from its arrival, so a slow
    // answer spaces the check-ins out by as much (a page does the same).
    let lastAnswerMs = first.waitedMs;
    live(1);
    for (;;) {
      const waitMs = retryAfter * 1000 + random() * 250;
      if (performance.now() - since + waitMs > patienceMs) {
        await sleep(Math.max(0, patienceMs - (performance.now() - since)));
        live(-1);
        return { ended: 'patience', ticket, issuedAt, dueAt };
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
        dueAt = Date.now() + retryAfter * 1000 + LIVE_SLACK_MS;
        lastAnswerMs = answer.waitedMs;
        continue;
      }
      live(-1);
      // Admitted, or admitted and then let down by the provider: either way a place was taken.
      if (answer.status === 201 || answer.body?.code === 'provider-error') {
        took(retryAfter, answer, issuedAt, lastAnswerMs);
      }
      if (answer.status === 201) {
        waits.push((performance.now() - since) / 1000);
        return { ended: 'admitted', ticket, answer };
      }
      return { ended: 'refused', answer, ticket };
    }
  }

  /** @param {number} n */
  async function visitor(n) {
    const from = address(n % addresses);
    const temper = random();
    const gives =
      temper < leaveShare ? 'leave' : temper < leaveShare + abandonShare ? 'abandon' : 'stay';
    const patienceMs = 5000 + random() * 35_000;
    const microphone = microphones?.draw() ?? null;
    tally.arrived += 1;
    arrivedAt.push(Date.now());
    const arrived = performance.now();
    const first = await call('POST', '/api/calls', {
      address: from,
      body: { botCheckToken: token },
      agent: agents.arrive,
    });
    latencies.push(first.ms);
    seen.push(first.waitedMs);
    if (first.status === 201 || first.body?.code === 'provider-error') took(0, first);
    if (first.status === 201) {
      tally.admittedAtOnce += 1;
      admitted?.(n, performance.now() - arrived);
      if (microphone) microphones?.admitted(microphone, first, from);
      return finish();
    }
    // Turned away from voice for now: what the visitor does meanwhile (text with Pepa) goes on
    // beside their ticket, and the visitor is done when both are.
    const meanwhile = turnedAway?.(n, from, arrived) ?? null;
    if (!hasTicket(first)) {
      refuse(first);
      await meanwhile;
      return finish();
    }
    const outcome = await followTicket(first, from, {
      patienceMs: gives === 'stay' ? Infinity : patienceMs,
    });
    if (outcome.ended === 'patience') {
      if (gives === 'leave') {
        const leftAt = Date.now();
        const left = await call('DELETE', `/api/tickets/${outcome.ticket.id}`, {
          address: from,
          headers: { 'ticket-secret': outcome.ticket.secret },
        });
        latencies.push(left.ms);
        seen.push(left.waitedMs);
        tally.left += 1;
        // Until the gate has heard the leave (or the ticket's due check-in passed), the line still
        // counts it live: a place may wait for it as for one gone silent.
        records.silentTickets.push({
          issuedAt: outcome.issuedAt,
          at: leftAt,
          dueAt: Math.min(outcome.dueAt, Date.now()),
        });
      } else {
        tally.abandoned += 1;
        records.silentTickets.push({
          issuedAt: outcome.issuedAt,
          at: Date.now(),
          dueAt: outcome.dueAt,
        });
      }
    } else if (outcome.ended === 'admitted') {
      tally.admittedAfterWaiting += 1;
      if (microphone) microphones?.admitted(microphone, outcome.answer, from);
    } else if (outcome.answer.status === 404) {
      tally.ticketGone += 1;
      const bucket = Math.floor((performance.now() - began) / 10_000) * 10;
      goneAt[bucket] = (goneAt[bucket] ?? 0) + 1;
    } else {
      refuse(outcome.answer);
    }
    await meanwhile;
    return finish();
  }

  return { visitor, followTicket, took };
}

/**
 * The gate put the request in line (202) and gave its ticket.
 * @param {GateAnswer} answer
 * @returns {answer is GateAnswer & { body: { ticket: Ticket } }}
 */
export function hasTicket(answer) {
  return answer.status === 202 && answer.body?.ticket !== undefined;
}
