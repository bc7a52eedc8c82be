// @ts-check
// What the app uses of the generated client, read from its code: every name imported from
// generated/ (SDK functions, TanStack Query helpers, types), and for SDK functions the operation
// (method and path) behind each, read from the generated SDK itself.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Folders whose non-test code counts as "the app" (assistant/ and scripts/ may call the SDK, and
 * the court gate creates calls with it).
 */
export const APP_FOLDERS = ['src', 'assistant', 'scripts', 'gate/src'];
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const TEST = /\.test\.|\/test\//;
const IMPORT =
  /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]*generated\/[^'"]*)['"]/g;
/** TanStack Query helpers are named after the SDK function they wrap. */
const HELPER_SUFFIX = /(InfiniteOptions|InfiniteQueryKey|Options|QueryKey|Mutation)$/;

/**
 * @param {string} dir
 * @returns {string[]}
 */
function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !TEST.test(file) && !file.includes('node_modules'));
}

/**
 * @param {string} appRoot
 * @returns {Array<{ name: string, module: string, file: string }>} each imported name, the
 *   generated module it comes from (e.g. `sdk.gen`) and the first file that imports it.
 */
export function importedGeneratedNames(appRoot) {
  /** @type {Map<string, { name: string, module: string, file: string }>} */
  const found = new Map();
  for (const folder of APP_FOLDERS) {
    for (const file of sourceFiles(join(appRoot, folder))) {
      const text = readFileSync(file, 'utf8');
      for (const [, names, from] of text.matchAll(IMPORT)) {
        // Both groups of IMPORT are required, so a match always has them.
        if (names === undefined || from === undefined) continue;
        const module = from.slice(from.lastIndexOf('generated/') + 'generated/'.length);
        // The gate's own client (generated/gate/) comes from the gate's spec, not the provider's.
        if (module.startsWith('gate/')) continue;
        for (const raw of names.split(',')) {
          const name = raw
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]
            ?.trim();
          if (!name) continue;
          const key = `${module}:${name}`;
          if (!found.has(key)) found.set(key, { name, module, file: relative(appRoot, file) });
        }
      }
    }
  }
  return [...found.values()];
}

/**
 * Maps each SDK function in a generated sdk.gen.ts to its operation, `POST /call/web`.
 * @param {string} sdkSource
 * @returns {Map<string, string>}
 */
export function sdkOperations(sdkSource) {
  /** @type {Map<string, string>} */
  const operations = new Map();
  for (const chunk of sdkSource.split(/^export const /m).slice(1)) {
    const name = /^(\w+)/.exec(chunk)?.[1];
    const method = /\)\.(get|put|post|delete|options|head|patch|trace)</.exec(chunk)?.[1];
    const url = /url: '([^']+)'/.exec(chunk)?.[1];
    if (name && method && url) operations.set(name, `${method.toUpperCase()} ${url}`);
  }
  return operations;
}

/**
 * The names a generated module exports (`export const x`, `export type X`, `export { … }`).
 * @param {string} source
 * @returns {Set<string>}
 */
export function exportedNames(source) {
  /** @type {Set<string>} */
  const names = new Set();
  for (const [, name] of source.matchAll(
    /^export (?:const|type|function|interface|class) (\w+)/gm,
  )) {
    if (name) names.add(name);
  }
  for (const [, list = ''] of source.matchAll(/^export (?:type )?\{([^}]*)\}/gm)) {
    for (const part of list.split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.replace(/^type\s+/, '');
      if (name) names.add(name);
    }
  }
  return names;
}

/**
 * The operations the app calls: each imported SDK function or TanStack helper, resolved to
 * `METHOD /path` through the generated SDK in `generatedDir`.
 * @param {string} appRoot
 * @returns {Array<{ operation: string, name: string, file: string }>}
 */
export function importedOperations(appRoot, generatedDir = join(appRoot, 'generated')) {
  const sdkFile = join(generatedDir, 'sdk.gen.ts');
  const sdk = existsSync(sdkFile) ? sdkOperations(readFileSync(sdkFile, 'utf8')) : new Map();
  /** @type {Array<{ operation: string, name: string, file: string }>} */
  const result = [];
  for (const { name, file } of importedGeneratedNames(appRoot)) {
    const operation = sdk.get(name) ?? sdk.get(name.replace(HELPER_SUFFIX, ''));
    if (
      operation &&
      !result.some((entry) => entry.operation === operation && entry.name === name)
    ) {
      result.push({ operation, name, file });
    }
  }
  return result;
}
