// npm run card:takedown against a small local stand-in for the gate's `DELETE /api/cards/{id}`
// and `POST /api/card-takedowns`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from './run-script';
import { cardAddress, takeDown, takedownArgs } from '../../assistant/card-takedown';

const TOKEN = 'admin-token-'.padEnd(40, 'z');
const CARD = 'AbCdEfGhIjKlMnOp0123456789_-AbCd';
const GONE = 'GoneGoneGoneGone0123456789_-AbCd';
const TWIN = 'TwinTwinTwinTwin0123456789_-AbCd';
/** The words of CARD, folded as the gate answers them. */
const FOLDED = 'send 1 sol to join the airdrop';

let server: Server;
let origin: string;
const seen: { method: string; url: string; auth: string | undefined; body?: string }[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    seen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      auth: request.headers.authorization,
      ...(body ? { body } : {}),
    });
    const send = (status: number, answer: unknown) => {
      const type = status === 200 ? 'application/json' : 'application/problem+json';
      response.writeHead(status, { 'content-type': type });
      response.end(JSON.stringify(answer));
    };
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return send(401, { code: 'unauthorized', title: 'Missing or wrong credentials' });
    }
    if (request.method === 'DELETE' && request.url === `/api/cards/${CARD}`) {
      return send(200, {
        words: FOLDED,
        cards: [CARD, TWIN],
        nearRelatives: true,
        tokens: ['pepadrop2030'],
      });
    }
    if (request.method === 'POST' && request.url === '/api/card-takedowns') {
      return send(200, { words: 'airdrop now', cards: [], nearRelatives: false, tokens: [] });
    }
    return send(404, { code: 'not-found', title: 'Nothing with that id' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
});

const run = (args: string[], env: Record<string, string>) =>
  runScript('scripts/card-takedown.mjs', args, env);

describe('npm run card:takedown', () => {
  it('takes the card of a share address down with the admin token, and says what it blocked', async () => {
    seen.length = 0;
    const { code, stdout, stderr } = await run([`${origin}/q/${CARD}`], {
      GATE_ADMIN_TOKEN: TOKEN,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(seen).toEqual([
      { method: 'DELETE', url: `/api/cards/${CARD}`, auth: `Bearer ${TOKEN}` },
    ]);
    expect(stdout.trim().split('\n')).toEqual([
      `Card ${CARD} is down: its page answers 410 and its image is gone. 1 other card of the same words, a near relative or the same address is down too: ${TWIN}.`,
      `Blocked words (folded), never carded again: "${FOLDED}"`,
      'Near relatives (the same words with one word or number changed) are blocked too.',
      'Addresses, handles and links never carded again: pepadrop2030',
    ]);
  }, 60_000);

  it('takes words down before any card of them, on GATE_URL, and says what it blocked', async () => {
    seen.length = 0;
    const words = 'Airdrop now!';
    const { code, stdout, stderr } = await run(['--words', words], {
      GATE_ADMIN_TOKEN: TOKEN,
      GATE_URL: origin,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/api/card-takedowns',
        auth: `Bearer ${TOKEN}`,
        body: JSON.stringify({ words }),
      },
    ]);
    expect(stdout.trim().split('\n')).toEqual([
      'No card carried them yet.',
      'Blocked words (folded), never carded again: "airdrop now"',
      'Near relatives are not blocked: fewer than four words, so only these words are.',
    ]);
    await expect(takeDown({ address: undefined, words, token: TOKEN })).rejects.toThrow(
      /Set GATE_URL/,
    );
    expect(() => takedownArgs(['--words'])).toThrow(/--words "…"/);
    expect(takedownArgs([`--words=${words}`])).toEqual({ words });
  }, 60_000);

  it('says in one line when the token is refused or the card is not there', async () => {
    const refused = await run([`${origin}/q/${CARD}`], { GATE_ADMIN_TOKEN: 'wrong' });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      /^card:takedown: The gate refused GATE_ADMIN_TOKEN \(HTTP 401\)/,
    );
    await expect(takeDown({ address: `${origin}/q/${GONE}`, token: TOKEN })).rejects.toThrow(
      `The gate has no card ${GONE} (already down, or never made).`,
    );
  }, 60_000);

  it('sends nothing without the token, or for an address that is not a card’s', async () => {
    seen.length = 0;
    await expect(takeDown({ address: `${origin}/q/${CARD}`, token: undefined })).rejects.toThrow(
      /^Set GATE_ADMIN_TOKEN/,
    );
    await expect(takeDown({ address: undefined, token: TOKEN })).rejects.toThrow(/share address/);
    await expect(takeDown({ address: `${origin}/about`, token: TOKEN })).rejects.toThrow(
      /not a card's share address/,
    );
    await expect(
      takeDown({ address: `http://pepa.example/q/${CARD}`, token: TOKEN }),
    ).rejects.toThrow(/https/);
    expect(seen).toEqual([]);
  });

  it("reads the card's id from its page's address or its image's", () => {
    expect(cardAddress(`https://pepa.example/q/${CARD}`)).toEqual({
      origin: 'https://pepa.example',
      id: CARD,
    });
    expect(cardAddress(`https://pepa.example/q/${CARD}/card.png`)).toEqual({
      origin: 'https://pepa.example',
      id: CARD,
    });
  });

  it('says when the gate cannot be reached', async () => {
    await expect(
      takeDown({ address: `http://127.0.0.1:9/q/${CARD}`, token: TOKEN }),
    ).rejects.toThrow(/^Cannot reach the gate at http:\/\/127\.0\.0\.1:9/);
  });
});
