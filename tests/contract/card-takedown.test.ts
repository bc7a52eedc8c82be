// npm run card:takedown against a small local stand-in for the gate's `DELETE /api/cards/{id}`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from './run-script';
import { cardAddress, takeDown } from '../../assistant/card-takedown';

const TOKEN = 'admin-token-'.padEnd(40, 'z');
const CARD = 'AbCdEfGhIjKlMnOp0123456789_-AbCd';
const GONE = 'GoneGoneGoneGone0123456789_-AbCd';

let server: Server;
let origin: string;
const seen: { method: string; url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      auth: request.headers.authorization,
    });
    const send = (status: number, body?: unknown) => {
      response.writeHead(status, body ? { 'content-type': 'application/problem+json' } : {});
      response.end(body ? JSON.stringify(body) : undefined);
    };
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return send(401, { code: 'unauthorized', title: 'Missing or wrong credentials' });
    }
    if (request.method === 'DELETE' && request.url === `/api/cards/${CARD}`) return send(204);
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
  it('takes the card of a share address down with the admin token, and says so', async () => {
    seen.length = 0;
    const { code, stdout, stderr } = await run([`${origin}/q/${CARD}`], {
      GATE_ADMIN_TOKEN: TOKEN,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(seen).toEqual([
      { method: 'DELETE', url: `/api/cards/${CARD}`, auth: `Bearer ${TOKEN}` },
    ]);
    expect(stdout.trim()).toBe(`Card ${CARD} is down: its page answers 410 and its image is gone.`);
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
