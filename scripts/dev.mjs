// `npm run dev`: the Vite dev server with hot reload. Without VITE_VAPI_PUBLIC_KEY and
// VITE_VAPI_ASSISTANT_ID it runs the demo: a Prism mock of the provider on $MOCK_PORT and the
// offline room simulator.
import { resolve } from 'node:path';
import {
  checkServicePorts,
  isLive,
  startDemoMock,
  useDemoEnvironment,
} from './lib/demo-services.mjs';
import { stopOnSignal } from './lib/stop-on-signal.mjs';

const root = resolve(import.meta.dirname, '..');
const live = isLive();
const { PORT: port, MOCK_PORT: mockPort } = await checkServicePorts('npm run dev', live);

const stops = [];
stopOnSignal(stops);
if (!live) {
  useDemoEnvironment(mockPort);
  stops.push(await startDemoMock(mockPort));
}

const { createServer } = await import('vite');
const server = await createServer({ root, server: { port, host: '127.0.0.1', strictPort: true } });
stops.push(() => server.close());
await server.listen();
server.printUrls();
