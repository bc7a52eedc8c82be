// `npm run spec:update` as a process, against a temporary copy of the repository layout: a failed
// download changes nothing; a successful one vendors the spec, regenerates and reports the diff.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findFreePort } from '../../scripts/lib/prism.mjs';
import { readSpec, repoRoot, specPath, type OpenApiDocument } from './spec';

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runSpecUpdate(args: string[]): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      [resolve(repoRoot, 'scripts', 'spec-update.mjs'), ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, VAPI_SPEC_URL: '' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

function serve(body: string): Promise<{ url: string; server: Server }> {
  return new Promise((done) => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(body);
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      done({ url: `http://127.0.0.1:${port}/api-json`, server });
    });
  });
}

/** The vendored spec with one operation removed, one added and one changed. */
function providerSpecWithChanges(): OpenApiDocument {
  const spec = readSpec();
  const chat = spec.paths['/chat/{id}'];
  if (chat) delete chat.delete;
  spec.paths['/status'] = {
    get: {
      operationId: 'StatusController_get',
      responses: {
        '200': {
          description: 'OK.',
          content: { 'application/json': { schema: { type: 'object' }, example: { ok: true } } },
        },
      },
    },
  };
  const webCall = spec.paths['/call/web']?.post;
  if (webCall) webCall.deprecated = true;
  return spec;
}

let root: string;
let server: Server | undefined;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'pepa-spec-update-test-'));
  await cp(specPath, join(root, 'openapi', 'vapi.json'));
});

afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
  await rm(root, { recursive: true, force: true });
});

describe('npm run spec:update', () => {
  it('says in one line that the download failed and leaves openapi/ untouched', async () => {
    const before = await readFile(join(root, 'openapi', 'vapi.json'));
    const port = await findFreePort();

    const result = await runSpecUpdate([
      '--url',
      `http://127.0.0.1:${port}/api-json`,
      '--root',
      root,
    ]);

    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^spec:update: could not download the provider's spec from http:\/\/127\.0\.0\.1:\d+\/api-json \(.+\); openapi\/vapi\.json left untouched\.$/,
    );
    expect(await readFile(join(root, 'openapi', 'vapi.json'))).toEqual(before);
    expect(existsSync(join(root, 'generated'))).toBe(false);
  });

  it('vendors a downloaded spec, regenerates the client and lists what changed', async () => {
    const changed = providerSpecWithChanges();
    const served = await serve(JSON.stringify(changed));
    server = served.server;

    const result = await runSpecUpdate(['--url', served.url, '--root', root]);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Vendored ${served.url} as openapi/vapi.json (148 operations)`);
    expect(result.stdout).toContain('1 added:\n  GET /status (StatusController_get)\n');
    expect(result.stdout).toContain(
      '1 removed:\n  DELETE /chat/{id} (ChatController_deleteChat)\n',
    );
    expect(result.stdout).toContain(
      '1 changed:\n  POST /call/web (CallController_createWebCall)\n',
    );
    expect(JSON.parse(await readFile(join(root, 'openapi', 'vapi.json'), 'utf8'))).toEqual(changed);
    const sdk = await readFile(join(root, 'generated', 'sdk.gen.ts'), 'utf8');
    expect(sdk).toContain('export const statusControllerGet =');
    expect(sdk).not.toContain('export const chatControllerDeleteChat =');
    // The real checkout is not touched.
    expect(existsSync(resolve(repoRoot, 'generated', 'sdk.gen.ts'))).toBe(true);
    expect(readSpec().paths['/status']).toBeUndefined();
  });
});
