/**
 * Whether an answer of the gate is one its contract (openapi/gate.json) allows for the request:
 * a status the operation declares, the headers that status declares, the media type it declares,
 * and a body its schema accepts (checked by the validators generated from the document, and
 * walked for fields the document does not declare). Every request of the gate's tests goes
 * through it, so an answer that drifts from the document fails the test that received it.
 */
import * as v from 'valibot';
import gateDocument from '../../openapi/gate.json';
import * as validators from '../../generated/gate/valibot.gen';
import { EventStreamReader } from '../src/text/reply/event-stream';

interface Ref {
  $ref: string;
}
interface SchemaObject {
  type?: string;
  minimum?: number;
  properties?: Record<string, SchemaObject | Ref>;
  additionalProperties?: boolean | SchemaObject | Ref;
  items?: SchemaObject | Ref;
  oneOf?: (SchemaObject | Ref)[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}
interface HeaderObject {
  schema: SchemaObject;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject | Ref>;
  content?: Record<string, { schema: SchemaObject | Ref }>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject | Ref>;
}
type PathItem = Partial<Record<'get' | 'post' | 'put' | 'delete' | 'patch', Operation>>;

const document = gateDocument as unknown as {
  paths: Record<string, PathItem>;
  components: Record<string, Record<string, unknown>>;
};

function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && '$ref' in value;
}

/** Follows a local reference (`#/components/…`) to what it names. */
function resolved<T>(value: T | Ref): T {
  if (!isRef(value)) return value;
  let target: unknown = document;
  for (const part of value.$ref.replace(/^#\//, '').split('/')) {
    target = (target as Record<string, unknown> | undefined)?.[part];
  }
  if (target === undefined) throw new Error(`openapi/gate.json: nothing at ${value.$ref}`);
  return resolved(target as T | Ref);
}

/** Each path of the document as a pattern (a `{parameter}` is one segment). */
const PATHS = Object.entries(document.paths).map(
  ([template, item]) => [new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`), item] as const,
);

/** The operation the document declares for a method and path, or null when it declares none. */
export function operationFor(method: string, pathname: string): Operation | null {
  for (const [pattern, item] of PATHS) {
    if (pattern.test(pathname)) return item[method.toLowerCase() as keyof PathItem] ?? null;
  }
  return null;
}

/** Fields of `value` that its schema in the document does not declare, as dotted paths. */
function undeclaredFields(value: unknown, schemaOrRef: SchemaObject | Ref, at: string): string[] {
  const schema = resolved(schemaOrRef);
  if (schema.discriminator?.mapping && typeof value === 'object' && value !== null) {
    // One of several shapes, named by a field: the shape it names is the one to walk.
    const named = (value as Record<string, unknown>)[schema.discriminator.propertyName];
    const target = typeof named === 'string' ? schema.discriminator.mapping[named] : undefined;
    return target ? undeclaredFields(value, { $ref: target }, at) : [];
  }
  if (Array.isArray(value) && schema.items) {
    return value.flatMap((item, i) => undeclaredFields(item, schema.items!, `${at}[${i}]`));
  }
  if (typeof value !== 'object' || value === null || !schema.properties) return [];
  const out: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    const declared = schema.properties[key];
    const path = at ? `${at}.${key}` : key;
    if (declared) out.push(...undeclaredFields(field, declared, path));
    else if (schema.additionalProperties === undefined || schema.additionalProperties === false) {
      out.push(path);
    }
  }
  return out;
}

/** Whether a header's text is a value its schema allows (the document's headers are numbers or text). */
function headerFits(text: string, schema: SchemaObject): boolean {
  if (schema.type !== 'integer') return true;
  return /^\d+$/.test(text) && Number(text) >= (schema.minimum ?? -Infinity);
}

function validatorFor(schema: SchemaObject | Ref): v.GenericSchema {
  if (!isRef(schema)) throw new Error('openapi/gate.json: a response body schema must be a $ref');
  const name = `v${schema.$ref.split('/').pop() ?? ''}`;
  const validator = (validators as Record<string, unknown>)[name];
  if (!validator) throw new Error(`generated/gate/valibot.gen.ts has no ${name}`);
  return validator as v.GenericSchema;
}

/**
 * How an answer to `method` `pathname` drifts from the document: one line per fault, none when
 * it conforms. Paths the document does not declare (the site's pages) are not its to judge.
 */
export async function answerDrift(
  method: string,
  pathname: string,
  response: Response,
): Promise<string[]> {
  const operation = operationFor(method, pathname);
  if (!operation) return [];
  const declared = operation.responses[String(response.status)];
  if (!declared) return [`${response.status} is not an answer ${operation.operationId} declares`];
  const answer = resolved(declared);
  const faults: string[] = [];
  for (const [name, header] of Object.entries(answer.headers ?? {})) {
    const value = response.headers.get(name);
    if (value === null) faults.push(`the ${name} header is missing`);
    else if (!headerFits(value, resolved(header).schema)) {
      faults.push(`the ${name} header "${value}" does not fit its schema`);
    }
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  if (!answer.content) {
    if (text !== '') faults.push(`a ${response.status} has no body, yet one came`);
    return faults;
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const content = answer.content[mediaType];
  if (!content) {
    const allowed = Object.keys(answer.content).join(', ');
    return [...faults, `the body is "${mediaType}", not ${allowed}`];
  }
  if (mediaType === 'image/png') {
    // A PNG is its eight-byte signature, then its chunks.
    const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const isPng = signature.every((byte, n) => bytes[n] === byte);
    return isPng ? faults : [...faults, 'the body is not a PNG'];
  }
  if (mediaType === 'text/html') {
    return /^<!doctype html>/i.test(text) ? faults : [...faults, 'the body is not an HTML page'];
  }
  if (mediaType === 'text/event-stream') {
    // A stream's schema is its events': each event's data, as JSON.
    const reader = new EventStreamReader();
    const events = [...reader.feed(text), ...reader.end()];
    if (events.length === 0) return [...faults, 'the stream has no events'];
    events.forEach((data, n) =>
      faults.push(...bodyDrift(data, content.schema, `event ${n + 1}: `)),
    );
    return faults;
  }
  return [...faults, ...bodyDrift(text, content.schema, '')];
}

/** How one JSON text drifts from its schema in the document. */
function bodyDrift(text: string, schema: SchemaObject | Ref, prefix: string): string[] {
  const faults: string[] = [];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`${prefix}the body is not JSON`];
  }
  const result = v.safeParse(validatorFor(schema), body);
  if (!result.success) {
    for (const issue of result.issues) {
      faults.push(`${prefix}${v.getDotPath(issue) ?? 'the body'}: ${issue.message}`);
    }
  }
  for (const field of undeclaredFields(body, schema, '')) {
    faults.push(`${prefix}${field} is not declared`);
  }
  return faults;
}

/** Throws, naming every fault, when an answer drifts from the document. */
export async function expectConforms(
  method: string,
  pathname: string,
  response: Response,
): Promise<void> {
  const faults = await answerDrift(method, pathname, response.clone());
  if (faults.length > 0) {
    throw new Error(
      `The answer to ${method} ${pathname} drifts from openapi/gate.json:\n  ${faults.join('\n  ')}`,
    );
  }
}
