// `npm run mock`: serves the vendored provider spec with Prism on 127.0.0.1:$MOCK_PORT (default
// 4010), CORS and request validation on, until Ctrl-C.
import { startPrism } from './lib/prism.mjs';

const port = Number(process.env.MOCK_PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`MOCK_PORT must be a port number (got "${process.env.MOCK_PORT}")`);
  process.exit(1);
}

let mock;
try {
  mock = await startPrism({ port });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
console.log(`Mock provider API on ${mock.url} — Ctrl-C to stop`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await mock.stop();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
