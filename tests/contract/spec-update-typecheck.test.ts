// spec:update's type check is `npm run typecheck` itself: run against a copy of the project, an
// update it accepts leaves `npm run typecheck` green there, and one it refuses names the file and
// the type that would break.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSpec, repoRoot, type OpenApiDocument } from './spec';
import { runProcess, serveJson } from './spec-update-process';

/** spec:update generates, lints and type-checks the whole project: minutes on a loaded machine. */
const LONG = 900_000;

/**
 * The provider's published document of August 2026, as committed: trimmed to the operations the
 * code names and the components they reach (scripts/trim-provider-spec.mjs).
 */
const PUBLISHED = resolve(repoRoot, 'tests', 'fixtures', 'published-openapi-2026-08.json');

/** `npm run typecheck` in the copy, as a contributor would run it after an update. */
function typecheck(project: string) {
  const result = spawnSync('npm', ['run', '--silent', 'typecheck'], {
    cwd: project,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

const serve = (body: string) => serveJson(body, '/api-extended-json');

type Components = Record<string, Record<string, unknown>>;

/**
 * The published document with every path of the vendored one that it lacks, and every component
 * those paths reach that it lacks (transitively), taken from the vendored document.
 */
function publishedWithMissingPaths(published: OpenApiDocument, vendored: OpenApiDocument) {
  for (const [path, item] of Object.entries(vendored.paths)) {
    published.paths[path] ??= item;
  }
  const into = ((published as unknown as { components: Components }).components ??= {});
  const from = (vendored as unknown as { components: Components }).components;
  for (;;) {
    const refs = [...JSON.stringify(published).matchAll(/"#\/components\/(\w+)\/([^"]+)"/g)];
    const missing = refs.filter(([, kind = '', name = '']) => into[kind]?.[name] === undefined);
    if (missing.length === 0) return published;
    for (const [, kind = '', name = ''] of missing) {
      const component = from[kind]?.[name];
      if (component === undefined) throw new Error(`neither document has ${kind}/${name}`);
      (into[kind] ??= {})[name] = component;
    }
  }
}

/** The checkout's top-level entries that are not sources: dependencies, history, build output. */
const NOT_SOURCES =
  /^(?:\.git|node_modules|generated|bench|coverage|test-results|playwright-report|\.wrangler|\.?[\w-]*dist(?:-[\w-]+)?)$/;

let work: string;
let project: string;
let server: Server | undefined;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'pepa-spec-typecheck-'));
  project = join(work, 'project');
  await mkdir(project);
  await cp(repoRoot, project, {
    recursive: true,
    filter: (source) =>
      basename(source) !== 'node_modules' &&
      !(resolve(source, '..') === repoRoot && NOT_SOURCES.test(basename(source))),
  });
  await symlink(resolve(repoRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
  await cp(resolve(repoRoot, 'generated'), join(project, 'generated'), { recursive: true });
});

afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = undefined;
  await rm(work, { recursive: true, force: true });
});

/** Runs the copy's own `spec:update` against `document`, served on loopback. */
async function specUpdate(document: OpenApiDocument) {
  const served = await serve(JSON.stringify(document));
  server = served.server;
  const script = join(project, 'scripts', 'spec-update.mjs');
  return runProcess(process.execPath, [script, '--url', served.url], project);
}

describe('spec:update checks what npm run typecheck checks', () => {
  it(
    'refuses the published August 2026 document with the paths it lacks added, naming the test and the type that would break',
    { timeout: LONG },
    async () => {
      const published = JSON.parse(await readFile(PUBLISHED, 'utf8')) as OpenApiDocument;
      const document = publishedWithMissingPaths(published, readSpec());
      const before = await readFile(join(project, 'openapi', 'vapi.json'));

      const result = await specUpdate(document);

      if (result.code === 0) expect(typecheck(project)).toEqual({ code: 0, output: '' });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^spec:update: the app would not type-check against the new client \(npm run typecheck fails\):\n/,
      );
      expect(result.stderr).toContain(
        "tests/contract/provider-api.test.ts(232,75): error TS2353: Object literal may only specify known properties, and 'name' does not exist in type 'CreateFileDto'.",
      );
      expect(await readFile(join(project, 'openapi', 'vapi.json'))).toEqual(before);
    },
  );

  it(
    "refuses an update only a script's own types reject (the scripts project of npm run typecheck)",
    { timeout: LONG },
    async () => {
      // A script that builds an upload with the generated type. Without `// @ts-check` only
      // tsconfig.scripts.json (checkJs) checks it, one of the projects `npm run typecheck` runs.
      // The update turns the upload's purpose into a number.
      await writeFile(
        join(project, 'scripts', 'lib', 'upload-purpose.mjs'),
        [
          "/** @type {import('../../generated/types.gen').CreateFileDto} */",
          "export const upload = { file: new Blob(['By royal decree: frogs first.']), purpose: 'assistant' };",
          '',
        ].join('\n'),
      );
      const document = readSpec();
      const schemas = (
        document as unknown as {
          components: { schemas: Record<string, { properties: Record<string, unknown> }> };
        }
      ).components.schemas;
      const upload = schemas['CreateFileDTO'];
      expect(upload).toBeDefined();
      if (upload) upload.properties['purpose'] = { type: 'number' };

      const result = await specUpdate(document);

      // Accepted, the project's own type check must pass with it; it does not, so it is refused.
      if (result.code === 0) expect(typecheck(project)).toEqual({ code: 0, output: '' });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /\n {2}scripts\/lib\/upload-purpose\.mjs\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'\./,
      );
      expect(result.stderr.trim()).toMatch(/; openapi\/vapi\.json left untouched\.$/);
    },
  );
});
