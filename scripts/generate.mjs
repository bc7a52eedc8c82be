// @ts-check
// `npm run generate`: rewrites generated/ from the vendored provider spec (openapi-ts.config.ts)
// and generated/gate/ from the gate's own spec (openapi-ts.gate.config.ts) with @hey-api/openapi-ts. `--check` generates into a temporary folder instead and fails when
// generated/ differs from what the generator produces (the test command runs it).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

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
    const problems = await checkGenerated();
    if (problems.length > 0) {
      console.error(
        `generated/ is not what the generator produces from openapi/ (${problems.length} file(s)):`,
      );
      for (const problem of problems.slice(0, 20)) console.error(`  ${problem}`);
      console.error('Run `npm run generate` and commit the result.');
      process.exit(1);
    }
    console.log('generated/ matches openapi/.');
  } else {
    // --input/--output: generate another document elsewhere (the tests use them).
    /** @param {string} name */
    const option = (name) =>
      process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
    await generate({ input: option('input'), output: option('output') });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`generated/ rewritten from openapi/ in ${seconds} s.`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(`generate: ${generatorMessage(error)}`);
    process.exit(1);
  });
}
