// @ts-check
// Starts a Prism mock of the vendored provider spec as a child process, for `npm run mock`, the
// demo build and the contract tests. Request validation is always on in Prism's mock mode;
// `--errors false` keeps the answers example-based 2xx whenever the request is valid.
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { isAbsolute, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const prismBin = resolve(root, 'node_modules', '.bin', 'prism');
export const DEFAULT_SPEC = 'openapi/vapi.json';
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

/**
 * Asks the OS for a port nobody listens on.
 * @returns {Promise<number>}
 */
export function findFreePort(host = '127.0.0.1') {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** @param {number} ms */
const delay = (ms) => new Promise((done) => setTimeout(done, ms));

/**
 * Resolves true when something accepts a TCP connection on host:port.
 * @param {string} host
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function accepts(host, port) {
  return new Promise((done) => {
    const socket = connect({ host, port });
    /** @param {boolean} ok */
    const finish = (ok) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

/**
 * @param {{ port?: number, host?: string, spec?: string, quiet?: boolean }} [options]
 *   `port` 0 or undefined picks a free port; `spec` is resolved against the repository root.
 * @returns {Promise<{ url: string, port: number, stop: () => Promise<void> }>}
 */
export async function startPrism({ port, host = '127.0.0.1', spec = DEFAULT_SPEC, quiet } = {}) {
  const listenPort = port ? Number(port) : await findFreePort(host);
  const specPath = isAbsolute(spec) ? spec : resolve(root, spec);
  const url = `http://${host}:${listenPort}`;
  if (await accepts(host, listenPort)) {
    throw new Error(`Cannot start Prism: something already listens on ${url}.`);
  }
  const args = ['mock', specPath, '--host', host, '--port', String(listenPort)];
  args.push('--cors', '--errors', 'false', '--dynamic', 'false');
  args.push('--verboseLevel', quiet ? 'error' : 'info');

  // Through a guard whose stdin is a pipe from this process, so Prism ends with us even when we
  // are killed outright; the exit hook covers a crash or process.exit() without stop().
  const guard = resolve(import.meta.dirname, 'process-guard.mjs');
  const child = spawn(process.execPath, [guard, prismBin, ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let output = '';
  /** @param {Buffer} chunk */
  const keep = (chunk) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', (chunk) => (quiet ? keep(chunk) : process.stdout.write(chunk)));
  child.stderr.on('data', (chunk) => (quiet ? keep(chunk) : process.stderr.write(chunk)));

  /** @type {Promise<void>} */
  const exited = new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });
  /** @type {Error | undefined} */
  let spawnError;
  child.once('error', (error) => {
    spawnError = error;
  });

  async function stop() {
    if (!spawnError && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
  }

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (spawnError || child.exitCode !== null || child.signalCode !== null) {
      await stop();
      const reason = spawnError ? spawnError.message : `exit code ${child.exitCode}`;
      throw new Error(`Prism did not start on ${url} (${reason}).\n${output.trim()}`);
    }
    // A TCP probe rather than an HTTP request, so the mock's log shows only real traffic.
    if (await accepts(host, listenPort)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `Prism did not answer on ${url} within ${READY_TIMEOUT_MS} ms.\n${output.trim()}`,
      );
    }
    await delay(150);
  }

  return { url, port: listenPort, stop };
}
