// @ts-check
// The ports the long-running scripts listen on, checked before anything is installed or built:
// a bad or busy port fails in one line that names the variable and a port that is free now.
import { createServer } from 'node:net';

const HOST = '127.0.0.1';

/** A start-up problem the user fixes by changing a variable: printed as one line, no stack. */
export class PortError extends Error {}

/**
 * Resolves true when nothing listens on host:port (we can bind it ourselves).
 * @param {number} port
 * @returns {Promise<boolean>}
 */
export function isPortFree(port, host = HOST) {
  return new Promise((done) => {
    const server = createServer();
    server.unref();
    server.once('error', () => done(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => done(true)));
  });
}

/**
 * The first free port after `port` (skipping `taken`), else one the OS picks.
 * @param {number} port
 * @param {readonly number[]} [taken]
 * @returns {Promise<number>}
 */
export async function suggestFreePort(port, taken = [], host = HOST) {
  for (let candidate = port + 1; candidate < Math.min(port + 50, 65536); candidate += 1) {
    if (!taken.includes(candidate) && (await isPortFree(candidate, host))) return candidate;
  }
  return new Promise((done, fail) => {
    const server = createServer();
    server.unref();
    server.once('error', fail);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Reads a port variable; throws a PortError naming it when it is not a port number.
 * @param {string} name
 * @param {number} fallback
 * @returns {number}
 */
export function readPort(name, fallback, env = process.env) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new PortError(
      `${name} must be a port number from 1 to 65535 (got "${raw}"); try ${name}=${fallback}`,
    );
  }
  return port;
}

/**
 * Reads and checks each port variable: a valid number, distinct from the others, and free.
 * @template {string} Name
 * @param {Array<{ name: Name, fallback: number }>} wanted
 * @returns {Promise<Record<Name, number>>}
 */
export async function checkPorts(wanted, env = process.env) {
  const ports = /** @type {Record<Name, number>} */ ({});
  for (const { name, fallback } of wanted) ports[name] = readPort(name, fallback, env);
  /** @type {number[]} */
  const all = Object.values(ports);
  for (const { name } of wanted) {
    const port = ports[name];
    const clash = wanted.find((other) => other.name !== name && ports[other.name] === port);
    const busy = clash ? false : !(await isPortFree(port));
    if (clash || busy) {
      const alternative = await suggestFreePort(port, all);
      const why = clash ? `is also ${clash.name}` : 'is already in use';
      throw new PortError(`${name}=${port} ${why}; try ${name}=${alternative}`);
    }
  }
  return ports;
}

/**
 * `checkPorts` for a command line: a PortError ends the process with its one line.
 * @template {string} Name
 * @param {Array<{ name: Name, fallback: number }>} wanted
 * @param {string} command
 * @returns {Promise<Record<Name, number>>}
 */
export async function checkPortsOrExit(wanted, command) {
  try {
    return await checkPorts(wanted);
  } catch (error) {
    if (!(error instanceof PortError)) throw error;
    console.error(`${command}: ${error.message}`);
    process.exit(1);
  }
}
