// The demo's production path, locally: the gate in workerd (wrangler dev) in front of the provider
// stand-in in front of Prism, as `npm start` runs it.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envFileText,
  gateVarArgs,
  snapshotWorker,
  startCourtStack,
} from '../../scripts/lib/court-stack.mjs';
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
  it('are passed on from the environment, with the given vars over them', () => {
    const args = gateVarArgs(
      { GATE_MAX_CONCURRENT_CALLS: '2', GATE_DAILY_BUDGET_USD: '5', PATH: '/bin', GATE_EMPTY: '' },
      { GATE_DAILY_BUDGET_USD: 9 },
    );
    expect(args).toEqual([
      '--var',
      'GATE_MAX_CONCURRENT_CALLS:2',
      '--var',
      'GATE_DAILY_BUDGET_USD:9',
    ]);
  });

  it('and the secrets go in an env file, one quoted value a line', () => {
    expect(envFileText({ A: 'x y', B: 'q"' })).toBe('A="x y"\nB="q\\""\n');
  });
});

describe('the Worker it runs', () => {
  it('is a copy of the source, so edits in the tree do not restart the gate and lose its line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pepa-court-copy-'));
    try {
      const config = snapshotWorker(dir);
      expect(config).toBe(join(dir, 'gate', 'wrangler.jsonc'));
      for (const file of ['gate/src/index.ts', 'gate/src/court.ts', 'generated/sdk.gen.ts']) {
        expect(existsSync(join(dir, file))).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
      ticket: { id: string; position: number; secret: string };
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
      // A ticket is shown with its secret, by the visitor it was given to.
      const answer = await fetch(`${stack.url}/api/tickets/${waiting.ticket.id}`, {
        method: 'POST',
        headers: { 'ticket-secret': waiting.ticket.secret, 'cf-connecting-ip': '10.1.0.2' },
      });
      status = answer.status;
      await answer.arrayBuffer();
    }
    expect(status).toBe(201);
    expect(stack.standIn.stats).toMatchObject({ created: 2, ended: 1, peak: 1, sendFailures: 0 });
  });

  it('stops everything it started', async () => {
    await stack.stop();
    expect(await listening(sitePort)).toBe(false);
    expect(await listening(mockPort)).toBe(false);
  });
});
