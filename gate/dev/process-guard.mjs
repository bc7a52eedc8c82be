// Runs a command and ends it (and, through it, whatever it started) when the process that started
// us goes away, however it goes: our stdin is a pipe from that process, and the pipe closes when
// it dies. A signal to us ends it too. The command stays in our process group, so a kill of the
// whole group (a test runner stopping its web server with SIGKILL) takes it and its children
// along; a group of its own would outlive such a kill.
// Usage: node process-guard.mjs <command> <args…>
import { spawn } from 'node:child_process';

const [bin, ...args] = process.argv.slice(2);
const child = spawn(bin, args, { stdio: ['ignore', 'inherit', 'inherit'] });

let ending = false;
function signalGroup(signal) {
  try {
    child.kill(signal);
  } catch {
    // It is already gone.
  }
}
function end() {
  if (ending) return;
  ending = true;
  signalGroup('SIGTERM');
  setTimeout(() => signalGroup('SIGKILL'), 5000).unref();
}

process.stdin.on('end', end);
process.stdin.on('error', end);
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, end);
child.once('error', (error) => {
  console.error(error.message);
  process.exit(1);
});
child.once('exit', (code, signal) => {
  // Whatever the command left in its group goes with it.
  signalGroup('SIGKILL');
  process.exit(code ?? (signal ? 1 : 0));
});
