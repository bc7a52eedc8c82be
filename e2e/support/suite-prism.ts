// Playwright's global setup: one Prism mock of the vendored provider spec for the courts the
// line's specs start of their own (own-court.ts), where each court started one (about 2 CPU-s
// apiece, seven courts a run). Prism answers from the spec's examples and keeps no state between
// requests, so courts running side by side cannot see each other's traffic. The address reaches
// the workers as E2E_PRISM_URL; the teardown stops it after the last test.
import { startPrism } from '../../scripts/lib/prism.mjs';

const PRISM_URL_VARIABLE = 'E2E_PRISM_URL';

export default async function setup() {
  const prism = await startPrism({ quiet: true });
  process.env[PRISM_URL_VARIABLE] = prism.url;
  return async () => {
    delete process.env[PRISM_URL_VARIABLE];
    await prism.stop();
  };
}

/** The suite's Prism, for a court of a spec's own. */
export function suitePrismUrl(): string {
  const url = process.env[PRISM_URL_VARIABLE];
  if (!url)
    throw new Error(
      `${PRISM_URL_VARIABLE} is unset: playwright.config.ts's global setup starts the suite's Prism`,
    );
  return url;
}
