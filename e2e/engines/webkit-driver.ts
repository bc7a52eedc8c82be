// The processes behind a WebKit session: an Xvfb of its own (MiniBrowser has no headless mode) and
// Debian's WebKitWebDriver on it, each on a display and a port free at the time, so two runs on one
// machine never meet. The WebDriver client connects to the driver started here and starts nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pollUntil } from './engine';

export const WEBKIT_DRIVER_PATH = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';

const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;
const HOST = '127.0.0.1';

/** Debian installs MiniBrowser beside WebKitGTK, under the machine's multiarch folder. */
export function miniBrowserPath(): string {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  for (const arch of readdirSync('/usr/lib').filter((name) => name.includes('-linux-'))) {
    for (const api of ['webkit2gtk-4.1', 'webkit2gtk-4.0', 'webkitgtk-6.0']) {
      const candidate = `/usr/lib/${arch}/${api}/MiniBrowser`;
      if (existsSync(candidate)) return candidate;
    }
  }
  throw new Error('MiniBrowser is missing: install webkit2gtk-driver (scripts/ensure-engines.sh)');
}

/**
 * A GTK configuration of the session's own, in which animations are off: WebKitGTK then tells
 * pages that the visitor prefers reduced motion, as the other engines' pages do here. Returns the
 * folder to give MiniBrowser as its XDG_CONFIG_HOME.
 */
async function reducedMotionConfig(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'pepa-webkit-'));
  await mkdir(join(home, 'gtk-3.0'));
  await writeFile(
    join(home, 'gtk-3.0', 'settings.ini'),
    '[Settings]\ngtk-enable-animations=false\n',
  );
  return home;
}

/** Starts a process and resolves the first line it writes on file descriptor 3. */
function spawnWithReadyFd(command: string, args: string[]) {
  const child = spawn(command, args, {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${command} did not start`)), START_TIMEOUT_MS);
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) {
        clearTimeout(timer);
        resolve(output.trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}) before it was ready`));
    });
  });
  child.stderr?.resume();
  return { child, ready };
}

/** Ends a process group started here: politely, then for good if it lingers. */
async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((done) => child.once('exit', done));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** A port nothing listens on now, chosen by the system. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface WebKitDriver {
  readonly hostname: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts Xvfb and WebKitWebDriver on it, and resolves once the driver answers its status. */
export async function startWebKitDriver(): Promise<WebKitDriver> {
  const processes: ChildProcess[] = [];
  let configHome: string | undefined;
  const stop = async () => {
    for (const child of processes.reverse()) await stopProcess(child);
    if (configHome) await rm(configHome, { recursive: true, force: true });
  };
  try {
    configHome = await reducedMotionConfig();
    // Xvfb picks a free display itself and names it on file descriptor 3.
    const xvfb = spawnWithReadyFd('Xvfb', [
      '-displayfd',
      '3',
      '-screen',
      '0',
      '1920x1200x24',
      '-nolisten',
      'tcp',
    ]);
    processes.push(xvfb.child);
    const display = `:${await xvfb.ready}`;

    const port = await freePort();
    processes.push(
      spawn(WEBKIT_DRIVER_PATH, [`--host=${HOST}`, `--port=${port}`], {
        // MiniBrowser, started by the driver, inherits its environment. Xvfb has no GPU, so
        // WebKitGTK's accelerated compositing would run its GL in Mesa's software rasteriser:
        // drawn without it, the same pages, layout and events cost about 43 % less CPU.
        env: {
          ...process.env,
          DISPLAY: display,
          XDG_CONFIG_HOME: configHome,
          WEBKIT_DISABLE_COMPOSITING_MODE: '1',
        },
        detached: true,
        stdio: 'ignore',
      }),
    );
    await pollUntil(
      'WebKitWebDriver',
      () =>
        fetch(`http://${HOST}:${port}/status`)
          .then((response) => response.ok)
          .catch(() => false),
      START_TIMEOUT_MS,
    );
    return { hostname: HOST, port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
