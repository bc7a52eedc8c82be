// Runs a command and ends it (and, through it, whatever it started) when the process that started
// us goes away, however it goes (Ctrl-C, a crash, SIGKILL): our stdin is a pipe from that process,
// and the pipe closes when it dies. A signal to us ends it too. The command stays in our process
// group, so a kill of the whole group (a test runner stopping its web server with SIGKILL) takes
// it and its children along; a group of its own would outlive such a kill.
// Usage: node process-guard.mjs <command> <args…>
import { spawn } from 'node:child_process';

const [bin, ...args] = process.argv.slice(2);
if (!bin) {
  console.error('Usage: node process-guard.mjs <command> <args…>');
  process.exit(2);
}
const child = spawn(bin, args, { stdio: ['ignore', 'inherit', 'inherit'] });

/** @param {NodeJS.Signals} signal */
function signalChild(signal) {
  try {
    child.kill(signal);
  } catch {
    // It is already gone.
  }
}

let ending = false;
function end() {
  if (ending) return;
  ending = true;
  signalChild('SIGTERM');
  setTimeout(() => signalChild('SIGKILL'), 5000).unref();
}

process.stdin.on('end', end);
process.stdin.on('error', end);
process.stdin.resume();
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP']))
  process.on(signal, end);
child.once('error', (error) => {
  console.error(error.message);
  process.exit(1);
});
child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
