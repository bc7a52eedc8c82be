// The demo's production path, locally: the gate in workerd (wrangler's dev server, started in
// process) in front of the provider stand-in in front of Prism, as `npm start` runs it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  firstAnswer,
  gateVars,
  startCourtStack,
  textBindings,
  withEdgeLimit,
} from '../../scripts/lib/court-stack.mjs';
import { DEMO_EDGE_LIMIT, demoGateVars } from '../../scripts/lib/demo-services.mjs';
import { experimental_readRawConfig } from 'wrangler';
import { gateLimitsFrom } from '../../assistant/gate-settings';
import { findFreePort } from '../../scripts/lib/prism.mjs';

function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

describe('the GATE_* variables', () => {
  it('are passed on from the environment, with the given vars over them and empty ones left out', () => {
    expect(
      gateVars(
        {
          GATE_MAX_CONCURRENT_CALLS: '2',
          GATE_DAILY_BUDGET_USD: '5',
          PATH: '/bin',
          GATE_EMPTY: '',
        },
        { GATE_DAILY_BUDGET_USD: 9 },
      ),
    ).toEqual({ GATE_MAX_CONCURRENT_CALLS: '2', GATE_DAILY_BUDGET_USD: '9' });
  });

  it("become the Worker's bindings, the secrets as secrets", () => {
    expect(textBindings({ A: 'x' }, 'plain_text')).toEqual({
      A: { type: 'plain_text', value: 'x' },
    });
    expect(textBindings({ B: 'y' }, 'secret_text')).toEqual({
      B: { type: 'secret_text', value: 'y' },
    });
  });

  it('keeps the deployed edge limiter unless told otherwise, as the demo is, for its one address', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pepa-court-limit-'));
    try {
      const source = join(import.meta.dirname, '..', '..', 'gate', 'wrangler.jsonc');
      const out = await withEdgeLimit(source, join(dir, 'local.json'), DEMO_EDGE_LIMIT);
      const config = JSON.parse(readFileSync(out, 'utf8')) as {
        main: string;
        ratelimits: { name: string; simple: { limit: number; period: number } }[];
      };
      expect(config.main).toBe(join(import.meta.dirname, '..', '..', 'gate', 'src', 'index.ts'));
      expect(config.ratelimits).toEqual([
        expect.objectContaining({
          name: 'API_LIMITER',
          simple: { limit: DEMO_EDGE_LIMIT, period: 10 },
        }),
      ]);
      // The deployed one is what the surge and the gate suite meet: far tighter.
      expect(readFileSync(source, 'utf8')).toMatch(/"limit": 60, "period": 10/);
      expect(demoGateVars({})).toMatchObject({
        GATE_VISITOR_STARTS_PER_DAY: '1000000',
        GATE_ASN_CONCURRENT: '100000',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a gate's first answer", () => {
  it('is asked for again when a first request is cut off, as a Worker still loading can', async () => {
    let asked = 0;
    const server = createServer((request, response) => {
      asked += 1;
      if (asked < 3) {
        request.socket.destroy();
        return;
      }
      response.end('{}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      await expect(
        firstAnswer(`http://127.0.0.1:${address.port}/api/report`, 30_000),
      ).resolves.toBe(null);
      expect(asked).toBe(3);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });

  it('says what the last attempt met when nothing answers in time', async () => {
    const port = await findFreePort();
    await expect(firstAnswer(`http://127.0.0.1:${port}/api/report`, 300)).resolves.toMatch(
      /fetch failed|ECONNREFUSED/,
    );
  });
});

describe("the demo's gate limits", () => {
  it('are every one a value the gate accepts: a bad one would close the demo gate', () => {
    const { rawConfig } = experimental_readRawConfig({
      config: resolve(import.meta.dirname, '../../gate/wrangler.jsonc'),
    });
    const vars = { ...(rawConfig.vars as Record<string, string>), ...demoGateVars({}) };
    expect(() => gateLimitsFrom(vars)).not.toThrow();
  });
});

describe('startCourtStack', () => {
  let stack: Awaited<ReturnType<typeof startCourtStack>>;
  let assets: string;
  let sitePort: number;
  let mockPort: number;

  beforeAll(async () => {
    assets = mkdtempSync(join(tmpdir(), 'pepa-court-assets-'));
    writeFileSync(join(assets, 'index.html'), '<!doctype html><title>court stack</title>');
    sitePort = await findFreePort();
    mockPort = await findFreePort();
    stack = await startCourtStack({
      sitePort,
      mockPort,
      assetsDir: assets,
      quiet: true,
      env: { ...process.env, GATE_MAX_CONCURRENT_CALLS: '3' },
      vars: { GATE_MAX_CONCURRENT_CALLS: '1' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
    rmSync(assets, { recursive: true, force: true });
  });

  const start = (address: string) =>
    fetch(`${stack.url}/api/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': address },
      body: JSON.stringify({ botCheckToken: 'XXXX.DUMMY.TOKEN.XXXX' }),
    });

  it('serves the site and the gate on one origin', async () => {
    expect(stack.url).toBe(`http://127.0.0.1:${sitePort}`);
    expect(stack.standInUrl).toBe(`http://127.0.0.1:${mockPort}`);
    expect(await (await fetch(`${stack.url}/`)).text()).toContain('court stack');
    const report = await fetch(`${stack.url}/api/report`, {
      headers: { authorization: `Bearer ${stack.secrets.GATE_ADMIN_TOKEN}` },
    });
    expect(await report.json()).toMatchObject({ limits: { maxConcurrentCalls: 1 } });
  });

  it('admits a visitor through the bot check and the provider stand-in, and lines up the next', async () => {
    const first = await start('10.1.0.1');
    expect(first.status).toBe(201);
    const admitted = (await first.json()) as { call: { id: string; webCallUrl: string } };
    expect(admitted.call.webCallUrl).toMatch(/^https:\/\/pepa-demo\.daily\.co\//);
    // Visitors are told apart by the address they come from.
    const second = await start('10.1.0.2');
    expect(second.status).toBe(202);
    const waiting = (await second.json()) as {
      ticket: { id: string; secret: string; position: number };
    };
    expect(waiting.ticket.position).toBe(1);
    expect((await start('10.1.0.1')).status).toBe(429);

    // The page says the room was left: the stand-in ends the call and tells the gate.
    const left = await fetch(`${stack.standInUrl}/__demo/rooms/left`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ roomUrl: admitted.call.webCallUrl }),
    });
    expect(left.status).toBe(204);
    let status = 0;
    const deadline = Date.now() + 15_000;
    while (status !== 201 && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 1000));
      // A ticket proves itself with its secret, from the visitor it was given to.
      const answer = await fetch(`${stack.url}/api/tickets/${waiting.ticket.id}`, {
        method: 'POST',
        headers: { 'cf-connecting-ip': '10.1.0.2', 'ticket-secret': waiting.ticket.secret },
      });
      status = answer.status;
      await answer.arrayBuffer();
    }
    expect(status).toBe(201);
    expect(stack.standIn.stats).toMatchObject({ created: 2, ended: 1, peak: 1, sendFailures: 0 });
  });

  it('frees a place a call never joined: at once when its page gives it back, else at the join timeout; a joined call keeps it', async () => {
    type Admitted = { call: { id: string; webCallUrl: string }; callSecret: string };
    type Waiting = { ticket: { id: string; secret: string } };
    // The last test's calls end, so the one place is free.
    await stack.standIn.endAll();
    const a = await start('10.2.0.1');
    expect(a.status).toBe(201);
    const first = (await a.json()) as Admitted;
    // A's microphone failed: the page gives the place back with the call's secret.
    const given = await fetch(`${stack.url}/api/calls/${first.call.id}`, {
      method: 'DELETE',
      headers: { 'cf-connecting-ip': '10.2.0.1', 'call-secret': first.callSecret },
    });
    expect(given.status).toBe(204);
    const b = await start('10.2.0.2');
    expect(b.status).toBe(201);
    const bAt = Date.now();
    const second = (await b.json()) as Admitted;

    // B never joins (an old page, a crashed tab): the provider's join timeout ends its call.
    const c = await start('10.2.0.3');
    expect(c.status).toBe(202);
    const line = (await c.json()) as Waiting;
    let answer: Response | null = null;
    while (answer?.status !== 201 && Date.now() - bAt < 40_000) {
      await new Promise((done) => setTimeout(done, 1000));
      answer = await fetch(`${stack.url}/api/tickets/${line.ticket.id}`, {
        method: 'POST',
        headers: { 'cf-connecting-ip': '10.2.0.3', 'ticket-secret': line.ticket.secret },
      });
      if (answer.status !== 201) await answer.arrayBuffer();
    }
    expect(answer?.status).toBe(201);
    const heldS = (Date.now() - bAt) / 1000;
    expect(heldS).toBeGreaterThan(19);
    expect(heldS).toBeLessThan(25);
    expect(stack.standIn.calls.get(second.call.id)).toMatchObject({
      status: 'ended',
      endedReason: 'assistant-did-not-receive-customer-audio',
    });

    // C joins: past the court's join backstop (its lookup finds the call in progress), C keeps
    // the place.
    const third = (await answer?.json()) as Admitted;
    const cAt = Date.now();
    const joined = await fetch(`${stack.standInUrl}/__demo/rooms/joined`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ roomUrl: third.call.webCallUrl }),
    });
    expect(joined.status).toBe(204);
    await new Promise((done) => setTimeout(done, 35_000 - (Date.now() - cAt)));
    const d = await start('10.2.0.4');
    expect(d.status).toBe(202);
    await d.arrayBuffer();
    expect(stack.standIn.calls.get(third.call.id)).toMatchObject({ status: 'in-progress' });
  }, 120_000);

  it('stops everything it started', async () => {
    await stack.stop();
    expect(await listening(sitePort)).toBe(false);
    expect(await listening(mockPort)).toBe(false);
  });
});
