import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOT_READY_FALLBACK_SECONDS, askForCard, isCard, type Card } from './cards';

const CARD: Card = {
  id: 'card_0123456789abcdef',
  pageUrl: 'https://pepa.example/q/card_0123456789abcdef',
  imageUrl: 'https://pepa.example/q/card_0123456789abcdef/card.png',
  imageWidth: 1200,
  imageHeight: 630,
  words: 'Ribbit.',
  saidAt: '2026-11-05T10:00:00Z',
  drawn: true,
};
const CHAT = {
  from: 'chat',
  conversationId: 'chat-0123456789',
  remark: 4,
  chatSecret: 'secret-0123456789abcdef',
} as const;

let requests: Request[] = [];
let answer: () => Response | Promise<Response>;

beforeEach(() => {
  requests = [];
  answer = () => Response.json(CARD, { status: 201 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(input instanceof Request ? input.clone() : new Request(String(input), init));
      return answer();
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const problem = (status: number, body: Record<string, unknown>, headers = {}) =>
  new Response(JSON.stringify({ title: 'No', status, ...body }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

describe('askForCard', () => {
  it("sends the line's address, and a chat's secret in its header, to the same origin", async () => {
    await expect(askForCard(CHAT)).resolves.toEqual({ status: 'made', card: CARD });
    const [request] = requests;
    expect(new URL(request!.url).pathname).toBe('/api/cards');
    expect(request?.method).toBe('POST');
    expect(request?.credentials).toBe('same-origin');
    expect(request?.headers.get('chat-secret')).toBe(CHAT.chatSecret);
    expect(await request?.json()).toEqual({
      from: 'chat',
      conversationId: CHAT.conversationId,
      remark: 4,
    });
  });

  it('reads each problem the contract declares', async () => {
    answer = () => problem(422, { code: 'card-refused', detail: '  It names a price.  ' });
    await expect(askForCard(CHAT)).resolves.toEqual({
      status: 'refused',
      reason: 'It names a price.',
    });
    answer = () => problem(422, { code: 'card-refused' });
    await expect(askForCard(CHAT)).resolves.toEqual({ status: 'refused', reason: null });
    answer = () => problem(409, { code: 'card-not-ready', retryAfterSeconds: 7 });
    await expect(askForCard(CHAT)).resolves.toEqual({ status: 'not-ready', retryAfterSeconds: 7 });
    answer = () => problem(409, { code: 'card-not-ready' }, { 'Retry-After': '3' });
    await expect(askForCard(CHAT)).resolves.toEqual({ status: 'not-ready', retryAfterSeconds: 3 });
    answer = () => problem(409, { code: 'card-not-ready' });
    await expect(askForCard(CHAT)).resolves.toEqual({
      status: 'not-ready',
      retryAfterSeconds: NOT_READY_FALLBACK_SECONDS,
    });
    answer = () => problem(404, { code: 'not-found' });
    await expect(askForCard(CHAT)).resolves.toEqual({ status: 'not-found' });
    answer = () => problem(429, { code: 'rate-limited', retryAfterSeconds: 600 });
    await expect(askForCard(CHAT)).resolves.toEqual({
      status: 'rate-limited',
      retryAfterSeconds: 600,
    });
    answer = () => problem(502, { code: 'provider-error' });
    await expect(askForCard(CHAT)).resolves.toEqual({ status: 'failed', network: false });
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await expect(askForCard(CHAT)).resolves.toEqual({ status: 'failed', network: true });
  });

  it('takes a card only with web addresses for its page and image', () => {
    expect(isCard(CARD)).toBe(true);
    expect(isCard({ ...CARD, pageUrl: 'javascript:alert(1)' })).toBe(false);
    expect(isCard({ ...CARD, imageUrl: 'data:image/png;base64,AAAA' })).toBe(false);
    expect(isCard({ ...CARD, words: ' ' })).toBe(false);
    expect(isCard(null)).toBe(false);
  });

  it('rejects when aborted, so an abandoned ask is not taken for a failure', async () => {
    const controller = new AbortController();
    answer = () => {
      controller.abort();
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    };
    await expect(askForCard(CHAT, controller.signal)).rejects.toBeDefined();
  });
});
