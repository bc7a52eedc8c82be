// One message of the surge's text visitors and its reply, read as a visitor's page reads it: as a
// stream of the gate's events, its first words timed, the reply's place noted when it is done.
import { request as httpRequest } from 'node:http';

/**
 * @typedef {{
 *   status: number,
 *   code: string | null,
 *   firstWordMs: number | null,
 *   firstWordAt: number | null,
 *   ended: 'done' | 'failed' | 'stopped' | 'refused' | 'broken',
 *   words: number,
 *   remark?: number,
 * }} TurnOutcome
 * `remark`: the reply's place in its chat, as its `done` event names it (what a card is asked of).
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
        /** @type {number | undefined} */
        let remark;
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
            /** @type {{ type?: string, problem?: { code?: string }, remark?: number }} */
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
            } else if (event.type === 'done') {
              ended = 'done';
              remark = event.remark;
            } else if (event.type === 'failed') {
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
            ...(remark === undefined ? {} : { remark }),
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
