// @ts-check
// The project's own Node (node_modules/.bin/node, from the locked `node-<platform>-<arch>`
// package; docs/decisions/0010-project-node.md). npm scripts find it first on their PATH once the
// dependencies are installed; a script that installed them itself, started by the machine's own
// Node, moves onto it with `onProjectNode`.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';

/**
 * The project's Node binary, or null when none is installed for this platform.
 * @param {string} root the repository's root folder
 */
export function projectNode(root) {
  const bin = join(root, 'node_modules', '.bin', 'node');
  return existsSync(bin) ? realpathSync(bin) : null;
}

/**
 * Runs this script again on the project's Node, with `extraArgs` added, when this process is
 * another Node: its output is the script's, signals reach it, and this process exits with its
 * status. Resolves at once when this process is the project's Node or there is none.
 * @param {string} root the repository's root folder
 * @param {string[]} extraArgs
 * @returns {Promise<void>}
 */
export function onProjectNode(root, extraArgs) {
  const node = projectNode(root);
  if (node === null || node === realpathSync(process.execPath)) return Promise.resolve();
  const child = spawn(node, [...process.execArgv, ...process.argv.slice(1), ...extraArgs], {
    stdio: 'inherit',
  });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => child.kill(signal));
  }
  return new Promise(() => {
    child.on('exit', (code, signal) => {
      process.exit(code ?? (signal ? 128 + constants.signals[signal] : 1));
    });
  });
}
