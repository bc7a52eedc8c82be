// `npm run dev`: the Vite dev server with hot reload. Without VITE_VAPI_PUBLIC_KEY and
// VITE_VAPI_ASSISTANT_ID it runs the demo: the court gate in workerd (on a free port, /api/
// proxied to it), the stand-in provider on $MOCK_PORT in front of Prism, and the offline room
// simulator.
import { resolve } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkServicePorts,
  DEMO_EDGE_LIMIT,
  demoGateVars,
  isLive,
  useDemoEnvironment,
} from './lib/demo-services.mjs';
import { suggestFreePort } from './lib/ports.mjs';
import { stopOnSignal } from './lib/stop-on-signal.mjs';

const root = resolve(import.meta.dirname, '..');
const live = isLive();
const { port, mockPort } = await checkServicePorts('npm run dev', live);

/** @type {Array<() => Promise<unknown>>} */
const stops = [];
stopOnSignal(stops);
/** @type {Record<string, { target: string, changeOrigin: boolean }> | undefined} */
let proxy;
// A mock port is checked for the demo only.
if (mockPort !== null) {
  useDemoEnvironment(mockPort);
  // The gate serves no pages here (Vite does): it gets an empty folder for its assets.
  const assets = await mkdtemp(join(tmpdir(), 'pepa-dev-assets-'));
  stops.push(() => rm(assets, { recursive: true, force: true }));
  const gatePort = await suggestFreePort(port + 100, [port, mockPort]);
  const { startCourtStack } = await import('./lib/court-stack.mjs');
  const court = await startCourtStack({
    sitePort: gatePort,
    mockPort,
    assetsDir: assets,
    vars: demoGateVars(),
    edgeLimit: DEMO_EDGE_LIMIT,
    quiet: true,
  });
  stops.push(() => court.stop());
  console.log(
    `Court gate on ${court.url} (proxied at /api/), stand-in provider on ${court.standInUrl}`,
  );
  proxy = { '/api': { target: court.url, changeOrigin: false } };
}

const { createServer } = await import('vite');
const server = await createServer({
  root,
  server: { port, host: '127.0.0.1', strictPort: true, ...(proxy ? { proxy } : {}) },
});
stops.push(() => server.close());
await server.listen();
server.printUrls();
