// `npm run spec:update [-- --url <url>] [-- --root <dir>]`: downloads the provider's published
// OpenAPI spec, validates it, vendors it as openapi/vapi.json, regenerates generated/ and prints
// which operations were added, removed or changed. Nothing is written unless every step before
// the write succeeded, so a failed download leaves openapi/ and generated/ as they were.
//
// The URL comes from --url, else $VAPI_SPEC_URL, else the provider's default. --root (or
// $SPEC_UPDATE_ROOT) points at another checkout layout; the tests use it with a temporary copy.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generate } from './generate.mjs';

export const DEFAULT_SPEC_URL = 'https://api.vapi.ai/api-json';
const SPEC_FILE = join('openapi', 'vapi.json');
const DOWNLOAD_TIMEOUT_MS = 30_000;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const repoRoot = resolve(import.meta.dirname, '..');

class UpdateError extends Error {}

async function download(url) {
  let response;
  try {
    response = await fetch(url, {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new UpdateError(`could not download the provider's spec from ${url} (${reason})`);
  }
  if (!response.ok) {
    throw new UpdateError(
      `could not download the provider's spec from ${url} (HTTP ${response.status})`,
    );
  }
  return response.text();
}

function parseSpec(text, url) {
  let spec;
  try {
    spec = JSON.parse(text);
  } catch {
    throw new UpdateError(`the document at ${url} is not JSON`);
  }
  if (typeof spec?.openapi !== 'string' || !spec.openapi.startsWith('3.')) {
    throw new UpdateError(`the document at ${url} is not an OpenAPI 3.x description`);
  }
  if (!spec.paths || typeof spec.paths !== 'object' || Object.keys(spec.paths).length === 0) {
    throw new UpdateError(`the document at ${url} describes no paths`);
  }
  return spec;
}

/** Structural validation only: the provider's spec need not follow our own style rules. */
function lint(file) {
  const redocly = resolve(repoRoot, 'node_modules', '.bin', 'redocly');
  const result = spawnSync(redocly, ['lint', file, '--extends', 'minimal', '--format', 'stylish'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    // Keep the problems, drop the CLI's banners and hints.
    const problems = `${result.stdout ?? ''}\n${result.stderr ?? ''}`
      .split('\n')
      .filter((line) => /\b(error|warning)\b/i.test(line) && !/[║╔╚]/.test(line))
      .slice(0, 15);
    throw new UpdateError(`the downloaded spec is not valid OpenAPI:\n${problems.join('\n')}`);
  }
}

function operationsOf(spec) {
  const operations = new Map();
  for (const [path, item] of Object.entries(spec?.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (operation) operations.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return operations;
}

/** Compares two specs operation by operation (by method and path, then by content). */
export function diffOperations(before, after) {
  const old = operationsOf(before);
  const now = operationsOf(after);
  const label = (key, operation) =>
    operation?.operationId ? `${key} (${operation.operationId})` : key;
  const added = [...now].filter(([key]) => !old.has(key)).map(([key, op]) => label(key, op));
  const removed = [...old].filter(([key]) => !now.has(key)).map(([key, op]) => label(key, op));
  const changed = [...now]
    .filter(([key, op]) => old.has(key) && JSON.stringify(old.get(key)) !== JSON.stringify(op))
    .map(([key, op]) => {
      const previous = old.get(key)?.operationId;
      const renamed = previous && previous !== op.operationId ? `, was ${previous}` : '';
      return `${label(key, op)}${renamed}`;
    });
  return { added, removed, changed, total: now.size };
}

async function readCurrentSpec(file) {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export async function updateSpec({ url, root }) {
  const text = await download(url);
  const spec = parseSpec(text, url);

  const work = await mkdtemp(join(tmpdir(), 'pepa-spec-update-'));
  try {
    const candidate = join(work, 'vapi.json');
    await writeFile(candidate, `${JSON.stringify(spec, null, 2)}\n`);
    lint(candidate);
    // Generate before touching the checkout, so a spec the generator rejects changes nothing.
    const output = join(work, 'generated');
    try {
      await generate({ input: candidate, output });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UpdateError(`the generator could not use the downloaded spec (${reason})`);
    }

    const specFile = join(root, SPEC_FILE);
    const before = await readCurrentSpec(specFile);
    await mkdir(join(root, 'openapi'), { recursive: true });
    await cp(candidate, `${specFile}.tmp`);
    await rename(`${specFile}.tmp`, specFile);
    try {
      await rm(join(root, 'generated'), { recursive: true, force: true });
      await cp(output, join(root, 'generated'), { recursive: true });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `${SPEC_FILE} was updated but copying generated/ failed (${reason}); run \`npm run generate\``,
      );
    }
    return diffOperations(before, spec);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, root: { type: 'string' } },
  });
  const url = values.url || process.env.VAPI_SPEC_URL || DEFAULT_SPEC_URL;
  const root = resolve(values.root || process.env.SPEC_UPDATE_ROOT || repoRoot);
  try {
    const { added, removed, changed, total } = await updateSpec({ url, root });
    console.log(
      `Vendored ${url} as ${SPEC_FILE} (${total} operations) and regenerated generated/.`,
    );
    const sections = [
      ['added', added],
      ['removed', removed],
      ['changed', changed],
    ];
    for (const [name, list] of sections) {
      console.log(`${list.length} ${name}${list.length > 0 ? ':' : ''}`);
      for (const item of list) console.log(`  ${item}`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Only an UpdateError is raised before anything is written.
    const outcome = error instanceof UpdateError ? `; ${SPEC_FILE} left untouched.` : '';
    console.error(`spec:update: ${message}${outcome}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
