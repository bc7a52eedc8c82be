// @ts-check
// `npm run mock`: serves the vendored provider spec with Prism on 127.0.0.1:$MOCK_PORT (default
// 4010), CORS and request validation on, until Ctrl-C.
import { DEFAULT_MOCK_PORT } from './lib/demo-services.mjs';
import { checkPortsOrExit } from './lib/ports.mjs';
import { startPrism } from './lib/prism.mjs';
import { stopOnSignal } from './lib/stop-on-signal.mjs';

const { MOCK_PORT: port } = await checkPortsOrExit(
  [{ name: 'MOCK_PORT', fallback: DEFAULT_MOCK_PORT }],
  'npm run mock',
);

let mock;
try {
  mock = await startPrism({ port });
} catch (error) {
  console.error(`npm run mock: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
console.log(`Mock provider API on ${mock.url} — Ctrl-C to stop`);
stopOnSignal([() => mock.stop()]);
