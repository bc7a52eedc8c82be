// @ts-check
// `npm run generate`: rewrites generated/ from the vendored provider spec (openapi-ts.config.ts)
// and generated/gate/ from the gate's own spec (openapi-ts.gate.config.ts: its client and the
// validators the Worker judges requests with) with @hey-api/openapi-ts, then the Worker's `Env`
// (gate/worker-configuration.d.ts) from gate/wrangler.jsonc with `wrangler types`. `--check`
// generates into a temporary folder instead and fails when either differs from what is committed
// (the test command runs it).
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = resolve(import.meta.dirname, '..');

/** @typedef {import('@hey-api/openapi-ts').UserConfig} UserConfig */

/** The gate's client lives in this folder of generated/. */
export const GATE_FOLDER = 'gate';

/**
 * Generates the provider's client for `input` into `output` (both default to the repository's
 * own), then the gate's client into `output`/gate. The provider's run cleans its folder first, so
 * the gate's always comes second.
 * @param {{ input?: string, output?: string }} [options]
 */
export async function generate({ input, output } = {}) {
  const { createClient } = await import('@hey-api/openapi-ts');
  /** @type {UserConfig['logs']} */
  const logs = { level: 'silent', file: false };
  /** @type {Partial<UserConfig>} */
  const provider = { configFile: join(repoRoot, 'openapi-ts.config.ts'), logs };
  if (input) provider.input = resolve(input);
  if (output) provider.output = { path: resolve(output) };
  // The config file supplies what these objects leave out (the generator merges the two); the
  // declared type, written for a config given whole, requires `input` and `output` regardless.
  await createClient(/** @type {UserConfig} */ (provider));
  /** @type {Partial<UserConfig>} */
  const gate = { configFile: join(repoRoot, 'openapi-ts.gate.config.ts'), logs };
  if (output) gate.output = { path: join(resolve(output), GATE_FOLDER) };
  await createClient(/** @type {UserConfig} */ (gate));
}

/** The Worker's `Env` as `wrangler types` writes it (runtime types: @cloudflare/workers-types). */
export const WORKER_TYPES = 'worker-configuration.d.ts';

/**
 * Runs `wrangler types` in `gateDir`, a folder holding the gate's wrangler.jsonc and its src/.
 * @param {string} gateDir
 */
async function writeWorkerTypes(gateDir) {
  const wrangler = join(repoRoot, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
  await promisify(execFile)(process.execPath, [wrangler, 'types', '--include-runtime=false'], {
    cwd: gateDir,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
}

/**
 * Writes the Worker's types from a copy of its configuration in a temporary folder and compares
 * them with the committed ones. (`wrangler types --check` only compares the configuration's
 * hash, so an edited or stale file would pass it.)
 * @param {string} [gateDir]
 * @returns {Promise<string[]>}
 */
export async function checkWorkerTypes(gateDir = join(repoRoot, 'gate')) {
  const temp = await mkdtemp(join(tmpdir(), 'pepa-worker-types-'));
  try {
    // The same folder name and layout: the file records its command and its path to src/.
    const copy = join(temp, 'gate');
    await mkdir(copy);
    await copyFile(join(gateDir, 'wrangler.jsonc'), join(copy, 'wrangler.jsonc'));
    await symlink(join(gateDir, 'src'), join(copy, 'src'), 'dir');
    await writeWorkerTypes(copy);
    const expected = await readFile(join(copy, WORKER_TYPES));
    const actual = await readFile(join(gateDir, WORKER_TYPES)).catch(() => null);
    if (!actual) return [`missing: gate/${WORKER_TYPES}`];
    return expected.equals(actual) ? [] : [`changed: gate/${WORKER_TYPES}`];
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/**
 * The generator's own message for a failure. @hey-api/openapi-ts wraps it in a JobError with an
 * empty message (the reason sits in `originalError.error`), which would otherwise print as a
 * blank line.
 * @param {unknown} error
 * @returns {string}
 */
export function generatorMessage(error) {
  /** @type {Set<object>} */
  const seen = new Set();
  let current = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    if (current instanceof Error && current.message.trim()) return current.message.trim();
    /** @type {{ originalError?: unknown, error?: unknown, cause?: unknown }} */
    const wrapper = current;
    current = wrapper.originalError ?? wrapper.error ?? wrapper.cause;
  }
  if (typeof current === 'string' && current.trim()) return current.trim();
  return `the generator failed without a message (${String(error)})`;
}

/**
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function listFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Lists the files that differ between two folders (missing, extra or changed).
 * @param {string} expectedDir
 * @param {string} actualDir
 * @returns {Promise<string[]>}
 */
export async function diffFolders(expectedDir, actualDir) {
  const expected = await listFiles(expectedDir);
  const actual = await listFiles(actualDir);
  /** @type {string[]} */
  const problems = [];
  for (const file of expected) {
    if (!actual.includes(file)) {
      problems.push(`missing: ${file}`);
      continue;
    }
    const [a, b] = await Promise.all([
      readFile(join(expectedDir, file)),
      readFile(join(actualDir, file)),
    ]);
    if (!a.equals(b)) problems.push(`changed: ${file}`);
  }
  for (const file of actual) if (!expected.includes(file)) problems.push(`not generated: ${file}`);
  return problems;
}

/**
 * Generates into a temporary folder and compares it with `generatedDir`.
 * @param {{ input?: string, generatedDir?: string }} [options]
 * @returns {Promise<string[]>}
 */
export async function checkGenerated({ input, generatedDir = join(repoRoot, 'generated') } = {}) {
  const temp = await mkdtemp(join(tmpdir(), 'pepa-generated-'));
  try {
    await generate({ input, output: temp });
    return await diffFolders(temp, generatedDir);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

async function main() {
  const check = process.argv.includes('--check');
  const started = performance.now();
  if (check) {
    const problems = [...(await checkGenerated()), ...(await checkWorkerTypes())];
    if (problems.length > 0) {
      console.error(
        `The generated code is not what the generators produce from openapi/ and gate/wrangler.jsonc (${problems.length} file(s)):`,
      );
      for (const problem of problems.slice(0, 20)) console.error(`  ${problem}`);
      console.error('Run `npm run generate` and commit the result.');
      process.exit(1);
    }
    console.log(
      `generated/ matches openapi/, and gate/${WORKER_TYPES} matches gate/wrangler.jsonc.`,
    );
  } else {
    // --input/--output: generate another document elsewhere (the tests use them).
    /** @param {string} name */
    const option = (name) =>
      process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
    await generate({ input: option('input'), output: option('output') });
    // Generating another document elsewhere leaves the Worker's own types alone.
    if (!option('output')) await writeWorkerTypes(join(repoRoot, 'gate'));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`generated/ and gate/${WORKER_TYPES} rewritten in ${seconds} s.`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(`generate: ${generatorMessage(error)}`);
    process.exit(1);
  });
}
