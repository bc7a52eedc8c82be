// Text with Pepa in the surge: visitors turned away from voice (the court full, or a ticket in
// line) choose text (most) or leave; one attacker drives text from one IPv6 /64 with valid bot
// tokens. Each reply is read as a visitor's page reads it: as a stream, its first words timed.
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { firstMessage, LATER_MESSAGES } from './surge-openings.mjs';
import { FIRST_WORDS_WITHIN_MS } from './surge-options.mjs';

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
 * }} TextRecords
 * What the text visitors met: chats given, turns answered (`openings`: their chats' first
 * messages) and refused, replies stopped, and each reply's first words through the gate (ms from
 * the message sent).
 */

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
  };
}

/**
 * @typedef {{
 *   status: number,
 *   code: string | null,
 *   firstWordMs: number | null,
 *   firstWordAt: number | null,
 *   ended: 'done' | 'failed' | 'stopped' | 'refused' | 'broken',
 *   words: number,
 * }} TurnOutcome
 */

/**
 * One message and its reply, read as a stream. `stopAfterFirst`: the visitor stops the reply at
 * its first words (their page's stop control), which closes the connection.
 * @param {{ gate: URL, agent: import('node:http').Agent, from: string, chat: { id: string, secret: string }, text: string, stopAfterFirst?: boolean }} turn
 * @returns {Promise<TurnOutcome>}
 */
export function streamTurn({ gate, agent, from, chat, text, stopAfterFirst = false }) {
  return new Promise((resolveTurn) => {
    const body = JSON.stringify({ text });
    let sentAt = performance.now();
    const out = httpRequest(
      {
        host: gate.hostname,
        port: gate.port,
        method: 'POST',
        path: `/api/chats/${chat.id}/messages`,
        agent,
        headers: {
          'cf-connecting-ip': from,
          'chat-secret': chat.secret,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (answer) => {
        const status = answer.statusCode ?? 0;
        let buffered = '';
        /** @type {number | null} */
        let firstWordMs = null;
        /** @type {number | null} */
        let firstWordAt = null;
        let words = 0;
        /** @type {TurnOutcome['ended'] | null} */
        let ended = null;
        /** @type {string | null} */
        let code = null;
        answer.setEncoding('utf8');
        answer.on('data', (/** @type {string} */ chunk) => {
          buffered += chunk;
          if (status !== 200) return;
          const blocks = buffered.split('\n\n');
          buffered = blocks.pop() ?? '';
          for (const block of blocks) {
            const data = block
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trimStart())
              .join('\n');
            if (!data) continue;
            /** @type {{ type?: string, problem?: { code?: string } }} */
            let event;
            try {
              event = JSON.parse(data);
            } catch {
              continue;
            }
            if (event.type === 'words') {
              words += 1;
              if (firstWordMs === null) {
                firstWordAt = performance.now();
                firstWordMs = firstWordAt - sentAt;
                if (stopAfterFirst) {
                  ended = 'stopped';
                  answer.destroy();
                  resolveTurn({ status, code: null, firstWordMs, firstWordAt, ended, words });
                  return;
                }
              }
            } else if (event.type === 'done') ended = 'done';
            else if (event.type === 'failed') {
              ended = 'failed';
              code = event.problem?.code ?? null;
            }
          }
        });
        answer.on('end', () => {
          if (status !== 200) {
            try {
              code = JSON.parse(buffered).code ?? null;
            } catch {
              code = null;
            }
          }
          resolveTurn({
            status,
            code,
            firstWordMs,
            firstWordAt,
            ended: status !== 200 ? 'refused' : (ended ?? 'broken'),
            words,
          });
        });
        answer.on('error', () => {
          if (ended === 'stopped') return;
          resolveTurn({ status, code, firstWordMs, firstWordAt, ended: 'broken', words });
        });
      },
    );
    out.once('socket', () => {
      sentAt = performance.now();
    });
    out.on('error', () =>
      resolveTurn({
        status: 0,
        code: null,
        firstWordMs: null,
        firstWordAt: null,
        ended: 'broken',
        words: 0,
      }),
    );
    out.end(body);
  });
}

/**
 * A visitor turned away from voice who chose text: they start a chat, send one to three
 * messages a few seconds apart, now and then stop a reply at its first words, and end the chat.
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
