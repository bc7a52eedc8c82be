// Runs Prism as a child and ends it when the process that started us goes away, however it goes
// (Ctrl-C, a crash, SIGKILL): our stdin is a pipe from that process, and the pipe closes when it
// dies. Usage: node prism-guard.mjs <prism binary> <prism args…>
import { spawn } from 'node:child_process';

const [bin, ...args] = process.argv.slice(2);
const prism = spawn(bin, args, { stdio: ['ignore', 'inherit', 'inherit'] });

let ending = false;
function end(signal = 'SIGTERM') {
  if (ending) return;
  ending = true;
  if (prism.exitCode === null && prism.signalCode === null) {
    prism.kill(signal);
    setTimeout(() => prism.kill('SIGKILL'), 5000).unref();
  }
}

process.stdin.on('end', () => end());
process.stdin.on('error', () => end());
process.stdin.resume();
process.on('SIGTERM', () => end());
process.on('SIGINT', () => end());
process.on('SIGHUP', () => end());
prism.once('error', (error) => {
  console.error(error.message);
  process.exit(1);
});
prism.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
