import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  exampleOf,
  fixtureOperationsPath,
  parseOperationsTable,
  readSpec,
  specOperations,
  successStatus,
} from './spec';

/** sha256 of the provider's operations table as it was vendored. */
const PROVIDER_TABLE_SHA256 = 'e047e110ddfa51895532cb4b7b2e79a0f5a7ab5d98b3b26c2980efe8f377ad23';

const table = parseOperationsTable(readFileSync(fixtureOperationsPath, 'utf8'));
const spec = readSpec();
const operations = specOperations(spec);

describe('the vendored spec against the provider operations table', () => {
  it('keeps the committed copy of the table identical to the provider facts', () => {
    const committed = readFileSync(fixtureOperationsPath, 'utf8');
    // Against the digest of the provider's table as vendored: an edit to the copy is seen.
    expect(createHash('sha256').update(committed).digest('hex')).toBe(PROVIDER_TABLE_SHA256);
  });

  it('covers exactly the 148 operations of the table', () => {
    expect(table).toHaveLength(148);
    expect(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual(
      table.map(({ method, path }) => `${method} ${path}`).sort(),
    );
  });

  it('secures the API with a bearer token by default', () => {
    expect(spec.security).toEqual([{ bearer: [] }]);
  });

  it.each(table)('$method $path matches the table ($operationId)', (row) => {
    const operation = spec.paths[row.path]?.[row.method.toLowerCase() as 'get'];
    if (!operation) throw new Error(`${row.method} ${row.path} is missing from the spec`);

    expect(operation.operationId).toBe(row.operationId);

    const templateNames = [...row.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
    const parameters = operation.parameters ?? [];
    const pathParams = parameters.filter((p) => p.in === 'path');
    expect(pathParams.map((p) => p.name)).toEqual(templateNames);
    expect(pathParams.every((p) => p.required === true)).toBe(true);

    const queryParams = parameters.filter((p) => p.in === 'query');
    expect(queryParams.length > 0).toBe(row.takesQuery);

    if (row.requestBody === '-') {
      expect(operation.requestBody).toBeUndefined();
    } else {
      expect(Object.keys(operation.requestBody?.content ?? {})).toEqual([row.requestBody]);
    }

    expect(operation.deprecated === true).toBe(row.deprecated);

    if (row.auth === 'none') {
      expect(operation.security).toEqual([]);
    } else {
      // Inherits the document's bearer requirement, or restates it.
      expect(
        operation.security === undefined || operation.security.some((s) => 'bearer' in s),
      ).toBe(true);
      expect(operation.responses['401']).toBeDefined();
    }

    // The success the mock answers (the lowest of several: the published `POST /chat` answers a
    // chat with 200 and also states a bare 201); it throws when there is none.
    const media =
      operation.responses[String(successStatus(operation))]?.content?.['application/json'];
    expect(media?.schema).toBeDefined();
    expect(exampleOf(media)).toBeDefined();
  });
});

describe('the web-call schemas', () => {
  const schemas = (spec.components?.schemas ?? {}) as Record<
    string,
    { properties?: Record<string, unknown>; additionalProperties?: unknown }
  >;

  it('describes every CreateWebCallDTO field of the realtime protocol', () => {
    expect(Object.keys(schemas.CreateWebCallDTO?.properties ?? {}).sort()).toEqual(
      [
        'assistant',
        'assistantId',
        'assistantOverrides',
        'roomDeleteOnUserLeaveEnabled',
        'squad',
        'squadId',
        'squadOverrides',
        'workflow',
        'workflowId',
        'workflowOverrides',
      ].sort(),
    );
  });

  it('describes the Call fields the client reads and the provider returns', () => {
    expect(Object.keys(schemas.Call?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'id',
        'orgId',
        'createdAt',
        'updatedAt',
        'type',
        'status',
        'assistantId',
        'assistant',
        'endedReason',
        'cost',
        'webCallUrl',
        'artifactPlan',
      ]),
    );
  });

  it('uses the provider schema names the app imports, open to additional properties', () => {
    for (const name of [
      'CreateAssistantDTO',
      'UpdateAssistantDTO',
      'AssistantOverrides',
      'Assistant',
      'CreateSquadDTO',
      'Squad',
      'CreateWorkflowDTO',
      'WorkflowOverrides',
      'Workflow',
      'CreateWebCallDTO',
      'Call',
    ]) {
      expect(schemas[name]?.additionalProperties, name).toBe(true);
    }
  });

  it('gives POST /call/web named examples: a plain web call and one that records video', () => {
    const responses = spec.paths['/call/web']?.post?.responses['201'];
    const examples = responses?.content?.['application/json']?.examples ?? {};
    expect(Object.keys(examples)).toEqual(['plain', 'video']);
    expect(examples.plain?.value).toMatchObject({
      webCallUrl: 'https://pepa-demo.daily.co/AbCdEf123',
      artifactPlan: { videoRecordingEnabled: false },
    });
    expect(examples.video?.value).toMatchObject({ artifactPlan: { videoRecordingEnabled: true } });
  });
});
