import { describe, expect, it } from 'vitest';
import { normaliseSchemaExamples, takePaths, type OpenApiDocument } from './spec-document.mjs';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const answers = (name: string) => ({
  responses: { '200': { content: { 'application/json': { schema: ref(name) } } } },
});

/** The vendored document: calls and chats, sharing the assistant's overrides. */
function vendored(): OpenApiDocument {
  return {
    openapi: '3.0.0',
    paths: {
      '/call/web': { post: answers('Call') },
      '/chat': { post: answers('Chat') },
    },
    components: {
      schemas: {
        Call: { type: 'object', properties: { overrides: ref('AssistantOverrides') } },
        AssistantOverrides: { type: 'object', properties: { variableValues: { type: 'object' } } },
        Chat: { type: 'object', properties: { id: { type: 'string' } } },
      },
    },
  };
}

/** The published document: chats with their cost, and other overrides and calls. */
function published(): OpenApiDocument {
  return {
    openapi: '3.0.0',
    paths: {
      '/call': { post: answers('Call') },
      '/chat': { post: answers('Chat'), get: answers('ChatList') },
    },
    components: {
      schemas: {
        Call: { type: 'object', properties: { phone: { type: 'string' } } },
        AssistantOverrides: { type: 'object', properties: { compliancePlan: { type: 'object' } } },
        Chat: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            overrides: ref('AssistantOverrides'),
            costs: { type: 'array', items: { oneOf: [ref('ModelCost'), ref('ChatCost')] } },
          },
        },
        ChatList: { type: 'object', properties: { results: { items: ref('Chat') } } },
        ModelCost: { type: 'object', properties: { cost: { type: 'number' } } },
        ChatCost: { type: 'object', properties: { cost: { type: 'number' } } },
      },
    },
  };
}

describe('takePaths', () => {
  it('takes the paths and the components only they reach, keeping those the other paths use', () => {
    const base = vendored();
    const source = published();

    const { spec, taken, kept } = takePaths(base, source, ['/chat']);

    expect(spec.paths?.['/chat']).toEqual(source.paths?.['/chat']);
    expect(spec.paths?.['/call/web']).toEqual(base.paths?.['/call/web']);
    expect(spec.paths?.['/call']).toBeUndefined();
    const schemas = spec.components?.schemas as Record<string, unknown>;
    // The chat's own shapes are the published ones, its costs with them.
    expect(schemas['Chat']).toEqual(source.components?.schemas?.['Chat']);
    expect(schemas['ModelCost']).toEqual(source.components?.schemas?.['ModelCost']);
    // What the calls are typed against does not change.
    expect(schemas['AssistantOverrides']).toEqual(base.components?.schemas?.['AssistantOverrides']);
    expect(schemas['Call']).toEqual(base.components?.schemas?.['Call']);
    expect(taken).toEqual([
      'schemas/Chat',
      'schemas/ChatCost',
      'schemas/ChatList',
      'schemas/ModelCost',
    ]);
    expect(kept).toEqual(['schemas/AssistantOverrides']);
    // Neither document is changed.
    expect(base).toEqual(vendored());
    expect(source).toEqual(published());
  });

  it('keeps the vendored failure responses and examples the other document leaves out, the success example on its success status', () => {
    const base = vendored();
    const chatPost = base.paths?.['/chat']?.['post'];
    chatPost.requestBody = {
      content: { 'application/json': { schema: ref('CreateChat'), example: { input: 'Hi' } } },
    };
    chatPost.responses = {
      '201': { content: { 'application/json': { schema: ref('Chat'), example: { id: 'c1' } } } },
      '401': { $ref: '#/components/responses/Unauthorized' },
    };
    const source = published();
    const sourcePost = source.paths?.['/chat']?.['post'];
    sourcePost.requestBody = { content: { 'application/json': { schema: ref('Chat') } } };
    sourcePost.responses = {
      '200': { content: { 'application/json': { schema: ref('Chat') } } },
      '201': { content: { 'application/json': { schema: { type: 'object' } } } },
      '202': {
        content: { 'application/json': { schema: ref('Chat'), example: { id: 'their own' } } },
      },
    };

    const { spec, stayed } = takePaths(base, source, ['/chat']);

    const post = spec.paths?.['/chat']?.['post'];
    expect(post.requestBody.content['application/json'].example).toEqual({ input: 'Hi' });
    expect(post.responses['200'].content['application/json'].example).toEqual({ id: 'c1' });
    expect(post.responses['201'].content['application/json'].example).toEqual({ id: 'c1' });
    expect(post.responses['202'].content['application/json'].example).toEqual({ id: 'their own' });
    expect(post.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(stayed).toEqual([
      'POST /chat request',
      'POST /chat 401',
      'POST /chat 200',
      'POST /chat 201',
    ]);
    // The other document's operations are not changed.
    expect(sourcePost.responses['200'].content['application/json'].example).toBeUndefined();
  });

  it('refuses a path the other document lacks, and a component it references without defining', () => {
    expect(() => takePaths(vendored(), published(), ['/chat', '/session'])).toThrow(
      'the document to take from has no /session',
    );
    const broken = published();
    delete (broken.components?.schemas as Record<string, unknown>)['ChatCost'];
    expect(() => takePaths(vendored(), broken, ['/chat'])).toThrow(
      'the document to take from has no schemas/ChatCost',
    );
  });
});

describe('normaliseSchemaExamples', () => {
  it("makes a 3.0 schema's examples list its example, leaving media types' examples alone", () => {
    const spec: OpenApiDocument = {
      openapi: '3.0.0',
      paths: {
        '/chat': {
          post: {
            requestBody: {
              content: { 'application/json': { examples: { short: { value: { input: 'Hi' } } } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Chat: {
            type: 'object',
            properties: {
              input: { type: 'string', examples: ['Hello, how can you help me?', 'Ribbit'] },
              name: { type: 'string', example: 'kept', examples: ['dropped'] },
            },
          },
        },
      },
    };

    expect(normaliseSchemaExamples(spec)).toEqual(['Chat.input', 'Chat.name']);
    const chat = spec.components?.schemas?.['Chat'] as { properties: Record<string, unknown> };
    expect(chat.properties['input']).toEqual({
      type: 'string',
      example: 'Hello, how can you help me?',
    });
    expect(chat.properties['name']).toEqual({ type: 'string', example: 'kept' });
    expect(
      spec.paths?.['/chat']?.['post'].requestBody.content['application/json'].examples,
    ).toEqual({ short: { value: { input: 'Hi' } } });
  });

  it('leaves an OpenAPI 3.1 document as it is, where a schema may have examples', () => {
    const schema = { type: 'string', examples: ['Ribbit'] };
    const spec: OpenApiDocument = { openapi: '3.1.0', components: { schemas: { Name: schema } } };

    expect(normaliseSchemaExamples(spec)).toEqual([]);
    expect(schema).toEqual({ type: 'string', examples: ['Ribbit'] });
  });
});
