// @ts-check
// `node scripts/trim-provider-spec.mjs <provider-spec.json> <out.json>`: the provider's document
// trimmed to what this repository's code and tests use, for a test fixture. It keeps every
// operation whose generated SDK function (generated/sdk.gen.ts) is named in the app's folders
// (src/, assistant/, scripts/ and gate/src/, as spec:update reads them) or tests/, and the components those operations reach, transitively; the rest
// (hundreds of schemas for features the site never touches) is left out, and so is the prose
// (`description` texts), which neither generation nor the tests read.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { APP_FOLDERS, sdkOperations } from './lib/app-imports.mjs';

const repoRoot = resolve(import.meta.dirname, '..');

/**
 * The parts of an OpenAPI document the trim reads; the rest is carried over as it is.
 * @typedef {{
 *   paths: Record<string, Record<string, unknown>>,
 *   components?: Record<string, Record<string, unknown>>,
 * }} OpenApiDocument
 */

/**
 * @param {string} dir
 * @returns {string[]}
 */
function sourceFiles(dir) {
  /** @type {string[]} */
  const files = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mjs)$/.test(name)) files.push(path);
  }
  return files;
}

/**
 * `METHOD /path` of every SDK function the repository's code names.
 * @returns {Set<string>}
 */
export function usedOperations(root = repoRoot) {
  const sdk = sdkOperations(readFileSync(join(root, 'generated', 'sdk.gen.ts'), 'utf8'));
  // The folders spec:update reads for what the app imports, and the tests.
  const code = [...APP_FOLDERS, 'tests']
    .flatMap((dir) => sourceFiles(join(root, dir)))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  /** @type {Set<string>} */
  const used = new Set();
  for (const [name, operation] of sdk) {
    if (new RegExp(`\\b${name}(?:Mutation|Options|QueryKey)?\\b`).test(code)) used.add(operation);
  }
  return used;
}

/**
 * The document with only `operations`, and the components they reach.
 * @param {OpenApiDocument} spec
 * @param {ReadonlySet<string>} operations
 * @returns {OpenApiDocument}
 */
export function trimSpec(spec, operations) {
  /** @type {OpenApiDocument['paths']} */
  const paths = {};
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operations.has(`${method.toUpperCase()} ${path}`)) continue;
      (paths[path] ??= {})[method] = operation;
    }
  }
  /** @type {NonNullable<OpenApiDocument['components']>} */
  const components = {};
  /** @type {unknown[]} */
  let pending = [paths];
  while (pending.length > 0) {
    /** @type {unknown[]} */
    const next = [];
    for (const [, kind, name] of JSON.stringify(pending).matchAll(
      /"#\/components\/(\w+)\/([^"]+)"/g,
    )) {
      // Both groups are required, so a match always has them.
      if (kind === undefined || name === undefined) continue;
      if (components[kind]?.[name] !== undefined) continue;
      const component = spec.components?.[kind]?.[name];
      if (component === undefined) continue;
      (components[kind] ??= {})[name] = component;
      next.push(component);
    }
    pending = next;
  }
  if (spec.components?.securitySchemes)
    components.securitySchemes = spec.components.securitySchemes;
  // Leaving out `description` strings keeps the document's shape: paths and components stay.
  return /** @type {OpenApiDocument} */ (withoutProse({ ...spec, paths, components }));
}

/**
 * The document without its prose: `description` texts (a property named so is kept).
 * @param {unknown} node
 * @returns {unknown}
 */
function withoutProse(node) {
  if (Array.isArray(node)) return node.map(withoutProse);
  if (!node || typeof node !== 'object') return node;
  /** @type {Record<string, unknown>} */
  const copy = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' && typeof value === 'string') continue;
    copy[key] = withoutProse(value);
  }
  return copy;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: node scripts/trim-provider-spec.mjs <provider-spec.json> <out.json>');
    process.exit(2);
  }
  /** @type {OpenApiDocument} */
  const spec = JSON.parse(readFileSync(input, 'utf8'));
  const trimmed = trimSpec(spec, usedOperations());
  writeFileSync(output, `${JSON.stringify(trimmed)}\n`);
  /** @param {OpenApiDocument} doc */
  const count = (doc) =>
    Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.log(
    `${count(trimmed)} of ${count(spec)} operations, ${Object.keys(trimmed.components?.schemas ?? {}).length} of ${Object.keys(spec.components?.schemas ?? {}).length} schemas → ${output}`,
  );
}
