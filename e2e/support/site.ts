// Where the browser suite serves the demo: its ports (E2E_PORT, E2E_MOCK_PORT) and its own build
// folder per port, so two runs in one checkout (say, a second copy of the suite as load) never
// build over each other's files.
export const SITE_PORT = Number(process.env.E2E_PORT ?? 5199);
export const MOCK_PORT = Number(process.env.E2E_MOCK_PORT ?? 4099);
export const SITE_DIR = `.e2e-dist/${SITE_PORT}`;
