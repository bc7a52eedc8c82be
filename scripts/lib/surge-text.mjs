// Text with Pepa in the surge: visitors turned away from voice (the court full, or a ticket in
// line) choose text (most) or leave, and, with SURGE_CARD_SHARE, ask for a card of one of Pepa's
// replies; one attacker drives text from one IPv6 /64 with valid bot tokens. Each reply is read
// as a visitor's page reads it: as a stream, its first words timed (surge-stream.mjs).
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { firstMessage, LATER_MESSAGES } from './surge-openings.mjs';
import { FIRST_WORDS_WITHIN_MS, shareFrom } from './surge-options.mjs';
import { streamTurn } from './surge-stream.mjs';

/**
 * @typedef {{
 *   asked: number,
 *   chats: number,
 *   refusedStarts: Record<string, number>,
 *   turns: number,
 *   openings: number,
 *   refusedTurns: Record<string, number>,
 *   failedTurns: number,
 *   aborts: number,
 *   firstWordThroughGate: number[],
 *   cards: { asked: number, answers: Record<string, number> },
 * }} TextRecords
 * What the text visitors met: chats given, turns answered (`openings`: their chats' first
 * messages) and refused, replies stopped, each reply's first words through the gate (ms from
 * the message sent), and the cards they asked for (each answer by its status, or its problem).
 */

/**
 * Of the chats with a finished reply, the share whose visitor asks for a card of its last one
 * (SURGE_CARD_SHARE; none unless set, and then the seeded draws are as without it). A card is
 * drawn in the Worker, which locally shares workerd's one thread with every Durable Object: in
 * two 1,500-visitor runs, one at 0.1 (144 cards), the replies' first words p95 went from 0.9 s
 * to 3.6 s and those who heard Pepa within 5 s from 100 % to 59 %; on Cloudflare each card is
 * drawn in a Worker of its own.
 */
export const CARD_SHARE = shareFrom('SURGE_CARD_SHARE', 0);

/** @returns {TextRecords} */
export function textRecords() {
  return {
    asked: 0,
    chats: 0,
    refusedStarts: {},
    turns: 0,
    openings: 0,
    refusedTurns: {},
    failedTurns: 0,
    aborts: 0,
    firstWordThroughGate: [],
    cards: { asked: 0, answers: {} },
  };
}

/**
 * A visitor turned away from voice who chose text: they start a chat, send one to three
 * messages a few seconds apart, now and then stop a reply at its first words, with CARD_SHARE ask
 * for a card of Pepa's last finished reply (as the page's Share does), and end the chat.
 * Resolves with the ms from `arrivedAt` (performance.now()) to Pepa's first words, or null.
 * @param {{
 *   call: import('./surge-visitors.mjs').GateCall,
 *   gate: URL,
 *   agents: { start: import('node:http').Agent, stream: import('node:http').Agent },
 *   random: () => number,
 *   sleep: (ms: number) => Promise<void>,
 *   token: string,
 *   text: TextRecords,
 *   stopShare: number,
 *   onChat?: (chat: { id: string, secret: string }) => void,
 * }} party
 * @param {string} from
 * @param {number} arrivedAt
 * @returns {Promise<number | null>}
 */
export async function textVisit(party, from, arrivedAt) {
  const { call, gate, agents, random, sleep, token, text } = party;
  text.asked += 1;
  const started = await call('POST', '/api/chats', {
    address: from,
    body: { botCheckToken: token },
    agent: agents.start,
  });
  const chat = /** @type {{ chat?: { id: string, secret: string } } | null} */ (started.body)?.chat;
  if (started.status !== 201 || !chat) {
    const code = started.body?.code ?? `http-${started.status}`;
    text.refusedStarts[code] = (text.refusedStarts[code] ?? 0) + 1;
    return null;
  }
  text.chats += 1;
  party.onChat?.(chat);
  /** @type {number | null} */
  let firstWords = null;
  const turns = 1 + Math.floor(random() * 3);
  let opened = false;
  /** @type {number | undefined} */
  let lastRemark;
  for (let n = 0; n < turns; n += 1) {
    if (n > 0) await sleep(2000 + random() * 4000);
    const stop = random() < party.stopShare;
    const outcome = await streamTurn({
      gate,
      agent: agents.stream,
      from,
      chat,
      text: !opened
        ? firstMessage(random)
        : (LATER_MESSAGES[Math.floor(random() * LATER_MESSAGES.length)] ?? 'Hi'),
      stopAfterFirst: stop,
    });
    if (outcome.firstWordMs !== null && outcome.firstWordAt !== null) {
      text.firstWordThroughGate.push(outcome.firstWordMs);
      firstWords ??= outcome.firstWordAt - arrivedAt;
    }
    if (outcome.ended === 'refused' || outcome.ended === 'broken') {
      const code = outcome.code ?? `http-${outcome.status}`;
      text.refusedTurns[code] = (text.refusedTurns[code] ?? 0) + 1;
      if (outcome.status === 503 || outcome.status === 404) break;
      continue;
    }
    if (outcome.ended === 'failed') text.failedTurns += 1;
    else text.turns += 1;
    // The first message that reached Pepa is the chat's opening (done, or stopped at her words).
    if (!opened && outcome.ended !== 'failed') text.openings += 1;
    opened = true;
    if (outcome.ended === 'stopped') text.aborts += 1;
    if (outcome.ended === 'done') lastRemark = outcome.remark;
  }
  if (CARD_SHARE > 0 && lastRemark !== undefined && random() < CARD_SHARE) {
    text.cards.asked += 1;
    const card = await call('POST', '/api/cards', {
      address: from,
      body: { from: 'chat', conversationId: chat.id, remark: lastRemark },
      headers: { 'chat-secret': chat.secret },
      agent: agents.start,
    });
    const answer = card.body?.code ?? `http-${card.status}`;
    text.cards.answers[answer] = (text.cards.answers[answer] ?? 0) + 1;
  }
  await call('DELETE', `/api/chats/${chat.id}`, {
    address: from,
    headers: { 'chat-secret': chat.secret },
    agent: agents.start,
  });
  return firstWords;
}

/**
 * @typedef {{
 *   chats: number,
 *   turns: number,
 *   openings: number,
 *   statuses: Record<string, number>,
 *   stolen: Record<string, number>,
 * }} TextAttackerRecord
 * What the text attacker got: chats started, replies answered (`openings`: its chats' first
 * messages), every answer's status, and the
 * answers to messages sent on a chat taken from another visitor.
 */

/**
 * One attacker driving text from one IPv6 /64, rotating through it, with valid bot tokens: many
 * chats, messages as fast as it can (some far over the length limit), a chat id and secret taken
 * from another visitor, and starts without a bot token.
 * @param {{
 *   call: import('./surge-visitors.mjs').GateCall,
 *   gate: URL,
 *   agent: import('node:http').Agent,
 *   token: string,
 *   sleep: (ms: number) => Promise<void>,
 *   while: { on: boolean },
 *   stolen: () => { id: string, secret: string } | null,
 *   longText: string,
 * }} party
 * @param {TextAttackerRecord} record
 */
export async function textAttacker(party, record) {
  const { call, gate, agent, token, sleep } = party;
  let n = 0;
  /** @param {number | string} status */
  const note = (status) => {
    record.statuses[status] = (record.statuses[status] ?? 0) + 1;
  };
  /** @type {{ id: string, secret: string } | null} */
  let chat = null;
  let answered = 0;
  while (party.while.on) {
    n += 1;
    const from = `2001:db8:77:1:${(n % 65_536).toString(16)}::1`;
    const step = n % 6;
    if (step === 0) {
      note((await call('POST', '/api/chats', { address: from, body: {}, agent })).status);
    } else if (step === 1 || chat === null) {
      const started = await call('POST', '/api/chats', {
        address: from,
        body: { botCheckToken: token },
        agent,
      });
      note(started.status);
      const given = /** @type {{ chat?: { id: string, secret: string } } | null} */ (started.body)
        ?.chat;
      if (started.status === 201 && given) {
        record.chats += 1;
        chat = given;
        answered = 0;
      }
    } else if (step === 2) {
      const theirs = party.stolen();
      if (theirs) {
        const outcome = await streamTurn({ gate, agent, from, chat: theirs, text: 'Mine now' });
        record.stolen[outcome.status] = (record.stolen[outcome.status] ?? 0) + 1;
        note(outcome.status);
      }
    } else {
      const outcome = await streamTurn({
        gate,
        agent,
        from,
        chat,
        text: step === 3 ? party.longText : 'Again! Again!',
      });
      note(outcome.status);
      if (outcome.status === 200 && outcome.ended === 'done') record.turns += 1;
      if (outcome.status === 200 && answered++ === 0 && outcome.ended === 'done') {
        record.openings += 1;
      }
      if (outcome.status === 404) chat = null;
    }
    await sleep(50);
  }
}

/**
 * The field latency model (docs/demo-simulator.md): a reply's words as the stand-in writes them,
 * and what a voice visitor admitted at once waits for Pepa's greeting (the call created, the room
 * joined, the assistant in it, her first audio), which the surge does not play.
 */
export const FIELD = /** @type {Record<string, number>} */ (
  JSON.parse(
    readFileSync(
      new URL('../../src/lib/call/simulator/field-latency.json', import.meta.url),
      'utf8',
    ),
  )
);
const VOICE_GREETING_MS =
  (FIELD.callWebMs ?? 0) +
  (FIELD.roomJoinMs ?? 0) +
  (FIELD.assistantJoinMs ?? 0) +
  (FIELD.greetingFirstAudioMs ?? 0);

/**
 * Text with Pepa in one surge: when it is offered (`mode`: alternate windows of `windowMs`, on,
 * off), the visitors who choose it, the attacker, and who heard Pepa's first words (by voice or
 * by text) within 5 s of arriving.
 * @param {{
 *   mode: string,
 *   windowMs: number,
 *   share: number,
 *   stopShare: number,
 *   startedAtMs: number,
 *   arrivalMs: number,
 *   call: import('./surge-visitors.mjs').GateCall,
 *   gate: URL,
 *   random: () => number,
 *   sleep: (ms: number) => Promise<void>,
 *   token: string,
 * }} day
 */
export function textDay(day) {
  const text = textRecords();
  /** Each visitor's first words from Pepa (ms from arrival), by visitor number. */
  const firstWords = new Map();
  const askers = new Set(); // who asked for Pepa: admitted at once, or chose text
  /** The windows text is offered in (epoch ms). @type {{ from: number, to: number }[]} */
  const windows = [];
  for (
    let from = day.startedAtMs;
    from < day.startedAtMs + day.arrivalMs;
    from += 2 * day.windowMs
  ) {
    if (day.mode === 'windows') windows.push({ from, to: from + day.windowMs });
  }
  /** @param {number} at epoch ms */
  const offered = (at) =>
    day.mode === 'on' || (day.mode === 'windows' && windows.some((w) => at >= w.from && at < w.to));
  const agents = {
    start: new Agent({ keepAlive: true, maxSockets: 64 }),
    // Each visitor reads their replies on their own connection, as a browser does.
    stream: new Agent({ keepAlive: true, maxSockets: 2048 }),
  };
  /** Chats given, for the attacker to take one. @type {{ id: string, secret: string }[]} */
  const given = [];
  const party = {
    ...day,
    agents,
    text,
    onChat: (/** @type {{ id: string, secret: string }} */ chat) => {
      if (given.length < 50) given.push(chat);
    },
  };
  /** @type {TextAttackerRecord} */
  const attack = { chats: 0, turns: 0, openings: 0, statuses: {}, stolen: {} };
  const attackerOn = { on: true };
  return {
    text,
    windows,
    attack,
    /** A visitor admitted at once hears Pepa's greeting at the model's delays. */
    admitted: (/** @type {number} */ n, /** @type {number} */ ms) => {
      askers.add(n);
      firstWords.set(n, ms + VOICE_GREETING_MS);
    },
    /**
     * A visitor turned away chooses text when it was offered as they arrived (most do).
     * @param {number} n @param {string} from @param {number} arrivedAt performance.now()
     */
    turnedAway: (n, from, arrivedAt) => {
      const arrivedAtMs = Date.now() - (performance.now() - arrivedAt);
      if (!offered(arrivedAtMs) || day.random() >= day.share) return null;
      askers.add(n);
      return textVisit(party, from, arrivedAt).then((ms) => {
        if (ms !== null) firstWords.set(n, ms);
      });
    },
    /** @param {import('node:http').Agent} agent @param {number} messageChars */
    attacker: (agent, messageChars) =>
      day.mode === 'off'
        ? Promise.resolve()
        : textAttacker(
            {
              ...day,
              agent,
              while: attackerOn,
              stolen: () => given[Math.floor(day.random() * given.length)] ?? null,
              longText: 'ribbit '.repeat(Math.ceil((messageChars + 100) / 7)),
            },
            attack,
          ),
    stopAttacker: () => {
      attackerOn.on = false;
    },
    destroy: () => {
      for (const agent of Object.values(agents)) agent.destroy();
    },
    asked: () => askers.size,
    servedFast: () => [...firstWords.values()].filter((ms) => ms <= FIRST_WORDS_WITHIN_MS).length,
    askedBy: (/** @type {number} */ n) => askers.has(n),
    firstWordsOf: (/** @type {number} */ n) => firstWords.get(n) ?? null,
  };
}
