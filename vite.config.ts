import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { siteHtmlPlugin } from './scripts/site-html-plugin.ts';

/**
 * The suites under tests/: contract (the provider's spec against a real Prism, and the scripts
 * that speak to the provider), local-stack (the local court stack and the stand-in provider, as
 * `npm start` runs them) and build (the build, the structure, the README).
 */
const NODE_SUITES = ['contract', 'local-stack', 'build'] as const;

export default defineConfig(({ mode }) => ({
  // The site plugin validates VITE_* variables; tests get the demo configuration instead. Keyed on
  // Vitest's mode, not on its VITEST variable, which a build spawned from a test would inherit.
  plugins: [react(), tailwindcss(), ...(mode === 'test' ? [] : [siteHtmlPlugin()])],
  build: {
    target: 'es2022',
    sourcemap: false,
    // Keeps the prerender template and the client bundle in the same folder layout.
    outDir: 'dist',
    assetsInlineLimit: 0,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  test: {
    env: { VITE_PEPA_DEMO: 'true' },
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
    // Fails the run when a test wrote to dist/ or a tracked folder (tests build into temp folders).
    globalSetup: ['tests/support/tree-guard.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: [
            'src/**/*.test.{ts,tsx}',
            'scripts/**/*.test.{ts,mjs}',
            'assistant/**/*.test.ts',
          ],
          setupFiles: ['src/test/setup.ts'],
          // One jsdom and one module graph per worker instead of per file: setting up jsdom and
          // importing React and Testing Library for each of the 53 files took three quarters of
          // this project's time. Each test cleans up after itself (the setup file unmounts what
          // it rendered; mocks, stubbed globals and variables are restored), and the files pass
          // in any order (\`--sequence.shuffle\`).
          isolate: false,
        },
      },
      // The tests under tests/, one project per folder, each named after its home: they start
      // real processes (Prism, the local court stack, builds), hence the long timeouts.
      ...NODE_SUITES.map((home) => ({
        extends: true as const,
        test: {
          name: home,
          environment: 'node',
          include: [`tests/${home}/**/*.test.ts`],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One Prism mock of the provider spec for the files that check requests against it.
          ...(home === 'build' ? {} : { globalSetup: ['tests/support/shared-prism.ts'] }),
        },
      })),
      {
        extends: true,
        test: {
          // The court's rules that need no runtime (the line, its pace, the money, the court
          // with its ledger in memory), in plain Node beside the workerd suite.
          name: 'gate-rules',
          environment: 'node',
          include: ['gate/src/**/*.test.ts'],
        },
      },
      // The court gate's tests, inside the Workers runtime (workerd): the gate-workerd project.
      'gate/vitest.config.ts',
    ],
  },
}));
