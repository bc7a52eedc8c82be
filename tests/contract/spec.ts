// Reads the vendored provider spec and the operations table it must cover, for the contract tests.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const specPath = resolve(repoRoot, 'openapi', 'vapi.json');
/** The provider's table of its 148 operations, as committed. */
export const fixtureOperationsPath = resolve(repoRoot, 'tests', 'fixtures', 'operations.tsv');

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  schema?: unknown;
}

export interface MediaTypeObject {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  deprecated?: boolean;
  security?: Array<Record<string, string[]>>;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<
    string,
    { $ref?: string; description?: string; content?: Record<string, MediaTypeObject> }
  >;
}

export interface OpenApiDocument {
  openapi: string;
  security?: Array<Record<string, string[]>>;
  paths: Record<string, Partial<Record<HttpMethod, OperationObject>>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface SpecOperation {
  method: HttpMethod;
  path: string;
  operation: OperationObject;
}

export function readSpec(path = specPath): OpenApiDocument {
  return JSON.parse(readFileSync(path, 'utf8')) as OpenApiDocument;
}

export function specOperations(spec: OpenApiDocument): SpecOperation[] {
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method, path, operation }] : [];
    }),
  );
}

export interface OperationRow {
  method: string;
  path: string;
  operationId: string;
  /** The request body's content type, or `-` for none. */
  requestBody: string;
  takesQuery: boolean;
  auth: 'bearer' | 'none';
  deprecated: boolean;
}

export function parseOperationsTable(text: string): OperationRow[] {
  const [header, ...lines] = text.trimEnd().split('\n');
  if (header !== 'method\tpath\toperationId\trequest_body\tquery\tauth\tdeprecated') {
    throw new Error(`Unexpected operations table header: ${header}`);
  }
  return lines.map((line) => {
    const [method = '', path = '', operationId = '', requestBody = '', query, auth, deprecated] =
      line.split('\t');
    if (auth !== 'bearer' && auth !== 'none') throw new Error(`Unknown auth in: ${line}`);
    return {
      method,
      path,
      operationId,
      requestBody,
      takesQuery: query === 'yes',
      auth,
      deprecated: deprecated === 'yes',
    };
  });
}

/** The example value a request or response media type carries (the first named one). */
export function exampleOf(media: MediaTypeObject | undefined): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  return first?.value;
}

/**
 * The status Prism answers a valid request with: the operation's success status, or the lowest
 * of several (Prism's choice; the provider's `POST /chat` declares 200 for the chat and 201).
 */
export function successStatus(operation: OperationObject): number {
  const [lowest] = Object.keys(operation.responses)
    .filter((code) => /^2\d\d$/.test(code))
    .map(Number)
    .sort((a, b) => a - b);
  if (lowest === undefined) throw new Error('Expected a 2xx response, got none');
  return lowest;
}
