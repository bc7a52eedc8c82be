// `npm run spec:update` as a process, against a temporary copy of the repository layout: a failed
// download changes nothing; a successful one vendors the spec, regenerates and reports the diff.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findFreePort } from '../../scripts/lib/prism.mjs';
import { normaliseArrayEnums } from '../../scripts/lib/spec-document.mjs';
import { readSpec, repoRoot, specPath, type OpenApiDocument } from './spec';
import { runProcess, serveJson, type RunResult } from './spec-update-process';

/**
 * A long run: a provider document is linted, generated and the whole project type-checked
 * against it, under a loaded machine.
 */
const LONG = 600_000;

function runSpecUpdate(args: string[]): Promise<RunResult> {
  return runProcess(
    process.execPath,
    [resolve(repoRoot, 'scripts', 'spec-update.mjs'), ...args],
    repoRoot,
  );
}

const serve = (body: string) => serveJson(body, '/api-json');

/** The vendored spec with one operation removed, one added and one changed. */
function providerSpecWithChanges(): OpenApiDocument {
  const spec = readSpec();
  const chat = spec.paths['/chat/{id}'];
  if (chat) delete chat.delete;
  spec.paths['/status'] = {
    get: {
      operationId: 'StatusController_get',
      // Lint-clean under the project's rules (npm run spec:lint), which an update must pass.
      summary: 'Get status',
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

  it(
    'vendors a downloaded spec, regenerates the client and lists what changed',
    { timeout: LONG },
    async () => {
      const changed = providerSpecWithChanges();
      const served = await serve(JSON.stringify(changed));
      server = served.server;

      const result = await runSpecUpdate(['--url', served.url, '--root', root]);

      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        `Vendored ${served.url} as openapi/vapi.json (148 operations)`,
      );
      expect(result.stdout).toContain('1 added:\n  GET /status (StatusController_get)\n');
      expect(result.stdout).toContain(
        '1 removed:\n  DELETE /chat/{id} (ChatController_deleteChat)\n',
      );
      expect(result.stdout).toContain(
        '1 changed:\n  POST /call/web (CallController_createWebCall)\n',
      );
      expect(JSON.parse(await readFile(join(root, 'openapi', 'vapi.json'), 'utf8'))).toEqual(
        changed,
      );
      const sdk = await readFile(join(root, 'generated', 'sdk.gen.ts'), 'utf8');
      expect(sdk).toContain('export const statusControllerGet =');
      expect(sdk).not.toContain('export const chatControllerDeleteChat =');
      // The real checkout is not touched.
      expect(existsSync(resolve(repoRoot, 'generated', 'sdk.gen.ts'))).toBe(true);
      expect(readSpec().paths['/status']).toBeUndefined();
    },
  );
});

/**
 * The provider's published spec of August 2026, vendored trimmed to the operations this
 * repository's code and tests name (scripts/trim-provider-spec.mjs), so it is there on a bare clone.
 */
const PUBLISHED_2026 = resolve(repoRoot, 'tests', 'fixtures', 'published-openapi-2026-08.json');

async function writeJson(file: string, value: unknown) {
  await writeFile(file, JSON.stringify(value));
  return file;
}

/** The vendored spec with a response pointing at a schema nobody defines. */
function specWithDanglingRef(): OpenApiDocument {
  const spec = readSpec();
  const raw = spec as unknown as {
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  };
  const call = raw.components.schemas['Call'];
  if (call?.properties) call.properties['ghost'] = { $ref: '#/components/schemas/GhostSchema' };
  return spec;
}

describe('npm run spec:update with the provider documents as published', () => {
  it('defaults to the extended spec the official SDK generates from', async () => {
    const source = await readFile(resolve(repoRoot, 'scripts', 'spec-update.mjs'), 'utf8');
    expect(source).toContain("DEFAULT_SPEC_URL = 'https://api.vapi.ai/api-extended-json'");
  });

  it('takes named paths only from another document, refusing one it lacks before anything is written', async () => {
    const before = await readFile(join(root, 'openapi', 'vapi.json'));
    const vendored = join(root, 'openapi', 'vapi.json');

    const alone = await runSpecUpdate(['--url', vendored, '--take', '/chat', '--root', root]);
    const lacking = await runSpecUpdate([
      ...['--url', vendored, '--take', '/no-such-path'],
      ...['--from', PUBLISHED_2026, '--root', root],
    ]);

    expect(alone.code).toBe(1);
    expect(alone.stderr.trim()).toMatch(/^spec:update: --take and --from go together \(usage: /);
    expect(lacking.code).toBe(1);
    expect(lacking.stderr.trim()).toBe(
      'spec:update: the document to take from has no /no-such-path; openapi/vapi.json left untouched.',
    );
    expect(await readFile(join(root, 'openapi', 'vapi.json'))).toEqual(before);
    expect(existsSync(join(root, 'generated'))).toBe(false);
  });

  it('refuses, naming it, a spec without the POST /call/web the app imports', async () => {
    const spec = readSpec();
    delete spec.paths['/call/web'];
    const file = await writeJson(join(root, 'no-web-call.json'), spec);
    const before = await readFile(join(root, 'openapi', 'vapi.json'));

    const result = await runSpecUpdate(['--url', file, '--root', root]);

    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'spec:update: the new spec drops an operation the app imports: POST /call/web (callControllerCreateWebCall in src/features/talk/voice/direct-web-call.ts); openapi/vapi.json left untouched.',
    );
    expect(await readFile(join(root, 'openapi', 'vapi.json'))).toEqual(before);
  });

  it(
    'refuses the published spec of August 2026 as it is, naming POST /call/web',
    async () => {
      const result = await runSpecUpdate(['--url', PUBLISHED_2026, '--root', root]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/drops operations? the app imports: POST \/call\/web /);
      expect(existsSync(join(root, 'generated'))).toBe(false);
    },
    LONG,
  );

  it("moves the published document's array-level enums to the items (the assistant's clientMessages)", async () => {
    const published = JSON.parse(await readFile(PUBLISHED_2026, 'utf8')) as OpenApiDocument;
    expect(normaliseArrayEnums(published)).toContain('Assistant.clientMessages');
  });

  it(
    "refuses an update the app's code or its tests would not type-check against, with the compiler's errors for each",
    { timeout: LONG },
    async () => {
      // One update breaks both: the web call's body, which the app builds, and an upload's name,
      // which only a test sets (tests/contract/provider-api.test.ts names it 'decree.txt'). The
      // tests are part of `npm run typecheck`, so an update that breaks only them is refused too.
      const spec = readSpec();
      const schemas = (
        spec as unknown as {
          components: { schemas: Record<string, { properties: Record<string, unknown> }> };
        }
      ).components.schemas;
      const body = schemas['CreateWebCallDTO'];
      if (body) body.properties['assistantId'] = { type: 'number' };
      const upload = schemas['CreateFileDTO'];
      if (upload) upload.properties['name'] = { type: 'number' };
      const file = await writeJson(join(root, 'type-break.json'), spec);

      const result = await runSpecUpdate(['--url', file, '--root', root]);

      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^spec:update: the app would not type-check against the new client \(npm run typecheck fails\):\n {2}(?:src|assistant|tests)\/.+error TS\d+/,
      );
      // The web call's body is what broke in the app, where the app builds it…
      expect(result.stderr).toMatch(/\n {2}src\/.+error TS\d+/);
      // …and the upload in the test that makes one.
      expect(result.stderr).toMatch(/\n {2}tests\/contract\/provider-api\.test\.ts.+error TS\d+/);
      expect(result.stderr.trim()).toMatch(/; openapi\/vapi\.json left untouched\.$/);
      expect(existsSync(join(root, 'generated'))).toBe(false);
    },
  );

  it(
    "refuses an update that would fail the project's OpenAPI lint (npm run spec:lint in npm run verify), naming the rule and the place",
    { timeout: LONG },
    async () => {
      // The August 2026 document gives its session list's query parameters an `allOf` beside
      // their schema, which a parameter object cannot have: generation and the types do not mind,
      // the project's lint does.
      const spec = readSpec();
      const [parameter] = (spec.paths['/call']?.['get']?.parameters ?? []) as unknown as Array<
        Record<string, unknown>
      >;
      expect(parameter?.['name']).toBe('id');
      if (parameter) parameter['allOf'] = [{ $ref: '#/components/schemas/PaginationMeta' }];
      const file = await writeJson(join(root, 'lint-break.json'), spec);
      const before = await readFile(join(root, 'openapi', 'vapi.json'));

      const result = await runSpecUpdate(['--url', file, '--root', root]);

      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^spec:update: the vendored spec would fail npm run spec:lint \(the project's OpenAPI lint in npm run verify\) with 1 error\(s\):\n {2}struct at #\/paths\/~1call\/get\/parameters\/0\/allOf: /,
      );
      expect(result.stderr.trim()).toMatch(/; openapi\/vapi\.json left untouched\.$/);
      expect(await readFile(join(root, 'openapi', 'vapi.json'))).toEqual(before);
      expect(existsSync(join(root, 'generated'))).toBe(false);
    },
  );

  it('refuses a spec with schemas it references but never defines, naming them', async () => {
    const file = await writeJson(join(root, 'dangling.json'), specWithDanglingRef());
    const result = await runSpecUpdate(['--url', file, '--root', root]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      'spec:update: the spec references 1 schema(s) it never defines: GhostSchema; rerun with --repair to close them as open objects; openapi/vapi.json left untouched.',
    );
  });

  it(
    'with --repair closes them as open objects, lists them, and reports lint problems as warnings',
    { timeout: LONG },
    async () => {
      const spec = specWithDanglingRef();
      // A lint problem the project's own lint only warns about: a schema nothing uses.
      const schemas = (spec as unknown as { components: { schemas: Record<string, object> } })
        .components.schemas;
      schemas['UnusedByAnyOperation'] = {
        type: 'object',
        properties: { note: { type: 'string' } },
      };
      const file = await writeJson(join(root, 'dangling.json'), spec);

      const result = await runSpecUpdate(['--url', file, '--root', root, '--repair']);

      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        '1 undefined schema(s) closed as open objects:\n  GhostSchema\n',
      );
      expect(result.stdout).toMatch(/lint warning\(s\) in the provider's document/);
      const vendored = JSON.parse(await readFile(join(root, 'openapi', 'vapi.json'), 'utf8'));
      expect(vendored.components.schemas.GhostSchema).toMatchObject({
        type: 'object',
        additionalProperties: true,
      });
    },
  );
});

describe('npm run generate', () => {
  it("prints the generator's own message when it fails", async () => {
    const file = await writeJson(join(root, 'dangling.json'), specWithDanglingRef());
    const result = spawnSync(
      process.execPath,
      [
        resolve(repoRoot, 'scripts', 'generate.mjs'),
        `--input=${file}`,
        `--output=${join(root, 'out')}`,
      ],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'generate: Reference not found: #/components/schemas/GhostSchema',
    );
  });
});
