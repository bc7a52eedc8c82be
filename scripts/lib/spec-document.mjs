// The provider's OpenAPI document as `npm run spec:update` reads it: the components it references
// but never defines, the array schemas that carry their items' enum, and its operations, compared
// between two documents.

/**
 * An OpenAPI document as parsed JSON: only the parts read here are named.
 * @typedef {{
 *   openapi?: unknown,
 *   paths?: Record<string, Record<string, any> | undefined>,
 *   components?: Record<string, Record<string, unknown> | undefined>,
 * }} OpenApiDocument
 */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const COMPONENT_REF = /^#\/components\/(\w+)\/(.+)$/;
/** @param {string} part */
const unescapePointer = (part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * Components the document references with `$ref` but never defines, sorted: schemas by name,
 * other kinds as `responses/Unauthorized`.
 * @param {OpenApiDocument} spec
 * @returns {string[]}
 */
export function danglingRefs(spec) {
  /** @type {Set<string>} */
  const missing = new Set();
  for (const key of referenced(spec)) {
    const [kind = '', name = ''] = key.split(/\/(.*)/s);
    if (!Object.hasOwn(spec?.components?.[kind] ?? {}, name)) {
      missing.add(kind === 'schemas' ? name : key);
    }
  }
  return [...missing].sort();
}

/**
 * The components a JSON value references with `$ref`, as `kind/name` keys (`schemas/Chat`),
 * each once.
 * @param {unknown} value parsed JSON
 * @returns {Set<string>}
 */
function referenced(value) {
  /** @type {Set<string>} */
  const keys = new Set();
  /** @param {any} node */
  const visit = (node) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      const match = typeof node.$ref === 'string' ? COMPONENT_REF.exec(node.$ref) : null;
      if (match) keys.add(`${match[1]}/${unescapePointer(match[2] ?? '')}`);
      Object.values(node).forEach(visit);
    }
  };
  visit(value);
  return keys;
}

/**
 * Closes each missing schema as an open object, so generation and the app's types go on.
 * @param {OpenApiDocument} spec
 * @param {string[]} names
 */
export function closeDanglingRefs(spec, names) {
  spec.components ??= {};
  spec.components.schemas ??= {};
  for (const name of names) {
    spec.components.schemas[name] = {
      type: 'object',
      additionalProperties: true,
      description: 'Referenced but not defined by the provider; closed by `spec:update --repair`.',
    };
  }
}

/**
 * Calls `fix` on every object under the document's schemas with its place, as a `Schema.property`
 * path; returns the places where `fix` changed something, sorted.
 * @param {OpenApiDocument} spec
 * @param {(node: any) => boolean} fix changes `node` in place; true when it did
 * @returns {string[]}
 */
function fixSchemas(spec, fix) {
  /** @type {Set<string>} */
  const fixed = new Set();
  /**
   * @param {any} node parsed JSON
   * @param {string[]} path
   */
  const visit = (node, path) => {
    if (Array.isArray(node)) {
      node.forEach((child) => visit(child, path));
      return;
    }
    if (!node || typeof node !== 'object') return;
    if (fix(node)) fixed.add(path.join('.'));
    for (const [key, child] of Object.entries(node)) {
      // Paths name the schema and its properties, not the keywords between them.
      visit(child, key === 'properties' ? path : [...path, key]);
    }
  };
  for (const [name, schema] of Object.entries(spec?.components?.schemas ?? {})) {
    visit(schema, [name]);
  }
  return [...fixed].sort();
}

/**
 * Drops an `enum` of non-array values from array schemas (the values belong to `items`, which
 * the provider also gives them); returns where, as `Schema.property` paths, sorted.
 * @param {OpenApiDocument} spec
 * @returns {string[]}
 */
export function normaliseArrayEnums(spec) {
  return fixSchemas(spec, (node) => {
    if (
      node.type !== 'array' ||
      !Array.isArray(node.enum) ||
      !node.enum.every((/** @type {unknown} */ value) => !Array.isArray(value))
    ) {
      return false;
    }
    if (node.items && typeof node.items === 'object' && !node.items.$ref && !node.items.enum) {
      node.items.enum = node.enum;
    }
    delete node.enum;
    return true;
  });
}

/**
 * A schema's `examples` list in an OpenAPI 3.0 document (3.1's keyword, which a 3.0 schema does
 * not have; the published August 2026 document's chat shapes give it) becomes its 3.0 `example`,
 * the list's first. Returns where, as `Schema.property` paths, sorted.
 * @param {OpenApiDocument} spec
 * @returns {string[]}
 */
export function normaliseSchemaExamples(spec) {
  if (!String(spec.openapi ?? '').startsWith('3.0')) return [];
  return fixSchemas(spec, (node) => {
    if (!Array.isArray(node.examples)) return false;
    if (node.example === undefined && node.examples.length > 0) node.example = node.examples[0];
    delete node.examples;
    return true;
  });
}

/**
 * Each operation by `METHOD /path`.
 * @param {OpenApiDocument | undefined} spec
 * @returns {Map<string, any>}
 */
export function operationsOf(spec) {
  /** @type {Map<string, any>} */
  const operations = new Map();
  for (const [path, item] of Object.entries(spec?.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (operation) operations.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return operations;
}

/**
 * Compares two specs operation by operation (by method and path, then by content).
 * @param {OpenApiDocument | undefined} before
 * @param {OpenApiDocument} after
 */
export function diffOperations(before, after) {
  const old = operationsOf(before);
  const now = operationsOf(after);
  /**
   * @param {string} key
   * @param {{ operationId?: string } | undefined} operation
   */
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

/**
 * Every component reached from `roots` through `spec`'s components, transitively.
 * @param {OpenApiDocument} spec
 * @param {unknown[]} roots
 */
function reachedFrom(spec, roots) {
  /** @type {Set<string>} */
  const seen = new Set();
  const queue = [...roots];
  while (queue.length > 0) {
    for (const key of referenced(queue.pop())) {
      if (seen.has(key)) continue;
      seen.add(key);
      const [kind = '', name = ''] = key.split(/\/(.*)/s);
      queue.push(spec.components?.[kind]?.[name]);
    }
  }
  return seen;
}

/**
 * `base` with the paths named taken from `source`, and the components they need: each component
 * the taken paths reach in `source` comes from `source`, unless `base` has one of that name that
 * its other paths use; that one stays as it is (the taken paths then use it), so what the rest of
 * `base` describes does not change. What `base` states of a taken operation that `source` leaves
 * out (its failure responses, its examples) stays (keepVendored). Returns the new document, the
 * components taken and kept, and what stayed of the taken operations. Refuses a path `source`
 * lacks.
 * @param {OpenApiDocument} base
 * @param {OpenApiDocument} source
 * @param {string[]} paths
 */
export function takePaths(base, source, paths) {
  const lacking = paths.filter((path) => source.paths?.[path] === undefined);
  if (lacking.length > 0) {
    throw new Error(`the document to take from has no ${lacking.join(', ')}`);
  }
  /** @type {OpenApiDocument} */
  const spec = structuredClone(base);
  const kept = reachedFrom(
    base,
    Object.entries(base.paths ?? {})
      .filter(([path]) => !paths.includes(path))
      .map(([, item]) => item),
  );
  /** @type {string[]} */
  const taken = [];
  /** @type {string[]} */
  const keptUsed = [];
  /** @type {Set<string>} */
  const seen = new Set();
  /** @type {unknown[]} */
  const queue = paths.map((path) => source.paths?.[path]);
  while (queue.length > 0) {
    for (const key of referenced(queue.pop())) {
      if (seen.has(key)) continue;
      seen.add(key);
      const [kind = '', name = ''] = key.split(/\/(.*)/s);
      if (kept.has(key) && base.components?.[kind]?.[name] !== undefined) {
        keptUsed.push(key);
        continue;
      }
      const component = source.components?.[kind]?.[name];
      if (component === undefined) throw new Error(`the document to take from has no ${key}`);
      ((spec.components ??= {})[kind] ??= {})[name] = structuredClone(component);
      taken.push(key);
      queue.push(component);
    }
  }
  /** @type {string[]} */
  const stayed = [];
  for (const path of paths) {
    const item = structuredClone(source.paths?.[path]);
    if (!item) continue;
    stayed.push(...keepVendored(base.paths?.[path], item, path));
    (spec.paths ??= {})[path] = item;
  }
  return { spec, taken: taken.sort(), kept: keptUsed.sort(), stayed };
}

/**
 * What `before`'s operations state that `after`'s leave out, carried over: the failure responses
 * (401, 500), and the examples (a mock answers, and the contract tests send, each operation's
 * examples): a request body's by media type; a response's by status and media type, and the
 * success example also to the lowest success status of `after` when the two documents number
 * success differently (201 there, 200 here). Returns where, as `METHOD /path request|status`.
 * @param {Record<string, any> | undefined} before
 * @param {Record<string, any>} after
 * @param {string} path
 */
function keepVendored(before, after, path) {
  /** @type {string[]} */
  const kept = [];
  /** @param {any} media */
  const hasExample = (media) => media?.example !== undefined || media?.examples !== undefined;
  /** @param {Record<string, any> | undefined} responses */
  const successes = (responses) =>
    Object.keys(responses ?? {})
      .filter((status) => /^2\d\d$/.test(status))
      .sort();
  for (const method of METHODS) {
    const old = before?.[method];
    const now = after[method];
    if (!old || !now) continue;
    const where = `${method.toUpperCase()} ${path}`;
    for (const [type, media] of Object.entries(now.requestBody?.content ?? {})) {
      const example = old.requestBody?.content?.[type]?.example;
      if (!hasExample(media) && example !== undefined) {
        /** @type {any} */ (media).example = structuredClone(example);
        kept.push(`${where} request`);
      }
    }
    // The failures the vendored operation states (401, 500) that the other document leaves out.
    for (const [status, response] of Object.entries(old.responses ?? {})) {
      if (/^2\d\d$/.test(status) || now.responses?.[status] !== undefined) continue;
      (now.responses ??= {})[status] = structuredClone(response);
      kept.push(`${where} ${status}`);
    }
    const [oldSuccess] = successes(old.responses);
    const [newSuccess] = successes(now.responses);
    for (const [status, response] of Object.entries(now.responses ?? {})) {
      for (const [type, media] of Object.entries(response?.content ?? {})) {
        if (hasExample(media)) continue;
        const from =
          old.responses?.[status]?.content?.[type]?.example ??
          (status === newSuccess && oldSuccess
            ? old.responses?.[oldSuccess]?.content?.[type]?.example
            : undefined);
        if (from === undefined) continue;
        /** @type {any} */ (media).example = structuredClone(from);
        kept.push(`${where} ${status}`);
      }
    }
  }
  return kept;
}
