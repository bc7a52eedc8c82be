// Builds the demo into a temporary folder and serves it (with the provider mock) for the engine
// tests, on E2E_PORT and E2E_MOCK_PORT like the Chromium suite; stopped when the run ends.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { MOCK_PORT, SITE_PORT } from '../support/site';

declare module 'vitest' {
  export interface ProvidedContext {
    siteUrl: string;
  }
}

const root = resolve(import.meta.dirname, '../..');

export default async function serveSite(project: TestProject) {
  // A site already running (npm run build:demo && npm start) can be named instead of built again.
  if (process.env.ENGINES_SITE_URL) {
    project.provide('siteUrl', process.env.ENGINES_SITE_URL);
    return;
  }
  const outDir = await mkdtemp(join(tmpdir(), 'pepa-engines-'));
  // The site runs as `npm start` runs it: not with the test runner's own variables (NODE_ENV=test,
  // VITEST…), which the build and the local Worker runtime would otherwise inherit.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => name !== 'NODE_ENV' && name !== 'TEST' && !name.startsWith('VITEST'),
    ),
  );
  const server = spawn(process.execPath, ['scripts/start.mjs', '--no-install', `--out=${outDir}`], {
    cwd: root,
    env: { ...env, PORT: String(SITE_PORT), MOCK_PORT: String(MOCK_PORT) },
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((done) => server.once('exit', done));
  const url = `http://127.0.0.1:${SITE_PORT}`;
  await new Promise<void>((ready, fail) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`The site did not start:\n${output}`)), 300_000);
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(url)) {
        clearTimeout(timer);
        ready();
      }
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`The site exited (${code}) before it served:\n${output}`));
    });
  });
  server.stdout?.resume();
  project.provide('siteUrl', `${url}/`);

  return async () => {
    if (server.exitCode === null && server.pid) process.kill(-server.pid, 'SIGTERM');
    await exited;
    await rm(outDir, { recursive: true, force: true });
  };
}
