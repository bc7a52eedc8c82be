// `npm run spec:update [-- --url <url|file>] [-- --take <path,…> --from <url|file>] [-- --repair]
// [-- --root <dir>]`: downloads the provider's spec, checks it, vendors it as openapi/vapi.json,
// regenerates generated/ and prints which operations were added, removed or changed. Nothing is written unless every check passed,
// so a refused or failed update leaves openapi/ and generated/ as they were.
//
// The default is the provider's extended spec, the document its official web SDK generates from
// (the published /api-json has not listed POST /call/web since December 2024). The URL comes from
// --url, else $VAPI_SPEC_URL; a local file path works too. The provider's documents are taken as
// they are published: lint problems the project's own lint lets through are printed as warnings,
// and an update is refused only for what would break generation, the app or `npm run verify`:
//   - it drops an operation or generated name the app imports (computed from the code);
//   - it references schemas it never defines (unless --repair closes them as open objects);
//   - the generator rejects it (its own message is printed);
//   - `npm run typecheck` (package.json's script itself, every project it names: the app, the
//     assistant, the tests, the scripts and the court gate) would fail in a copy of the project
//     holding the new document and client; each compiler error names the file and the type;
//   - the vendored file would fail the project's own OpenAPI lint (`npm run spec:lint`).
// So an accepted update leaves every spec-dependent check of `npm run verify` green: the type
// check, the OpenAPI lint, and the generated-client check (generated/ is written from the very
// file that is vendored).
// Two defects of the provider's documents are corrected as it is vendored, and listed: an array
// schema that carries its items' `enum` at the array level (e.g. `CreateAssistantDTO.clientMessages`)
// could never match an array, and would make the generated type a single string and Prism
// refuse every real request; the array-level `enum` is dropped, keeping the one on `items`. And a
// schema's `examples` list in a 3.0 document (3.1's keyword) becomes its `example` (the published
// August 2026 document's chat shapes give it).
//
// `--take <path,…> --from <url|file>` takes those paths from another document into the one
// vendored, with the components they need, keeping as they are the components the other paths
// use: how the published document's chat operations were taken into the extended one
// (docs/provider-contract.md).
// --root (or $SPEC_UPDATE_ROOT) points at another checkout layout; the tests use it with a
// temporary copy.
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { generate, generatorMessage } from './generate.mjs';
import { exportedNames, importedGeneratedNames, importedOperations } from './lib/app-imports.mjs';
import {
  closeDanglingRefs,
  danglingRefs,
  diffOperations,
  normaliseArrayEnums,
  normaliseSchemaExamples,
  operationsOf,
  takePaths,
} from './lib/spec-document.mjs';
import { projectLint, typecheckCandidate } from './lib/spec-project-checks.mjs';

export const DEFAULT_SPEC_URL = 'https://api.vapi.ai/api-extended-json';
const SPEC_FILE = join('openapi', 'vapi.json');
const DOWNLOAD_TIMEOUT_MS = 30_000;
const repoRoot = resolve(import.meta.dirname, '..');

class UpdateError extends Error {}

/**
 * The document's text, from a URL or a local file.
 * @param {string} url
 */
async function download(url) {
  if (!/^https?:\/\//.test(url)) {
    const file = url.startsWith('file:') ? new URL(url) : resolve(url);
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new UpdateError(`could not read the provider's spec from ${url} (${reason})`);
    }
  }
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

/**
 * @param {string} text
 * @param {string} url
 * @returns {import('./lib/spec-document.mjs').OpenApiDocument}
 */
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

/**
 * @param {string} file
 * @returns {Promise<import('./lib/spec-document.mjs').OpenApiDocument | undefined>}
 */
async function readCurrentSpec(file) {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The app's checkout: the --root layout when it holds the app's code, else this repository. */
/** @param {string} root */
function appRootFor(root) {
  return existsSync(join(root, 'src')) ? root : repoRoot;
}

/** @param {{ name: string, file: string }} use */
const describeUse = ({ name, file }) => `${name} in ${file}`;

/**
 * Checks the document at `url`, then vendors it into `root` and regenerates the client there.
 * `take`: the paths to take from another document (`from`), with the components they need, into
 * the one at `url` (see takePaths in scripts/lib/spec-document.mjs).
 * @param {{
 *   url: string, root: string, repair?: boolean,
 *   take?: { paths: string[], from: string },
 * }} options
 */
export async function updateSpec({ url, root, repair = false, take }) {
  const text = await download(url);
  let spec = parseSpec(text, url);
  const appRoot = appRootFor(root);
  /** @type {{ taken: string[], kept: string[], stayed: string[] } | null} */
  let took = null;
  if (take) {
    const source = parseSpec(await download(take.from), take.from);
    try {
      const { spec: combined, taken, kept, stayed } = takePaths(spec, source, take.paths);
      spec = combined;
      took = { taken, kept, stayed };
    } catch (error) {
      throw new UpdateError(error instanceof Error ? error.message : String(error));
    }
  }

  const dangling = danglingRefs(spec);
  // Only a schema can be closed safely (as an open object); a missing response or parameter
  // changes what an operation means, so it is always refused.
  const others = dangling.filter((name) => name.includes('/'));
  if (others.length > 0) {
    throw new UpdateError(
      `the spec references ${others.length} component(s) it never defines: ${others.join(', ')}`,
    );
  }
  if (dangling.length > 0 && !repair) {
    throw new UpdateError(
      `the spec references ${dangling.length} schema(s) it never defines: ${dangling.join(', ')}; rerun with --repair to close them as open objects`,
    );
  }
  if (dangling.length > 0) closeDanglingRefs(spec, dangling);
  const arrayEnums = normaliseArrayEnums(spec);
  const listExamples = normaliseSchemaExamples(spec);

  // Refuse before generating: an operation the app calls must still be there.
  const offered = operationsOf(spec);
  const dropped = importedOperations(appRoot).filter(({ operation }) => !offered.has(operation));
  if (dropped.length > 0) {
    // One entry per operation, naming every import of it.
    const byOperation = new Map();
    for (const use of dropped) {
      byOperation.set(use.operation, [...(byOperation.get(use.operation) ?? []), use]);
    }
    const names = [...byOperation].map(
      ([operation, uses]) => `${operation} (${uses.map(describeUse).join(', ')})`,
    );
    throw new UpdateError(
      `the new spec drops ${byOperation.size === 1 ? 'an operation' : 'operations'} the app imports: ${names.join('; ')}`,
    );
  }

  const work = await mkdtemp(join(tmpdir(), 'pepa-spec-update-'));
  try {
    const candidate = join(work, 'vapi.json');
    await writeFile(candidate, `${JSON.stringify(spec, null, 2)}\n`);
    const lint = projectLint(candidate);
    const warnings = lint.warnings;
    // Generate before touching the checkout, so a spec the generator rejects changes nothing.
    const output = join(work, 'generated');
    try {
      await generate({ input: candidate, output });
    } catch (error) {
      throw new UpdateError(`the generator could not use the spec: ${generatorMessage(error)}`);
    }
    // Every name the app imports (functions, helpers, types) must still be generated.
    const lost = importedGeneratedNames(appRoot).filter(({ name, module }) => {
      // `generated/client` is a folder (client/index.ts); `generated/sdk.gen` a file.
      const file = [join(output, `${module}.ts`), join(output, module, 'index.ts')].find((path) =>
        existsSync(path),
      );
      return !file || !exportedNames(readFileSync(file, 'utf8')).has(name);
    });
    if (lost.length > 0) {
      throw new UpdateError(
        `the generated client would no longer export what the app imports: ${lost.map(describeUse).join('; ')}`,
      );
    }

    // `npm run typecheck` itself, in a copy of the project that holds the candidate.
    const typeErrors = typecheckCandidate({ appRoot, spec: candidate, generatedDir: output, work });
    if (typeErrors.length > 0) {
      const more =
        typeErrors.length > SHOWN_TYPE_ERRORS
          ? `\n  … and ${typeErrors.length - SHOWN_TYPE_ERRORS} more`
          : '';
      throw new UpdateError(
        `the app would not type-check against the new client (npm run typecheck fails):\n  ${typeErrors.slice(0, SHOWN_TYPE_ERRORS).join('\n  ')}${more}`,
      );
    }

    // Accepted means `npm run verify` stays green: its OpenAPI lint step lints the vendored file.
    // (Checked after the types, whose errors name the app's code and matter first.)
    if (lint.errorCount > 0) {
      const more =
        lint.errorCount > SHOWN_LINT_ERRORS
          ? `\n  … and ${lint.errorCount - SHOWN_LINT_ERRORS} more`
          : '';
      throw new UpdateError(
        `the vendored spec would fail npm run spec:lint (the project's OpenAPI lint in npm run verify) with ${lint.errorCount} error(s):\n  ${lint.errors.slice(0, SHOWN_LINT_ERRORS).join('\n  ')}${more}`,
      );
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
    return {
      ...diffOperations(before, spec),
      warnings,
      repaired: dangling,
      arrayEnums,
      listExamples,
      took,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const SHOWN_LINT_ERRORS = 10;
const SHOWN_TYPE_ERRORS = 10;
const USAGE =
  'usage: npm run spec:update [-- --url <url|file>] [--take <path,…> --from <url|file>] [--repair] [--root <dir>]';
const SHOWN_WARNINGS = 5;

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        root: { type: 'string' },
        repair: { type: 'boolean' },
        take: { type: 'string' },
        from: { type: 'string' },
      },
    }));
    if (Boolean(values.take) !== Boolean(values.from)) {
      throw new Error('--take and --from go together');
    }
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    console.error(`spec:update: ${message.replace(/\.$/, '')} (${USAGE})`);
    process.exit(1);
  }
  const url = values.url || process.env.VAPI_SPEC_URL || DEFAULT_SPEC_URL;
  const root = resolve(values.root || process.env.SPEC_UPDATE_ROOT || repoRoot);
  try {
    const take =
      values.take && values.from
        ? { paths: values.take.split(',').map((path) => path.trim()), from: values.from }
        : undefined;
    const result = await updateSpec({ url, root, repair: Boolean(values.repair), take });
    const { added, removed, changed, total, warnings, repaired, arrayEnums, listExamples, took } =
      result;
    console.log(
      `Vendored ${url}${take ? ` with ${take.paths.join(', ')} from ${take.from}` : ''} as ${SPEC_FILE} (${total} operations) and regenerated generated/.`,
    );
    if (took) {
      console.log(`${took.taken.length} component(s) taken: ${took.taken.join(', ')}`);
      console.log(
        `${took.kept.length} kept as they were, since other paths use them: ${took.kept.join(', ') || 'none'}`,
      );
      if (took.stayed.length > 0) {
        console.log(
          `${took.stayed.length} response(s) and example(s) kept where the other document gives none: ${took.stayed.join(', ')}`,
        );
      }
    }
    if (repaired.length > 0) {
      console.log(`${repaired.length} undefined schema(s) closed as open objects:`);
      for (const name of repaired) console.log(`  ${name}`);
    }
    if (arrayEnums.length > 0) {
      console.log(
        `${arrayEnums.length} array schema(s) carried their items' enum on the array; moved to items: ${arrayEnums.slice(0, SHOWN_WARNINGS).join(', ')}${arrayEnums.length > SHOWN_WARNINGS ? ', …' : ''}`,
      );
    }
    if (listExamples.length > 0) {
      console.log(
        `${listExamples.length} schema(s) gave OpenAPI 3.1's examples list in a 3.0 document; the first is their example: ${listExamples.join(', ')}`,
      );
    }
    /** @type {Array<[string, string[]]>} */
    const sections = [
      ['added', added],
      ['removed', removed],
      ['changed', changed],
    ];
    for (const [name, list] of sections) {
      console.log(`${list.length} ${name}${list.length > 0 ? ':' : ''}`);
      for (const item of list) console.log(`  ${item}`);
    }
    if (warnings.length > 0) {
      console.log(
        `${warnings.length} lint warning(s) in the provider's document (warnings only: npm run spec:lint passes)${warnings.length > SHOWN_WARNINGS ? ` (first ${SHOWN_WARNINGS})` : ''}:`,
      );
      for (const warning of warnings.slice(0, SHOWN_WARNINGS)) console.log(`  ${warning}`);
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
