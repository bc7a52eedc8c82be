import { defineConfig } from '@playwright/test';
import { MOCK_PORT, SITE_DIR, SITE_PORT as PORT } from './e2e/support/site';
import { CHROMIUM_ARGS, MEDIA_ARGS, SUITE_CHROMIUM_PATH } from './scripts/lib/chromium.mjs';
import { cpuSlowdown } from './scripts/lib/cpu-slowdown.mjs';

/**
 * Every test runs at both widths, phone and desktop, unless a tag in its title (or its group's)
 * says otherwise:
 * - `@once`: what it checks is the same at every width and on every device (the gate's answers
 *   and the line, a chunk's recovery, the call's protocol and focus, the bytes served, the tests'
 *   own recorders), or it sets its widths itself: it runs in the desktop project only, which
 *   renders at one device pixel per CSS pixel. Layout, the first screen, the look (screenshots,
 *   axe) and the whole call with its moments on screen stay at both widths.
 * - `@phone-only`: what it checks exists on a phone only (the menu button, the phone's wait
 *   before joining, a 320 px screen at 200 % zoom).
 */
const ONCE = /@once\b/;
const PHONE_ONLY = /@phone-only\b/;

/** The demo is already built in SITE_DIR for MOCK_PORT (`npm run verify` does it once). */
const PREBUILT = process.env.E2E_PREBUILT === '1';

/**
 * E2E_CPU_SLOWDOWN=4 runs every page on a CPU four times slower (e2e/support/fixtures.ts): the
 * suite's waits are given that much more time, since a slow phone takes longer to get there; what
 * it asserts is not loosened.
 */
const SLOWDOWN = cpuSlowdown(process.env.E2E_CPU_SLOWDOWN);

/** Launch flags that work on machines without a GPU, sandbox or outside network. */
const CHROMIUM_FLAGS = [...CHROMIUM_ARGS, ...MEDIA_ARGS];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // The Prism the courts of the line's specs share (e2e/support/suite-prism.ts).
  globalSetup: './e2e/support/suite-prism.ts',
  fullyParallel: false,
  // One browser at a time by default; E2E_WORKERS=2 runs two files at once against the one demo
  // (its court has ten places, and no test here fills it; the line's tests start a court of their
  // own).
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: 0,
  timeout: 60_000 * SLOWDOWN,
  expect: { timeout: 10_000 * SLOWDOWN },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: SUITE_CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
    trace: 'off',
    // Pages prefer reduced motion: an idle page's endless animations keep a GPU-less Chromium busy
    // (a fifth of two cores on the landing page, against a fortieth without them), and only the
    // tests of motion need it. Those opt back in, and docs/testing.md names them.
    reducedMotion: 'reduce',
  },
  projects: [
    {
      name: 'desktop',
      grepInvert: PHONE_ONLY,
      use: { viewport: { width: 1440, height: 900 } },
    },
    {
      name: 'phone',
      grepInvert: ONCE,
      use: {
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
        userAgent:
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
      },
    },
  ],
  webServer: {
    // Its own build folder, so a developer's dist/ is neither used nor overwritten. `npm run
    // verify` builds the demo there once for this suite and the engines' (E2E_PREBUILT=1).
    command: `node scripts/start.mjs --no-install${PREBUILT ? ' --no-build' : ''} --out=${SITE_DIR}`,
    url: `http://127.0.0.1:${PORT}/`,
    env: {
      PORT: String(PORT),
      MOCK_PORT: String(MOCK_PORT),
      // The suite's court keeps one day's books for the whole run, and a run repeated three times
      // (`--repeat-each=3`) spends about USD 25 of simulated calls: the demo's whole daily budget,
      // after which it answers 'court-closed'. The cap has its own tests (the gate's, and the
      // refusal in talk-field-start-fails); here it must never be what a test runs into.
      GATE_DAILY_BUDGET_USD: process.env.GATE_DAILY_BUDGET_USD ?? '100000',
      // Every visitor of the suite is 127.0.0.1, and a card's tests make about eight cards a run
      // (more with `--repeat-each`): the demo's ten a day is the gate's tests' to check, not a
      // limit a browser test should meet.
      GATE_CARDS_PER_DAY: process.env.GATE_CARDS_PER_DAY ?? '1000',
      // …and the one network's (every visitor is 127.0.0.1's /24) the same.
      GATE_CARDS_NETWORK_PER_DAY: process.env.GATE_CARDS_NETWORK_PER_DAY ?? '1000',
    },
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  },
});
