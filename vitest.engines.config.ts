import { defineConfig } from 'vitest/config';

/**
 * The visitor's browser tests in the engines besides Chromium, Gecko (Debian's firefox-esr) and
 * WebKit (Debian's WebKitGTK MiniBrowser), and the arrival matrix (every way a visitor arrives, in
 * Chromium, Gecko and WebKit): `npm run test:engines`. `ENGINES=webkit` runs one engine;
 * `npm run test:arrivals` runs the matrix alone.
 */
const ARRIVALS = 'e2e/engines/arrivals-*.engine.ts';
const arrivalsOnly = process.env.ENGINES_SUITE === 'arrivals';

export default defineConfig({
  test: {
    name: 'engines',
    environment: 'node',
    include: arrivalsOnly ? [ARRIVALS] : ['e2e/engines/**/*.engine.ts'],
    globalSetup: ['e2e/engines/site-server.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ['verbose'],
  },
});
