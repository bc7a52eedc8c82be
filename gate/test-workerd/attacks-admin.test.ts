/**
 * The owner's paths (`GET /api/report`, `DELETE /api/cards/{id}`) under a flood of guesses: they
 * pass the edge limiter as every other path does, a wrong token weighs on the guesser's allowance
 * and is counted, the token is compared in constant time, and the owner's own token still works.
 */
import { describe, expect, it, vi } from 'vitest';
import { REFUSED_TOKEN_WEIGHT } from '../src/floor/edge';
import { inOneWindow, limiterWindow } from './limiter-window';
import { addr, gateEnv, inspect } from './bench';
import { api, body, type ProblemBody } from './gate-fetch';
import { startChat } from './visitor-chats';

const OWNER = '203.0.113.200';
/** As long as the test bindings' token, one character off. */
const ALMOST = 'Bearer test-admin-tokem';
const RIGHT = 'Bearer test-admin-token';
const CARD = 'A'.repeat(22);

function askReport(address: string, authorization: string | null) {
  return api('/api/report?days=1', {
    headers: { 'cf-connecting-ip': address, ...(authorization ? { authorization } : {}) },
  });
}

function askTakedown(address: string, authorization: string | null) {
  return api(`/api/cards/${CARD}`, {
    method: 'DELETE',
    headers: { 'cf-connecting-ip': address, ...(authorization ? { authorization } : {}) },
  });
}

/** The refusals the Worker counts (its Analytics Engine data points), as `code path`. */
function countedRefusals(): string[] {
  const counted: string[] = [];
  vi.spyOn(gateEnv.GATE_REFUSALS, 'writeDataPoint').mockImplementation((point) => {
    counted.push((point?.blobs ?? []).join(' '));
  });
  return counted;
}

const tally = (items: readonly (string | number)[]) => {
  const out = new Map<string | number, number>();
  for (const item of items) out.set(item, (out.get(item) ?? 0) + 1);
  return out;
};

// A hundred requests one at a time: on a busy machine that takes longer than the usual 20 s.
describe('a hundred wrong owner’s tokens', { timeout: 60_000 }, () => {
  it.each([
    ['the report', askReport, '/api/report'],
    ['a card’s takedown', askTakedown, '/api/cards'],
  ])('at %s meet the edge limiter, each counted', async (_name, ask, path) => {
    const counted = countedRefusals();
    const statuses: number[] = [];
    const firstWindow = limiterWindow();
    for (let i = 0; i < 100; i += 1) {
      const answer = await ask(addr(7), i % 2 === 0 ? ALMOST : 'Bearer guess-' + i);
      statuses.push(answer.status);
      await answer.arrayBuffer();
    }
    const windows = limiterWindow() - firstWindow + 1;
    const seen = tally(statuses);
    // Six guesses fill a window of the limiter (60 requests); a slow run sees more windows.
    expect(statuses[0]).toBe(401);
    expect(seen.get(401) ?? 0).toBeLessThanOrEqual(6 * windows);
    expect((seen.get(401) ?? 0) + (seen.get(429) ?? 0)).toBe(100);
    const refusals = tally(counted);
    expect(refusals.get(`unauthorized ${path}`)).toBe(seen.get(401));
    expect(refusals.get(`rate-limited ${path}`)).toBe(seen.get(429));
    // None of it reached the court.
    expect((await inspect()).heard).toBe(0);
  });

  it('hold the guesser everywhere else too, and no one else', async () => {
    // The guesses and the chat within one of the limiter's windows, as a guesser's would be.
    const chat = await inOneWindow(async (address) => {
      for (let i = 0; i < 100 / REFUSED_TOKEN_WEIGHT; i += 1) {
        await (await askReport(address, ALMOST)).arrayBuffer();
      }
      return startChat(address);
    });
    expect(chat.status).toBe(429);
    expect(await body<ProblemBody>(chat)).toMatchObject({ code: 'rate-limited' });
    expect((await startChat(addr(8))).status).toBe(201);
    expect((await askReport(OWNER, RIGHT)).status).toBe(200);
  });

  it.each([
    ['a wrong token', ALMOST],
    ['no token', null],
  ])(
    'weigh %s as ten requests: the seventh in a window meets the limiter',
    async (_name, token) => {
      const statuses = await inOneWindow(async (address) => {
        const seen: number[] = [];
        for (let i = 0; i < 7; i += 1) seen.push((await askReport(address, token)).status);
        return seen;
      });
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    },
  );
});

describe('the owner’s own token', () => {
  it('costs one request, as any visitor’s does: thirty reports in a row are answered', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const answer = await askReport(OWNER, RIGHT);
      statuses.push(answer.status);
      await answer.arrayBuffer();
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('takes a card down past the limiter: an unknown card is the only answer left', async () => {
    const answer = await askTakedown(OWNER, RIGHT);
    expect(answer.status).toBe(404);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'not-found' });
  });

  it('is compared in constant time, whichever character is off', async () => {
    const compare = vi.spyOn(crypto.subtle, 'timingSafeEqual');
    for (const authorization of [ALMOST, 'Bearer uest-admin-token']) {
      const answer = await askReport(addr(9), authorization);
      expect(answer.status).toBe(401);
      await answer.arrayBuffer();
    }
    const lengths = compare.mock.calls.map(([a, b]) => [a.byteLength, b.byteLength]);
    expect(lengths).toEqual([
      [16, 16],
      [16, 16],
    ]);
  });

  it('is refused when none is set, whatever is sent', async () => {
    gateEnv.GATE_ADMIN_TOKEN = '';
    expect((await askReport(OWNER, 'Bearer ')).status).toBe(401);
    expect((await askReport(OWNER, RIGHT)).status).toBe(401);
  });

  it('is asked of a request with an address, as every visitor’s is', async () => {
    const answer = await api('/api/report?days=1', { headers: { authorization: RIGHT } });
    expect(answer.status).toBe(400);
  });
});
