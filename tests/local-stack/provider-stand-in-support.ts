/**
 * What the provider stand-in's tests share: the run's real Prism behind the stand-in
 * (tests/support/shared-prism.ts), a gate that records the server messages it is told (`heard`),
 * the stand-ins a test started (stopped after it), and the requests the gate and the page's
 * simulated room make of the stand-in.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { startProviderStandIn } from '../../gate/dev/provider-stand-in.mjs';

type StandIn = Awaited<ReturnType<typeof startProviderStandIn>>;

let gate: Server;
let gateUrl = '';
/** What the gate was told, in order; emptied after each test. */
export const heard: { authorization: string | undefined; message: Record<string, unknown> }[] = [];
const running: StandIn[] = [];

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((done) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => done(JSON.parse(text || '{}') as Record<string, unknown>));
  });
}

/** Starts the recording gate for the calling file, and stops each test's stand-ins. */
export function setUpStandInTests(): void {
  beforeAll(async () => {
    gate = createServer((req, res) => {
      void readJson(req).then((body) => {
        heard.push({
          authorization: req.headers.authorization,
          message: body.message as Record<string, unknown>,
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"applied":true}');
      });
    });
    await new Promise<void>((done) => gate.listen(0, '127.0.0.1', () => done()));
    const address = gate.address();
    gateUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    gate.closeAllConnections();
    await new Promise((done) => gate.close(done));
  });

  afterEach(async () => {
    for (const standIn of running.splice(0)) await standIn.stop();
    heard.length = 0;
  });
}

export async function standIn(options: Partial<Parameters<typeof startProviderStandIn>[0]> = {}) {
  const started = await startProviderStandIn({
    prismUrl: inject('prismUrl'),
    gateUrl,
    webhookSecret: 'webhook-secret',
    quiet: true,
    ...options,
  });
  running.push(started);
  return started;
}

export const createWebCall = (url: string, key = 'private-key', overrides: object = {}) =>
  fetch(`${url}/call/web`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      assistantId: 'demo-pepa-assistant',
      assistantOverrides: { maxDurationSeconds: 180, ...overrides },
      roomDeleteOnUserLeaveEnabled: false,
    }),
  });

/** A call created as the gate creates it: tagged, with a join timeout (here, short). */
export const createGateCall = async (url: string, joinSeconds: number) =>
  (await (
    await createWebCall(url, 'private-key', {
      customerJoinTimeoutSeconds: joinSeconds,
      metadata: { gateLease: 'lease-1' },
    })
  ).json()) as { id: string; webCallUrl: string; status: string };

export const roomSays = (url: string, what: 'joined' | 'left', roomUrl: string) =>
  fetch(`${url}/__demo/rooms/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:5173' },
    body: JSON.stringify({ roomUrl }),
  });

export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** An end-of-call report as the stand-in sends it: its bill and the times the bill spans. */
export type CallReport = { cost: number; startedAt: string; endedAt: string };

/** The provider seconds a report's own start and end span, at `timeScale` of them a real second. */
export function reportedSeconds(report: CallReport, timeScale = 1): number {
  return ((Date.parse(report.endedAt) - Date.parse(report.startedAt)) / 1000) * timeScale;
}
