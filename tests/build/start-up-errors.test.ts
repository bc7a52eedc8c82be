// The long-running scripts as processes: bad or busy ports fail in one line before anything is
// installed or built, and the Prism mock never outlives the process that started it.
import { spawn, spawnSync } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isPortFree } from '../../scripts/lib/ports.mjs';
import { findFreePort } from '../../scripts/lib/prism.mjs';

const root = resolve(import.meta.dirname, '../..');
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** Holds a port, as another program would. */
async function occupy(): Promise<number> {
  const port = await findFreePort();
  const server = createServer();
  servers.push(server);
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return port;
}

function environment(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([key]) => !key.startsWith('VITE_') && !key.startsWith('VITEST'),
  );
  return { ...Object.fromEntries(kept), ...extra };
}

function run(script: string, env: NodeJS.ProcessEnv, args: string[] = []) {
  return spawnSync(process.execPath, [script, ...args], {
    cwd: root,
    env: environment(env),
    encoding: 'utf8',
    timeout: 60_000,
  });
}

const ONE_LINE = /^[^\n]+\n?$/;

describe('start-up port checks', () => {
  it('npm start with a busy PORT fails in one line naming it and a free port, before installing or building', async () => {
    const busy = await occupy();
    const mockPort = await findFreePort();
    const result = run('scripts/start.mjs', { PORT: String(busy), MOCK_PORT: String(mockPort) });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(ONE_LINE);
    const match = /^npm start: PORT=(\d+) is already in use; try PORT=(\d+)$/.exec(
      result.stderr.trim(),
    );
    expect(match?.[1]).toBe(String(busy));
    expect(await isPortFree(Number(match?.[2]))).toBe(true);
    expect(result.stdout).not.toMatch(/Installing|Building/);
    // Nothing was left listening on the mock's port.
    expect(await isPortFree(mockPort)).toBe(true);
  });

  it('npm start with a busy MOCK_PORT names MOCK_PORT', async () => {
    const busy = await occupy();
    const result = run('scripts/start.mjs', {
      PORT: String(await findFreePort()),
      MOCK_PORT: String(busy),
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(
      new RegExp(`^npm start: MOCK_PORT=${busy} is already in use; try MOCK_PORT=\\d+$`),
    );
  });

  it('npm start refuses PORT=abc in one line', () => {
    const result = run('scripts/start.mjs', { PORT: 'abc' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'npm start: PORT must be a port number from 1 to 65535 (got "abc"); try PORT=5173',
    );
  });

  it('npm start refuses the same port for the site and the mock', async () => {
    const port = String(await findFreePort());
    const result = run('scripts/start.mjs', { PORT: port, MOCK_PORT: port });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(
      new RegExp(`^npm start: PORT=${port} is also MOCK_PORT; try PORT=\\d+$`),
    );
  });

  it('npm run dev with a busy PORT fails in one line', async () => {
    const busy = await occupy();
    const result = run('scripts/dev.mjs', {
      PORT: String(busy),
      MOCK_PORT: String(await findFreePort()),
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(
      new RegExp(`^npm run dev: PORT=${busy} is already in use; try PORT=\\d+$`),
    );
  });

  it('npm run mock with a busy or malformed MOCK_PORT fails in one line', async () => {
    const busy = await occupy();
    const taken = run('scripts/mock.mjs', { MOCK_PORT: String(busy) });
    expect(taken.status).toBe(1);
    expect(taken.stderr.trim()).toMatch(
      new RegExp(`^npm run mock: MOCK_PORT=${busy} is already in use; try MOCK_PORT=\\d+$`),
    );
    const malformed = run('scripts/mock.mjs', { MOCK_PORT: '70000' });
    expect(malformed.status).toBe(1);
    expect(malformed.stderr).toMatch(ONE_LINE);
    expect(malformed.stderr).toContain('MOCK_PORT must be a port number from 1 to 65535');
  });

  it('spec:update --url without a value fails in one line', () => {
    const result = run('scripts/spec-update.mjs', {}, ['--url']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(ONE_LINE);
    expect(result.stderr).toContain('--url');
  });
});

describe('the Prism mock', () => {
  async function waitUntilFree(port: number, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await isPortFree(port))) {
      if (Date.now() > deadline) return false;
      await new Promise((done) => setTimeout(done, 100));
    }
    return true;
  }

  for (const [how, kill] of [
    ['is killed outright (SIGKILL)', 'SIGKILL'],
    ['crashes', 'crash'],
  ] as const) {
    it(`ends when the process that started it ${how}`, { timeout: 120_000 }, async () => {
      const port = await findFreePort();
      const parent = spawn(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { startPrism } = await import(${JSON.stringify(resolve(root, 'scripts/lib/prism.mjs'))});
           await startPrism({ port: ${port}, quiet: true });
           console.log('ready');
           if (${JSON.stringify(kill)} === 'crash') setTimeout(() => { throw new Error('boom'); }, 100);`,
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      await new Promise<void>((done, fail) => {
        parent.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) done();
        });
        let errors = '';
        parent.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
        parent.once('exit', (code) => fail(new Error(`parent exited early (${code}): ${errors}`)));
      });
      expect(await isPortFree(port)).toBe(false);
      if (kill === 'SIGKILL') parent.kill('SIGKILL');
      expect(await waitUntilFree(port)).toBe(true);
    });
  }
});

describe('build:demo', () => {
  it('points the demo at MOCK_PORT', async () => {
    const outDir = await mkdtemp(join(tmpdir(), 'pepa-demo-build-'));
    try {
      const result = run('scripts/build.mjs', { MOCK_PORT: '4987' }, ['--demo', `--out=${outDir}`]);
      expect(result.status, result.stderr).toBe(0);
      const html = await readFile(join(outDir, 'index.html'), 'utf8');
      expect(html).toContain('http://127.0.0.1:4987');
      expect(html).not.toContain('127.0.0.1:4010');
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});
