// @ts-check
// Where the browser suites (Chromium's, and the engines') serve the demo: its ports (E2E_PORT,
// E2E_MOCK_PORT) and its own build folder per port, so two runs in one checkout (say, a second
// copy of the suite as load) never build over each other's files. `npm run verify` builds the
// demo there once for both suites; run directly, this prints the three as shell assignments.
import { pathToFileURL } from 'node:url';

export const SITE_PORT = Number(process.env.E2E_PORT ?? 5199);
export const MOCK_PORT = Number(process.env.E2E_MOCK_PORT ?? 4099);
export const SITE_DIR = `.e2e-dist/${SITE_PORT}`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(`E2E_PORT=${SITE_PORT} E2E_MOCK_PORT=${MOCK_PORT} E2E_SITE_DIR=${SITE_DIR}`);
}
