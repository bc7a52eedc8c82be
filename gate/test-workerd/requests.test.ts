import { describe, expect, it } from 'vitest';
import { addr, advance, inspect, setVars } from './bench';
import { api, body, type ProblemBody, type WaitingBody } from './gate-fetch';
import { world } from './outside-world';
import { endOfCallReport } from './provider-events';
import { admit, checkIn, queue, start } from './visitor-calls';

describe('the bot check', () => {
  it('sends siteverify the secret, the token and the visitor’s address, and admits on a pass', async () => {
    expect((await start('203.0.113.5', 'token-abc')).status).toBe(201);
    expect(world.siteverify.forms).toEqual([
      { secret: 'test-turnstile-secret', response: 'token-abc', remoteip: '203.0.113.5' },
    ]);
  });

  it('refuses with 403 when siteverify says no, before any ticket or call', async () => {
    world.siteverify.mode = 'fail';
    const answer = await start(addr(1));
    expect(answer.status).toBe(403);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'bot-check-failed' });
    expect(world.provider.created).toHaveLength(0);
    expect(await inspect()).toMatchObject({ activeCalls: 0, waiting: 0 });
  });

  it('refuses with 403 without a token, without asking siteverify', async () => {
    for (const token of [null, '']) {
      const answer = await start(addr(1), token);
      expect(answer.status).toBe(403);
      expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'bot-check-failed' });
    }
    expect(world.siteverify.forms).toHaveLength(0);
  });

  it('is not asked for a visitor whose start is refused anyway', async () => {
    await admit(addr(1));
    expect(world.siteverify.forms).toHaveLength(1);
    // Already in a call: refused by their own limit, with no siteverify round trip.
    expect((await start(addr(1))).status).toBe(429);
    expect(world.siteverify.forms).toHaveLength(1);
  });

  it('is not asked when the court is closed for the day', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '0.5' });
    const call = await admit(addr(1));
    // What is spent leaves no room for another call's worst case today.
    await endOfCallReport(call, { cost: 0.1 });
    expect((await start(addr(2))).status).toBe(503);
    expect(world.siteverify.forms).toHaveLength(1);
  });

  it.each(['outage', 'error-status', 'not-json'] as const)(
    'answers 503 gate-unavailable with a Retry-After when siteverify fails (%s)',
    async (mode) => {
      world.siteverify.mode = mode;
      const answer = await start(addr(1));
      expect(answer.status).toBe(503);
      expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'gate-unavailable' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(world.provider.created).toHaveLength(0);
    },
  );
});

describe('malformed requests', () => {
  const json = (value: unknown) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': addr(50) },
    body: typeof value === 'string' ? value : JSON.stringify(value),
  });
  const cases: [string, string, RequestInit, number, string?][] = [
    ['a start that is not JSON', '/api/calls', json('{"botCheckToken":'), 400, 'bad-request'],
    ['a start that is a JSON array', '/api/calls', json([1, 2]), 400, 'bad-request'],
    ['a start with an unknown field', '/api/calls', json({ botCheckToken: 't', vip: true }), 400],
    [
      'a start sent as a form',
      '/api/calls',
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'botCheckToken=t' },
      400,
      'bad-request',
    ],
    ['a start with a huge body', '/api/calls', json({ botCheckToken: 'x'.repeat(5000) }), 400],
    ['a start whose token is not text', '/api/calls', json({ botCheckToken: 7 }), 403],
    ['a ticket id that is not one', '/api/tickets/short', { method: 'POST' }, 400, 'bad-request'],
    [
      'a ticket id with a slash in it',
      '/api/tickets/aaaaaaaaaaaaaaaa%2Fbbbb',
      { method: 'POST' },
      400,
    ],
    [
      'hidden that is not true or false',
      '/api/tickets/aaaaaaaaaaaaaaaaaaaa?hidden=maybe',
      { method: 'POST' },
      400,
    ],
    [
      'an unknown ticket',
      '/api/tickets/aaaaaaaaaaaaaaaaaaaa',
      { method: 'POST', headers: { 'cf-connecting-ip': addr(60) } },
      404,
      'ticket-gone',
    ],
    ['a GET of the calls', '/api/calls', { method: 'GET' }, 405],
    ['a PUT of a ticket', '/api/tickets/aaaaaaaaaaaaaaaaaaaa', { method: 'PUT' }, 405],
    ['an unknown API path', '/api/nothing-here', { method: 'GET' }, 404, 'not-found'],
    ['a rating without a score', '/api/ratings', json({ callId: 'call-1' }), 400, 'bad-request'],
    [
      'a rating with an unknown score',
      '/api/ratings',
      json({ callId: 'call-1', score: 'ecstatic' }),
      400,
    ],
    [
      'a rating with a comment too long',
      '/api/ratings',
      json({ callId: 'call-1', score: 'content', comment: 'x'.repeat(281) }),
      400,
    ],
    [
      'a rating with an unknown field',
      '/api/ratings',
      json({ callId: 'call-1', score: 'content', email: 'a@b.c' }),
      400,
    ],
  ];

  it.each(cases)(
    '%s is refused with a clear %i, and nothing already in the court is lost',
    async (_name, path, init, status, code) => {
      const call = await admit(addr(1));
      await admit(addr(2));
      const waiting = await queue(addr(3));
      const answer = await api(path, init);
      expect(answer.status).toBe(status);
      if (status !== 405) {
        expect(answer.headers.get('content-type')).toBe('application/problem+json');
        const problem = await body<ProblemBody>(answer);
        expect(problem.status).toBe(status);
        expect(problem.title.length).toBeGreaterThan(0);
        if (code) expect(problem.code).toBe(code);
      } else {
        expect(answer.headers.get('allow')).toBeTruthy();
      }
      expect(await inspect()).toMatchObject({ activeCalls: 2, waiting: 1 });
      advance(1);
      const still = await checkIn(waiting.ticket.id);
      expect((await body<WaitingBody>(still)).ticket.position).toBe(1);
      expect(call).toBe('call-1');
    },
  );

  const webhook = (message: unknown) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-webhook-secret' },
    body: JSON.stringify(message),
  });
  it.each([
    ['no message', {}],
    ['a message that is not an object', { message: 'ended' }],
    ['a message without a type', { message: { status: 'ended', call: { id: 'call-1' } } }],
    ['an ended status without a call id', { message: { type: 'status-update', status: 'ended' } }],
    [
      'a report whose call id is not text',
      { message: { type: 'end-of-call-report', call: { id: 1 } } },
    ],
  ])('a provider message with %s is refused with 400 and frees nothing', async (_name, message) => {
    await admit(addr(1));
    const answer = await api('/api/provider-events', webhook(message));
    expect(answer.status).toBe(400);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'bad-request' });
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
  });

  it('a gate missing a secret refuses starts with 503 instead of admitting anyone', async () => {
    setVars({ VAPI_PRIVATE_KEY: undefined });
    const answer = await start(addr(1));
    expect(answer.status).toBe(503);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'gate-unavailable' });
    expect(world.provider.created).toHaveLength(0);
  });

  it('a gate with a limit that is not a number refuses starts with 503', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: 'ten' });
    const answer = await start(addr(1));
    expect(answer.status).toBe(503);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'gate-unavailable' });
  });
});

describe('the site', () => {
  it('is served as static assets beside the gate', async () => {
    const page = await api('/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('$PEPA test site');
  });
});
