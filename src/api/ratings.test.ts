import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RATINGS_PATH, submitRating } from './ratings';

let requests: Request[] = [];
let answer: () => Response | Promise<Response>;

beforeEach(() => {
  requests = [];
  answer = () => new Response(null, { status: 204 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      // The generated client passes a Request; a bare URL is read against the page's origin.
      requests.push(
        input instanceof Request
          ? input.clone()
          : new Request(new URL(String(input), 'http://127.0.0.1/'), init),
      );
      return answer();
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('submitRating', () => {
  it('posts the call id, the score and the comment as JSON to the same origin, nothing else', async () => {
    await expect(
      submitRating({ callId: 'call-7', score: 'delighted', comment: '  Ribbiting!  ' }),
    ).resolves.toEqual({ status: 'sent' });
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(new URL(request!.url).pathname).toBe(RATINGS_PATH);
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(await request?.json()).toEqual({
      callId: 'call-7',
      score: 'delighted',
      comment: 'Ribbiting!',
    });
  });

  it('leaves out an empty comment and cuts a long one to 280 characters', async () => {
    await submitRating({ callId: 'c', score: 'content', comment: '   ' });
    await submitRating({ callId: 'c', score: 'displeased', comment: 'x'.repeat(400) });
    expect(await requests[0]?.json()).toEqual({ callId: 'c', score: 'content' });
    expect(((await requests[1]?.json()) as { comment: string }).comment).toHaveLength(280);
  });

  it.each([
    [400, { status: 'invalid' }],
    [404, { status: 'unknown-call' }],
    [409, { status: 'already-rated' }],
    [500, { status: 'failed' }],
    [503, { status: 'failed' }],
  ])('reads HTTP %i', async (status, result) => {
    answer = () => new Response('{}', { status });
    await expect(submitRating({ callId: 'c', score: 'content' })).resolves.toEqual(result);
  });

  it("reads a rate limit with the gate's Retry-After", async () => {
    answer = () => new Response(null, { status: 429, headers: { 'Retry-After': '30' } });
    await expect(submitRating({ callId: 'c', score: 'content' })).resolves.toEqual({
      status: 'rate-limited',
      retryAfterSeconds: 30,
    });
  });

  it('says a network failure is a failure, without throwing', async () => {
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(submitRating({ callId: 'c', score: 'content' })).resolves.toEqual({
      status: 'failed',
    });
  });

  it('rejects when aborted, so an abandoned send is not taken for a failure', async () => {
    const controller = new AbortController();
    answer = () => {
      controller.abort();
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    };
    await expect(
      submitRating({ callId: 'c', score: 'content' }, controller.signal),
    ).rejects.toThrow();
  });
});
