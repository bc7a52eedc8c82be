/**
 * What the gate accepts is decided by its own contract: the validators generated from
 * openapi/gate.json (generated/gate/valibot.gen.ts) judge every body, path and query parameter
 * and header it reads. Only the wording of a refusal is the gate's own.
 */
import * as v from 'valibot';

type Schema = v.GenericSchema;

export type Verdict<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      /** The first field at fault, as a dotted path (null: the value as a whole). */
      field: string | null;
      /** A field the contract does not declare (a closed object's extra key). */
      unknownField: boolean;
      detail: string;
    };

/** A closed object (`additionalProperties: false`) refusing a key it does not declare. */
function isUnknownField(issue: v.BaseIssue<unknown>): boolean {
  return issue.type === 'strict_object' && issue.expected === 'never';
}

/** Judges `input` by `schema`: its parsed value, or the first fault in words a visitor can read. */
export function judge<S extends Schema>(schema: S, input: unknown): Verdict<v.InferOutput<S>> {
  const result = v.safeParse(schema, input);
  if (result.success) return { ok: true, value: result.output };
  // An undeclared field is named before any other fault: it is the likeliest mistake.
  const unknown = result.issues.find(isUnknownField);
  const issue = unknown ?? result.issues[0];
  const field = v.getDotPath(issue);
  if (unknown) {
    return { ok: false, field, unknownField: true, detail: `Unknown field: ${field ?? '?'}` };
  }
  const detail =
    field === null
      ? issue.message
      : issue.received === 'undefined'
        ? `${field} is required`
        : `${field}: ${issue.message}`;
  return { ok: false, field, unknownField: false, detail };
}

/** The schema under an `optional(…)` wrapper, if any. */
function unwrapped(schema: Schema): Schema {
  const wrapper = schema as Schema & { wrapped?: Schema };
  return schema.type === 'optional' && wrapper.wrapped ? unwrapped(wrapper.wrapped) : schema;
}

/**
 * A URL's query parameters as the object `schema` describes, each read as the type its schema
 * declares (a query string carries text only): `true`/`false` for a boolean, a plain decimal for
 * a number. Anything else stays text, for the schema to refuse.
 */
export function queryOf(url: URL, schema: v.ObjectSchema<v.ObjectEntries, undefined>): unknown {
  const query: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(schema.entries)) {
    const raw = url.searchParams.get(name);
    if (raw === null) continue;
    const type = unwrapped(entry).type;
    if (type === 'boolean' && (raw === 'true' || raw === 'false')) query[name] = raw === 'true';
    else if (type === 'number' && /^-?\d+(\.\d+)?$/.test(raw)) query[name] = Number(raw);
    else query[name] = raw;
  }
  return query;
}

/** The request's headers that `schema` declares, by the names the contract spells them with. */
export function headersOf(
  request: Request,
  schema: v.ObjectSchema<v.ObjectEntries, undefined>,
): unknown {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(schema.entries)) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
}
