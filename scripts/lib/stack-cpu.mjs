// @ts-check
// The processor time each part of the local stack took over a span of a run: the gate's workerd
// (the Worker and all its Durable Objects on one thread), wrangler's dev proxy (a second workerd),
// Prism, and this script (with the provider stand-in in it), each as a share of one core, beside
// how busy the machine's cores were. A figure measured on loopback says little without it: when
// the gate's one thread is near a whole core, its queue is the latency, not the gate's code.
// Read from Linux's /proc; elsewhere the line says it was not measured.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** @typedef {'gate' | 'proxy' | 'prism' | 'other'} StackRole */

/**
 * The parent and the processor ticks (user and system) in a /proc/<pid>/stat line, or null.
 * The command's name (field 2) is in parentheses and may hold spaces and parentheses itself.
 * @param {string} text
 * @returns {{ ppid: number, ticks: number } | null}
 */
export function parseProcStat(text) {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  // From field 3 (the state) on: the parent is field 4, user and system time fields 14 and 15.
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const ppid = Number(fields[1]);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (![ppid, utime, stime].every((n) => Number.isInteger(n) && n >= 0)) return null;
  return { ppid, ticks: utime + stime };
}

/**
 * Which part of the stack a process is, by its command line (NUL-separated as /proc gives it).
 * wrangler's dev proxy is the workerd listening on the site's port; the gate's own workerd
 * listens on a port of its own.
 * @param {string} commandLine
 * @param {number} sitePort
 * @returns {StackRole}
 */
export function roleOf(commandLine, sitePort) {
  const args = commandLine.split('\0');
  if (args.some((arg) => /(^|\/)workerd$/.test(arg))) {
    return args.some((arg) => arg.endsWith(`entry=127.0.0.1:${sitePort}`)) ? 'proxy' : 'gate';
  }
  if (args.some((arg) => /(^|\/)prism$/.test(arg) || arg.includes('prism-cli'))) return 'prism';
  return 'other';
}

/** Linux's clock ticks per second for /proc's times (100 nearly everywhere). */
function ticksPerSecond() {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
}

/**
 * Every process under `root`, with its role and processor seconds so far; null off Linux.
 * @param {number} root
 * @param {number} sitePort
 * @param {number} hz
 * @returns {Map<number, { role: StackRole, seconds: number }> | null}
 */
function descendants(root, sitePort, hz) {
  /** @type {string[]} */
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  /** @type {Map<number, { ppid: number, ticks: number }>} */
  const all = new Map();
  for (const name of entries) {
    try {
      const stat = parseProcStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (stat) all.set(Number(name), stat);
    } catch {
      // Gone between the listing and the read.
    }
  }
  /** @type {Map<number, number[]>} */
  const children = new Map();
  for (const [pid, { ppid }] of all) {
    const siblings = children.get(ppid);
    if (siblings) siblings.push(pid);
    else children.set(ppid, [pid]);
  }
  /** @type {Map<number, { role: StackRole, seconds: number }>} */
  const found = new Map();
  const waiting = [...(children.get(root) ?? [])];
  for (let pid = waiting.pop(); pid !== undefined; pid = waiting.pop()) {
    waiting.push(...(children.get(pid) ?? []));
    let commandLine = '';
    try {
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      // Gone: counted as other.
    }
    found.set(pid, {
      role: roleOf(commandLine, sitePort),
      seconds: (all.get(pid)?.ticks ?? 0) / hz,
    });
  }
  return found;
}

/** The machine's cores' busy and total milliseconds so far. */
function machineTimes() {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/**
 * A meter of the stack under this process, from now: `line()` at the span's end.
 * @param {{ sitePort: number }} options
 */
export function stackCpuMeter({ sitePort }) {
  const hz = ticksPerSecond();
  const take = () => ({
    at: performance.now(),
    own: process.cpuUsage(),
    children: descendants(process.pid, sitePort, hz),
    machine: machineTimes(),
  });
  const start = take();
  return {
    /** The span's shares, one line for the report. */
    line() {
      const end = take();
      if (!start.children || !end.children) return 'not measured (no /proc on this system)';
      const seconds = (end.at - start.at) / 1000;
      /** @type {Record<StackRole | 'script', number>} */
      const used = { gate: 0, proxy: 0, prism: 0, other: 0, script: 0 };
      for (const [pid, { role, seconds: now }] of end.children) {
        used[role] += now - (start.children.get(pid)?.seconds ?? 0);
      }
      const own = process.cpuUsage(start.own);
      used.script = (own.user + own.system) / 1e6;
      const share = (/** @type {number} */ s) => `${Math.round((s / seconds) * 100)} %`;
      const busy =
        (end.machine.busy - start.machine.busy) / (end.machine.total - start.machine.total || 1);
      return (
        `the gate ${share(used.gate)}, wrangler's dev proxy ${share(used.proxy)}, ` +
        `Prism ${share(used.prism)}, this script and the stand-in ${share(used.script)}, ` +
        `others ${share(used.other)} of one core; ${cpus().length} cores ${Math.round(busy * 100)} % busy ` +
        `(${seconds.toFixed(0)} s)`
      );
    },
  };
}
