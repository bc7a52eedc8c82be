// The system Chromium, one place for everything that launches it: the launch flags that work on
// this kind of machine (no GPU, no sandbox, no outside network), used by Playwright and the bench,
// and a launcher that exposes a DevTools port for Lighthouse.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The Chromium the Playwright suite drives: Debian's chromium-headless-shell, the same release's
 * engine (Blink, V8, the network stack) without the browser around it, as Playwright's own
 * headless Chromium is. The whole browser in headless mode spent about 60 % more CPU on the same
 * tests (docs/decisions/0014-suite-headless-shell.md); the bench, the screenshots and the arrival
 * matrix keep the whole browser, as a visitor runs it.
 */
export const SUITE_CHROMIUM_PATH =
  process.env.E2E_CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/** Flags for a quiet headless browser that only talks to 127.0.0.1. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Extra flags for pages that ask for the microphone: grant it and feed a synthetic one. */
export const MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

/** Browsers started here and not yet stopped, so a signal handler can end them. */
const running = new Set();

/** Stops every browser `launchChromiumForDevtools` started that is still running. */
export async function stopLaunchedChromium() {
  await Promise.allSettled([...running].map((stop) => stop()));
}

/**
 * Starts Chromium with a fresh profile and a DevTools port on 127.0.0.1.
 * @returns {Promise<{ port: number, stop: () => Promise<void> }>}
 */
export async function launchChromiumForDevtools() {
  const profile = await mkdtemp(join(tmpdir(), 'pepa-chromium-'));
  const args = [
    ...CHROMIUM_ARGS,
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    'about:blank',
  ];
  // Its own process group, so stopping it also ends the renderer and helper processes.
  const child = spawn(CHROMIUM_PATH, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise((done) => child.once('exit', done));
  // Its own process group means a Ctrl-C in the terminal does not reach it: the caller's signal
  // handler ends it through `stopLaunchedChromium`.
  running.add(stop);

  /** @param {NodeJS.Signals} signal */
  const killGroup = (signal) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  async function stop() {
    running.delete(stop);
    if (child.exitCode === null && child.signalCode === null) {
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await rm(profile, { recursive: true, force: true, maxRetries: 3 });
  }

  try {
    const port = await new Promise((resolvePort, reject) => {
      let output = '';
      const timer = setTimeout(
        () => reject(new Error(`Chromium gave no DevTools port within ${READY_TIMEOUT_MS} ms`)),
        READY_TIMEOUT_MS,
      );
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited (code ${code}) before it was ready.\n${output.trim()}`));
      });
      child.stderr.on('data', (chunk) => {
        output = (output + chunk.toString()).slice(-4000);
        const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output);
        if (match) {
          clearTimeout(timer);
          resolvePort(Number(match[1]));
        }
      });
    });
    // Keep draining stderr so a chatty browser never blocks on a full pipe.
    child.stderr.resume();
    return { port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
