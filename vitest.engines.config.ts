import { defineConfig } from 'vitest/config';

/**
 * The visitor's browser tests in the engines besides Chromium: Gecko (Debian's firefox-esr) and
 * WebKit (Debian's WebKitGTK MiniBrowser). `npm run test:engines`; `ENGINES=webkit` runs one.
 */
export default defineConfig({
  test: {
    name: 'engines',
    environment: 'node',
    include: ['e2e/engines/**/*.engine.ts'],
    globalSetup: ['e2e/engines/site-server.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ['verbose'],
  },
});
