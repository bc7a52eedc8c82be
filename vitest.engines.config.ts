import { defineConfig } from 'vitest/config';

/**
 * The visitor's browser tests in the engines besides Chromium: Gecko (Debian's firefox-esr) and
 * WebKit (Debian's WebKitGTK MiniBrowser). `npm run test:engines`; `ENGINES=webkit` runs one.
 * The arrival matrix (every arrival in Chromium, Gecko and WebKit) runs on its own,
 * `npm run test:arrivals`, and stays out of `npm run verify` until it passes reliably on a
 * two-core machine: one of its WebKit cases (kept in the back/forward cache) has hung.
 */
const ARRIVALS = 'e2e/engines/arrivals.engine.ts';
const arrivalsOnly = process.env.ENGINES_SUITE === 'arrivals';

export default defineConfig({
  test: {
    name: 'engines',
    environment: 'node',
    include: arrivalsOnly ? [ARRIVALS] : ['e2e/engines/**/*.engine.ts'],
    exclude: arrivalsOnly ? [] : [ARRIVALS],
    globalSetup: ['e2e/engines/site-server.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ['verbose'],
  },
});
