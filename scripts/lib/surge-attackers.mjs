// The surge's bad actors: a scripted abuser on one address, attackers with valid bot tokens that
// rotate addresses inside one network, a junk flood in bursts, and a silent ticket near the head
// of the line. Each runs until told to stop and keeps its own record for the table.
import { hasTicket } from './surge-visitors.mjs';

/** @typedef {import('./surge-visitors.mjs').SurgeParty} SurgeParty */
/** @typedef {import('./surge-visitors.mjs').GateAnswer} GateAnswer */
/** @typedef {import('./surge-visitors.mjs').Ticket} Ticket */
/** @typedef {ReturnType<typeof import('./surge-visitors.mjs').surgeVisitors>} Visitors */
/** @typedef {{ requests: number, admitted: number, statuses: Record<number, number> }} AbuserRecord */
/** @typedef {{ label: string, tries: number, admitted: number, statuses: Record<number, number> }} AttackerRecord */
/** @typedef {{ requests: number, statuses: Record<number, number>, bursts: { from: number, to: number }[] }} FloodRecord */
/** @typedef {{ position: number | string | null, checkedIn: number | null }} SilentRecord */

/** A fresh flag: a party runs while it is up. */
export const running = () => ({ on: true });

/**
 * The abuser: one address, no patience, no manners. It reuses its ticket, checks in faster than
 * asked, and starts without a bot token.
 * @param {SurgeParty & { took: Visitors['took'], everyMs: number, while: { on: boolean } }} party
 * @param {AbuserRecord} record
 */
export async function abuse({ call, agents, sleep, token, took, everyMs, while: until }, record) {
  const from = '198.19.255.1';
  /** @type {Ticket | null} */
  let ticket = null;
  let round = 0;
  /** @param {GateAnswer} answer */
  const count = (answer) => {
    record.requests += 1;
    record.statuses[answer.status] = (record.statuses[answer.status] ?? 0) + 1;
    if (answer.status === 201 || answer.body?.code === 'provider-error') took(0, answer);
    if (answer.status === 201) record.admitted += 1;
  };
  while (until.on) {
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
        body: { botCheckToken: token },
        agent: agents.abuser,
      });
      count(answer);
      if (hasTicket(answer)) ticket = answer.body.ticket;
    }
    await sleep(everyMs);
  }
}

/**
 * An attacker with valid bot tokens and a fresh address each try, all inside one network: its
 * tickets are followed as a live visitor's, so every place it could win, it wins.
 * @param {SurgeParty & {
 *   took: Visitors['took'],
 *   followTicket: Visitors['followTicket'],
 *   everyMs: number,
 *   while: { on: boolean },
 * }} party
 * @param {string} label the network, for the table: '/64' or '/24'
 * @param {(n: number) => string} addressOf the address of the n-th try
 */
export function attacker(party, label, addressOf) {
  const { call, agents, sleep, token, took, followTicket, everyMs, while: until } = party;
  /** @type {AttackerRecord} */
  const record = { label, tries: 0, admitted: 0, statuses: {} };
  /** @type {Promise<void>[]} */
  const followed = [];
  const run = async () => {
    let n = 0;
    while (until.on) {
      n += 1;
      const from = addressOf(n);
      const answer = await call('POST', '/api/calls', {
        address: from,
        body: { botCheckToken: token },
        agent: agents.attackers,
      });
      record.tries += 1;
      record.statuses[answer.status] = (record.statuses[answer.status] ?? 0) + 1;
      if (answer.status === 201 || answer.body?.code === 'provider-error') took(0, answer);
      if (answer.status === 201) record.admitted += 1;
      if (hasTicket(answer)) {
        followed.push(
          followTicket(answer, from, { agent: agents.attackers }).then((outcome) => {
            if (outcome.ended === 'admitted') record.admitted += 1;
          }),
        );
      }
      await sleep(everyMs);
    }
    await Promise.all(followed);
  };
  return { record, run };
}

/** @param {number} n */
const hex = (n) => (n % 0xffff).toString(16);
/** 2001:db8:64:1::/64, a fresh interface id each try. @param {number} n */
export const inOneIpv6Network = (n) => `2001:db8:64:1:${hex(n)}:${hex(n * 7)}:${hex(n * 13)}:1`;
/** 198.51.100.0/24, a fresh address each try (254 of them, then round again). @param {number} n */
export const inOneIpv4Network = (n) => `198.51.100.${(n % 254) + 1}`;

/**
 * Junk at the court's paths: starts without a token, made-up tickets (checked in and left),
 * ratings of made-up calls, from addresses that change with every request. Bursts of `burstMs`
 * on, then as long off (off first: the court's load without the flood), until told to stop.
 * @param {SurgeParty & { burstMs: number, sockets: number, while: { on: boolean } }} party
 * @param {FloodRecord} record
 */
export async function junkFlood(party, record) {
  const { call, agents, random, sleep, burstMs, sockets, while: until } = party;
  let flooding = false;
  const junkId = () => {
    let id = '';
    while (id.length < 22) id += Math.floor(random() * 2 ** 31).toString(36);
    return id.slice(0, 22);
  };
  /** @param {number} lane */
  async function junkLoop(lane) {
    let n = 0;
    while (until.on) {
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
      record.requests += 1;
      record.statuses[answer.status] = (record.statuses[answer.status] ?? 0) + 1;
    }
  }
  async function bursts() {
    let on = false;
    while (until.on) {
      if (on) record.bursts.push({ from: Date.now(), to: Date.now() + burstMs });
      flooding = on;
      await sleep(burstMs);
      on = !on;
    }
    flooding = false;
  }
  await Promise.all([bursts(), ...Array.from({ length: sockets }, (_, i) => junkLoop(i))]);
}

/**
 * A ticket near the head of the line that checks in once as a hidden page, then never again:
 * given once the first places are taken, so it stands near the front.
 * @param {SurgeParty & {
 *   took: Visitors['took'],
 *   lineFormed: () => boolean,
 *   began: number,
 *   arrivalMs: number,
 * }} party
 * @param {SilentRecord} record
 */
export async function silentTicket(party, record) {
  const { call, agents, sleep, token, took, lineFormed, began, arrivalMs } = party;
  while (!lineFormed() && performance.now() - began < arrivalMs) await sleep(10);
  const from = '192.0.2.77';
  const first = await call('POST', '/api/calls', {
    address: from,
    body: { botCheckToken: token },
    agent: agents.attackers,
  });
  if (!hasTicket(first)) {
    record.position = `not in line (${first.status})`;
    if (first.status === 201) took(0, first);
    return;
  }
  record.position = first.body.ticket.position;
  await sleep(first.retryAfter * 1000);
  const hidden = await call('POST', `/api/tickets/${first.body.ticket.id}?hidden=true`, {
    address: from,
    headers: { 'ticket-secret': first.body.ticket.secret },
    agent: agents.attackers,
  });
  record.checkedIn = hidden.status;
  if (hidden.status === 201) took(first.retryAfter, hidden);
}
