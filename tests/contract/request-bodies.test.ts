// The generated client's request function with every body type it must support, against Prism
// serving a small test-only spec (the provider's own surface uses only JSON and form data).
// Every operation there also takes a path parameter, a required query parameter and bearer auth,
// and Prism rejects the request unless all of them arrive as declared.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism } from '../../scripts/lib/prism.mjs';
import {
  createClient,
  createConfig,
  formDataBodySerializer,
  urlSearchParamsBodySerializer,
  type Client,
} from '../../generated/client';
import { repoRoot } from './spec';

const TOKEN = 'fixture-key';
const security = [{ scheme: 'bearer' as const, type: 'http' as const }];

let prism: Awaited<ReturnType<typeof startPrism>>;
const sent: Request[] = [];
let client: Client;

beforeAll(async () => {
  prism = await startPrism({
    spec: resolve(repoRoot, 'tests', 'fixtures', 'request-bodies.json'),
    quiet: true,
  });
  client = createClient(
    createConfig({
      baseUrl: prism.url,
      auth: () => TOKEN,
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        if (input instanceof Request) sent.push(input.clone());
        return fetch(input, init);
      },
    }),
  );
});

afterAll(async () => {
  await prism?.stop();
});

function lastRequest(): Request {
  const request = sent.at(-1);
  if (!request) throw new Error('no request was sent');
  return request;
}

describe('request bodies through the generated client', () => {
  it('sends a url-encoded body with path, query and bearer auth', async () => {
    const result = await client.post({
      ...urlSearchParamsBodySerializer,
      url: '/forms/{formId}',
      path: { formId: 'audience' },
      query: { lang: 'en' },
      body: { name: 'Pepa the Great', count: 3 },
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      security,
    });

    expect(result.response.status).toBe(200);
    expect(result.data).toEqual({ accepted: true });
    const request = lastRequest();
    expect(request.url).toBe(`${prism.url}/forms/audience?lang=en`);
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(request.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(await request.text()).toBe('name=Pepa+the+Great&count=3');
  });

  it('has a url-encoded body that breaks the schema rejected', async () => {
    const result = await client.post({
      ...urlSearchParamsBodySerializer,
      url: '/forms/{formId}',
      path: { formId: 'audience' },
      query: { lang: 'en' },
      body: { name: 'Pepa' },
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      security,
    });
    expect(result.response.status).toBe(422);
  });

  it('sends a text body as it is', async () => {
    const result = await client.post({
      bodySerializer: null,
      url: '/notes/{noteId}',
      path: { noteId: 'decree' },
      query: { draft: true },
      body: 'Frogs first, "always".',
      headers: { 'Content-Type': 'text/plain' },
      security,
    });

    expect(result.response.status).toBe(200);
    const request = lastRequest();
    expect(request.url).toBe(`${prism.url}/notes/decree?draft=true`);
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(request.headers.get('content-type')).toBe('text/plain');
    expect(await request.text()).toBe('Frogs first, "always".');
  });

  it('sends a JSON body', async () => {
    const result = await client.post({
      url: '/records/{recordId}',
      path: { recordId: 'r1' },
      query: { mode: 'replace' },
      body: { title: 'Decree', tags: ['royal', 'swamp'] },
      headers: { 'Content-Type': 'application/json' },
      security,
    });

    expect(result.response.status).toBe(200);
    const request = lastRequest();
    expect(request.url).toBe(`${prism.url}/records/r1?mode=replace`);
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(await request.text())).toEqual({ title: 'Decree', tags: ['royal', 'swamp'] });
  });

  it('sends a multipart body with its file', async () => {
    const file = new File(['ribbit'], 'meme.txt', { type: 'text/plain' });
    const result = await client.post({
      ...formDataBodySerializer,
      url: '/uploads/{folder}',
      path: { folder: 'memes' },
      query: { public: false },
      body: { file, caption: 'Court jester' },
      headers: { 'Content-Type': null },
      security,
    });

    expect(result.response.status).toBe(200);
    const request = lastRequest();
    expect(request.url).toBe(`${prism.url}/uploads/memes?public=false`);
    expect(request.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    const form = await request.formData();
    const uploaded = form.get('file');
    expect(uploaded).toBeInstanceOf(File);
    expect(await (uploaded as File).text()).toBe('ribbit');
    expect(form.get('caption')).toBe('Court jester');
  });

  it('is refused without the bearer token', async () => {
    const result = await client.post({
      bodySerializer: null,
      url: '/notes/{noteId}',
      path: { noteId: 'decree' },
      query: { draft: true },
      body: 'Frogs first.',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(result.response.status).toBe(401);
  });
});
