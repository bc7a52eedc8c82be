import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GateApiError } from './gate-client';
import { gateChatDoor } from './chat-door';

const CHAT = { id: 'chat-0123456789abcdef', secret: 'secret-0123456789abcdef' };

/** A response whose body arrives in exactly these pieces, as a slow network would cut it. */
function streamed(pieces: string[], { breakAfter = false } = {}): Response {
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[index++];
      if (piece !== undefined) controller.enqueue(encoder.encode(piece));
      else if (breakAfter) controller.error(new TypeError('network error'));
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ code, title: code, status }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

let sent: Request[];
let answers: (() => Response | Promise<Response>)[];

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
  answers = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(new Request(input, init));
      const next = answers.shift();
      if (!next) throw new TypeError('no answer left');
      return next();
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const door = () => gateChatDoor(() => Promise.resolve('token'));

/** Runs a send to its end, with every timer the client might set run out on the way. */
async function send(text = 'Hello, Pepa', signal = new AbortController().signal) {
  const words: string[] = [];
  const result = door()
    .send(CHAT, text, signal, (piece) => words.push(piece))
    .then(
      (end) => ({ end, error: null }),
      (error: unknown) => ({ end: null, error }),
    );
  // A reconnecting reader would wait (3 s, doubling) and send again: give it the time to.
  await vi.advanceTimersByTimeAsync(120_000);
  return { ...(await result), words };
}

describe('the chat door', () => {
  it('reads a reply whose events are cut mid-line and mid-word, in order, to its done', async () => {
    answers.push(() =>
      streamed([
        'data: {"type":"words","te',
        'xt":"Ribbit, "}\n',
        '\ndata: {"type":"words","text":"my loyal',
        ' subject."}\r\n\r\ndata: {"type":"do',
        'ne","turnsLeft":7}\n\n',
      ]),
    );
    const { end, error, words } = await send();
    expect(error).toBeNull();
    expect(words).toEqual(['Ribbit, ', 'my loyal subject.']);
    expect(end).toEqual({ type: 'done', turnsLeft: 7 });
    const [request] = sent;
    expect(`${request?.method} ${new URL(request?.url ?? '').pathname}`).toBe(
      `POST /api/chats/${CHAT.id}/messages`,
    );
    expect(request?.headers.get('chat-secret')).toBe(CHAT.secret);
    expect(await request?.clone().json()).toEqual({ text: 'Hello, Pepa' });
  });

  it("keeps the reply's place from its done, by which a card of it is asked for", async () => {
    answers.push(() => streamed(['data: {"type":"done","turnsLeft":6,"remark":3}\n\n']));
    expect((await send()).end).toEqual({ type: 'done', turnsLeft: 6, remark: 3 });
  });

  it.each(['0', '2.5', '"3"', 'null'])(
    'takes a done whose place is %s as a finished reply without a place',
    async (remark) => {
      answers.push(() => streamed([`data: {"type":"done","turnsLeft":6,"remark":${remark}}\n\n`]));
      expect((await send()).end).toEqual({ type: 'done', turnsLeft: 6 });
    },
  );

  it('sends a message once when the gate refuses it, and says why with its code and wait', async () => {
    answers.push(
      () => problem(503, 'text-busy', { 'retry-after': '20' }),
      () => streamed(['data: {"type":"done","turnsLeft":1}\n\n']),
    );
    const { error } = await send();
    expect(sent).toHaveLength(1);
    expect(error).toBeInstanceOf(GateApiError);
    expect(error).toMatchObject({ code: 'text-busy', status: 503, retryAfterMs: 20_000 });
  });

  it('sends a message once when the connection breaks mid-reply, keeping the words that came', async () => {
    answers.push(
      () => streamed(['data: {"type":"words","text":"Rib"}\n\n'], { breakAfter: true }),
      () => streamed(['data: {"type":"done","turnsLeft":1}\n\n']),
    );
    const { error, words } = await send();
    expect(sent).toHaveLength(1);
    expect(words).toEqual(['Rib']);
    expect(error).toMatchObject({ kind: 'network' });
  });

  it('sends a message once when there is no answer at all', async () => {
    answers.push(
      () => Promise.reject(new TypeError('offline')),
      () => streamed(['data: {"type":"done","turnsLeft":1}\n\n']),
    );
    const { error } = await send();
    expect(sent).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'network', status: 0 });
  });

  it("passes on the provider's failed event, after the words before it", async () => {
    answers.push(() =>
      streamed([
        'data: {"type":"words","text":"Ribbit"}\n\n',
        'data: {"type":"failed","problem":{"code":"provider-error","title":"x"}}\n\n',
      ]),
    );
    const { end, words } = await send();
    expect(words).toEqual(['Ribbit']);
    expect(end).toMatchObject({ type: 'failed', problem: { code: 'provider-error' } });
  });

  it('stops reading when the visitor stops the reply, and says it was stopped', async () => {
    let pull: ((value: string) => void) | null = null;
    const encoder = new TextEncoder();
    answers.push(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(encoder.encode('data: {"type":"words","text":"Rib"}\n\n'));
              pull = (value) => controller.enqueue(encoder.encode(value));
            },
          }),
          { status: 200, headers: { 'content-type': 'text/event-stream' } },
        ),
    );
    const controller = new AbortController();
    const words: string[] = [];
    const result = door().send(CHAT, 'Hi', controller.signal, (piece) => words.push(piece));
    await vi.advanceTimersByTimeAsync(0);
    expect(words).toEqual(['Rib']);
    controller.abort();
    await expect(result).resolves.toEqual({ type: 'stopped' });
    expect(pull).not.toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
  });

  it('refuses an event the contract does not allow as a malformed answer', async () => {
    answers.push(() => streamed(['data: {"type":"shout","text":"RIBBIT"}\n\n']));
    const { error } = await send();
    expect(error).toMatchObject({ code: 'malformed-answer' });
  });
});
