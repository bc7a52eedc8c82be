/**
 * The gate's tests, run inside the Workers runtime (workerd) by the Workers Vitest integration:
 * the Worker and its court Durable Object run in the same isolate as the tests, so a stubbed
 * `fetch` stands in for the provider and for Turnstile's siteverify. Referenced from the root
 * config's `test.projects` as the `gate-workerd` project.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { experimental_readRawConfig } from 'wrangler';
import { defineProject } from 'vitest/config';
import { TEST_BINDINGS } from './test-workerd/bindings.ts';

/**
 * The Worker's own wrangler.jsonc, with the built site (dist/, absent before a build) swapped
 * for a one-page stand-in, written to a temporary folder: the tests run on a clean clone.
 */
function testWranglerConfig(): string {
  const here = import.meta.dirname;
  const { rawConfig } = experimental_readRawConfig({ config: join(here, 'wrangler.jsonc') });
  const { $schema: _schema, ...config } = rawConfig as Record<string, unknown>;
  const assets = config.assets as Record<string, unknown>;
  const path = join(mkdtempSync(join(tmpdir(), 'pepa-gate-test-')), 'wrangler.json');
  const testConfig = {
    ...config,
    main: resolve(here, String(config.main)),
    assets: { ...assets, directory: join(here, 'test-workerd', 'site') },
  };
  writeFileSync(path, JSON.stringify(testConfig));
  return path;
}

export default defineProject({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: testWranglerConfig() },
      miniflare: { bindings: TEST_BINDINGS },
    }),
  ],
  test: {
    name: 'gate-workerd',
    // The repository's root, so the WebAssembly and fonts of node_modules/ are inside it: the
    // pool's module loader does not follow Vite's /@fs/ paths to files outside the root.
    root: resolve(import.meta.dirname, '..'),
    include: ['gate/test-workerd/**/*.test.ts'],
    setupFiles: ['gate/test-workerd/setup.ts'],
    // Some tests walk a hundred visitors through the Worker and the court, or a visitor through
    // a hundred requests: on a machine shared with other suites that has taken past 20 s.
    testTimeout: 60_000,
    // One runtime for every file, not one each: loading the gate (its card fonts and WebAssembly)
    // into a fresh runtime for each of the forty files took half this project's CPU. A test
    // starts from nothing all the same: every Durable Object is emptied and ended around each
    // one, and each has a visitor salt of its own for the edge limiter (test-workerd/setup.ts).
    isolate: false,
  },
});
