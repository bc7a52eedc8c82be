// The demo's provider stand-in, in front of a real Prism: fresh calls and rooms, the call records,
// a joined call's end at its maximum duration and the surge's call lengths, and the Turnstile
// siteverify stand-in.
import { createServer } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { TURNSTILE_TEST_SECRETS } from '../../gate/dev/provider-stand-in.mjs';
import {
  type CallReport,
  createWebCall,
  heard,
  reportedSeconds,
  setUpStandInTests,
  standIn,
  until,
} from './provider-stand-in-support';

setUpStandInTests();

describe('the provider stand-in', () => {
  it('gives each POST /call/web a fresh call id and its own room on the demo host', async () => {
    const provider = await standIn();
    const calls = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await createWebCall(provider.url);
      expect(answer.status).toBe(201);
      calls.push((await answer.json()) as { id: string; webCallUrl: string });
    }
    expect(new Set(calls.map((call) => call.id)).size).toBe(3);
    expect(new Set(calls.map((call) => call.webCallUrl)).size).toBe(3);
    for (const call of calls) {
      expect(call.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(call.webCallUrl).toMatch(/^https:\/\/pepa-demo\.daily\.co\/[a-z0-9]+$/);
    }
    expect(provider.stats).toMatchObject({ created: 3, active: 3, peak: 3 });
  });

  it('sends a request once more when Prism closed the kept-alive connection it reused', async () => {
    // A Prism that answers on a connection once, then closes it as the next request arrives, as a
    // server does when its keep-alive timeout and a reusing client cross.
    let requests = 0;
    const flaky = createServer((req, res) => {
      requests += 1;
      if (requests === 2) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' });
      res.end('[]');
    });
    await new Promise<void>((done) => flaky.listen(0, '127.0.0.1', () => done()));
    try {
      const address = flaky.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const provider = await standIn({ prismUrl: `http://127.0.0.1:${port}` });
      const first = await fetch(`${provider.url}/assistant`);
      expect(first.status).toBe(200);
      await first.arrayBuffer();
      const second = await fetch(`${provider.url}/assistant`);
      expect(second.status).toBe(200);
      await second.arrayBuffer();
      expect(requests).toBe(3);
    } finally {
      flaky.closeAllConnections();
      await new Promise((done) => flaky.close(done));
    }
  });

  it('still lets Prism validate: a request without a key gets Prism’s 401 and no call', async () => {
    const provider = await standIn();
    const answer = await fetch(`${provider.url}/call/web`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(401);
    expect(provider.stats.created).toBe(0);
  });

  it('answers GET /call/{id} from its records', async () => {
    const provider = await standIn();
    const { id } = (await (await createWebCall(provider.url)).json()) as { id: string };
    const lookUp = () =>
      fetch(`${provider.url}/call/${id}`, { headers: { authorization: 'Bearer private-key' } });
    // Nobody has joined its room yet: the call waits, as the provider's does.
    const waiting = (await (await lookUp()).json()) as Record<string, unknown>;
    expect(waiting).toMatchObject({ id, status: 'queued' });
    provider.joinCall(id);
    const during = (await (await lookUp()).json()) as Record<string, unknown>;
    expect(during).toMatchObject({ id, status: 'in-progress' });
    provider.endCall(id, 'customer-ended-call');
    const after = (await (await lookUp()).json()) as Record<string, unknown>;
    expect(after).toMatchObject({ id, status: 'ended', endedReason: 'customer-ended-call' });
    expect(typeof after.cost).toBe('number');
    const unknown = await fetch(`${provider.url}/call/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: 'Bearer private-key' },
    });
    expect(unknown.status).toBe(404);
  });

  it('ends a joined call at its maximum duration', async () => {
    const provider = await standIn();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { id } = (await (await createWebCall(provider.url)).json()) as { id: string };
      provider.joinCall(id);
      vi.advanceTimersByTime(179_000);
      expect(provider.stats.active).toBe(1);
      vi.advanceTimersByTime(1_000);
      expect(provider.stats).toMatchObject({ active: 0, ended: 1 });
      vi.useRealTimers();
      // In progress (as it joined), then ended and its report.
      await until(() => heard.length === 3);
      expect(heard[0]?.message).toMatchObject({ type: 'status-update', status: 'in-progress' });
      expect(heard[1]?.message).toMatchObject({
        type: 'status-update',
        call: { id },
        endedReason: 'exceeded-max-duration',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('for the surge: draws call lengths from the join, compresses time and loses a fraction of the messages', async () => {
    let draw = 0;
    // Drawn as each call is created (are its messages lost?), then as it is joined (its length):
    // the first call's messages are lost, the second's heard; the first is long, the second short.
    const random = () => [0.1, 0.9, 0.99, 0][draw++ % 4] ?? 0;
    const provider = await standIn({
      callSeconds: { min: 30, max: 60 },
      timeScale: 300,
      dropEndMessages: 0.5,
      costPerMinuteUsd: 0.15,
      random,
    });
    const first = (await (await createWebCall(provider.url)).json()) as { id: string };
    const second = (await (await createWebCall(provider.url)).json()) as { id: string };
    provider.joinCall(first.id);
    provider.joinCall(second.id);
    await until(() => provider.stats.ended === 2);
    await until(() => heard.length === 3);
    expect(provider.stats).toMatchObject({ created: 2, ended: 2, dropped: 1, active: 0 });
    // Only the second call was heard of: in progress, ended, and its report.
    expect(heard.map((entry) => (entry.message.call as { id: string }).id)).toEqual([
      second.id,
      second.id,
      second.id,
    ]);
    // The bill runs from the call's creation to its end, as the provider's does, in provider
    // seconds (300 a real second): the report's own times give it to the cent's hundredth, and it
    // holds at least the 30 s drawn after the join ($0.075 at $0.15 a minute). Each real
    // millisecond of a busy machine's delay before the join or in the timer adds 0.3 s.
    const report = heard[2]?.message as CallReport;
    const providerSeconds = reportedSeconds(report, 300);
    expect(providerSeconds).toBeGreaterThanOrEqual(30);
    expect(report.cost).toBe(Math.round((providerSeconds / 60) * 0.15 * 1e4) / 1e4);
    expect(report.cost).toBeGreaterThanOrEqual(0.075);
  });
});

describe('the Turnstile siteverify stand-in', () => {
  async function verify(url: string, secret: string, response: string) {
    const form = new FormData();
    form.set('secret', secret);
    form.set('response', response);
    form.set('remoteip', '203.0.113.9');
    const answer = await fetch(`${url}/turnstile/v0/siteverify`, { method: 'POST', body: form });
    expect(answer.status).toBe(200);
    return (await answer.json()) as { success: boolean; 'error-codes': string[] };
  }

  it('follows Cloudflare’s dummy secret keys', async () => {
    const { url } = await standIn();
    expect(await verify(url, TURNSTILE_TEST_SECRETS.pass, 'XXXX.DUMMY.TOKEN.XXXX')).toMatchObject({
      success: true,
      'error-codes': [],
    });
    expect(await verify(url, TURNSTILE_TEST_SECRETS.pass, 'any-token')).toMatchObject({
      success: true,
    });
    expect(await verify(url, TURNSTILE_TEST_SECRETS.fail, 'XXXX.DUMMY.TOKEN.XXXX')).toEqual({
      success: false,
      'error-codes': ['invalid-input-response'],
      messages: [],
    });
    expect(await verify(url, TURNSTILE_TEST_SECRETS.spent, 'XXXX.DUMMY.TOKEN.XXXX')).toMatchObject({
      success: false,
      'error-codes': ['timeout-or-duplicate'],
    });
    expect(await verify(url, TURNSTILE_TEST_SECRETS.pass, '')).toMatchObject({
      success: false,
      'error-codes': ['missing-input-response'],
    });
    expect(await verify(url, 'some-real-looking-secret', 'token')).toMatchObject({
      success: false,
      'error-codes': ['invalid-input-secret'],
    });
  });

  it('reads a url-encoded form too', async () => {
    const { url } = await standIn();
    const answer = await fetch(`${url}/turnstile/v0/siteverify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: TURNSTILE_TEST_SECRETS.pass, response: 'token' }),
    });
    expect(await answer.json()).toMatchObject({ success: true });
  });
});
