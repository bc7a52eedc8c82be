import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { parseProcStat, roleOf, stackCpuMeter } from './stack-cpu.mjs';

const onLinux = process.platform === 'linux';

describe("the local stack's processor time", () => {
  it("reads a process's parent and ticks even when its name holds spaces and parentheses", () => {
    const fields = ['S', '41', '7', '7', '0', '-1', '4194560', '120', '0', '0', '0', '250', '31'];
    const line = `7345 (work (er) d x) ${fields.join(' ')} 0 0 20 0 1 0 99 0 0`;
    expect(parseProcStat(line)).toEqual({ ppid: 41, ticks: 281 });
    expect(parseProcStat('7345 no parentheses')).toBeNull();
    expect(parseProcStat('7345 (short) S 1')).toBeNull();
  });

  it.runIf(onLinux)("reads this process's own stat line as Linux writes it", () => {
    const stat = parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
    expect(stat?.ppid).toBe(process.ppid);
    expect(stat?.ticks).toBeGreaterThanOrEqual(0);
  });

  it("tells the gate's workerd from wrangler's dev proxy by the port it listens on", () => {
    const workerd = (port: number) =>
      [
        '/repo/node_modules/@cloudflare/workerd-linux-64/bin/workerd',
        'serve',
        '--binary',
        `--socket-addr=entry=127.0.0.1:${port}`,
        '--control-fd=3',
        '-',
      ].join('\0');
    expect(roleOf(workerd(8787), 8787)).toBe('proxy');
    expect(roleOf(workerd(0), 8787)).toBe('gate');
    expect(roleOf(workerd(18787), 8787)).toBe('gate');
    expect(roleOf(['node', '/repo/node_modules/.bin/prism', 'mock', 'x.json'].join('\0'), 1)).toBe(
      'prism',
    );
    expect(roleOf(['node', 'scripts/surge.mjs'].join('\0'), 1)).toBe('other');
  });

  it.runIf(onLinux)('counts the processor time of a process started under this one', async () => {
    const meter = stackCpuMeter({ sitePort: 1 });
    // A child that works for about 300 ms of processor time, says so, and waits to be let go.
    const child = spawn(
      process.execPath,
      [
        '-e',
        'const end = process.cpuUsage().user + 300000; while (process.cpuUsage().user < end) {} ' +
          "process.stdout.write('done'); process.stdin.resume();",
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    try {
      await once(child.stdout, 'data');
      const line = meter.line();
      const others = Number(/others (\d+) %/.exec(line)?.[1]);
      expect(line).toMatch(/^the gate 0 %, wrangler's dev proxy 0 %, Prism 0 %/);
      expect(others).toBeGreaterThan(0);
      expect(line).toMatch(/\d+ cores \d+ % busy/);
    } finally {
      child.stdin.end();
      await once(child, 'exit');
    }
  });
});
