// `npm run dev`: the Vite dev server with hot reload. Without VITE_VAPI_PUBLIC_KEY and
// VITE_VAPI_ASSISTANT_ID it runs the demo: a Prism mock of the provider on $MOCK_PORT and the
// offline room simulator.
import { resolve } from 'node:path';
import { stopOnSignal } from './lib/stop-on-signal.mjs';
import { createServer } from 'vite';

const root = resolve(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 5173);
const mockPort = Number(process.env.MOCK_PORT ?? 4010);
const live = Boolean(process.env.VITE_VAPI_PUBLIC_KEY && process.env.VITE_VAPI_ASSISTANT_ID);

const stops = [];
if (!live) {
  process.env.VITE_PEPA_DEMO = 'true';
  process.env.VITE_VAPI_API_URL ??= `http://127.0.0.1:${mockPort}`;
  const { startPrism } = await import('./lib/prism.mjs');
  const mock = await startPrism({ port: mockPort, quiet: true });
  stops.push(() => mock.stop());
  console.log(`Mock provider API (Prism) on ${mock.url}`);
}

const server = await createServer({ root, server: { port, host: '127.0.0.1', strictPort: true } });
await server.listen();
stops.push(() => server.close());
server.printUrls();

stopOnSignal(stops);
