/**
 * The provider's chat as the tests stand in for it: `POST /chat` streams a reply piece by piece
 * (or fails, holds or breaks, as the test sets), and `GET /chat/{id}` says what a chat cost.
 */

/** The provider's chat as the tests stub it: what it answers, and what it was asked. */
export interface ChatWorld {
  /** Answers given before a reply, one each try, in order: a status, or 'down' (no answer). */
  failures: (number | 'down')[];
  /** The Retry-After those answers carry, if any. */
  retryAfter: string | null;
  /** The reply's pieces, streamed one event each. */
  reply: string[];
  /** After its first piece the stream waits until the gate aborts it. */
  hold: boolean;
  /** After its first piece the stream breaks. */
  breaks: boolean;
  /** What `GET /chat/{id}` says a chat cost; null: the lookup fails. */
  cost: number | null;
  requests: { body: Record<string, unknown>; authorization: string | null }[];
  /** Chats whose streamed request the gate aborted. */
  aborted: string[];
  lookedUp: string[];
  /** What `GET /chat/{id}` answers of each chat (besides its cost): a test may rewrite one. */
  records: Map<string, Record<string, unknown>>;
}

/** A chat stand-in that answers at once with a three-piece reply and costs a little. */
export function freshChat(): ChatWorld {
  return {
    failures: [],
    retryAfter: null,
    reply: ['Ribbit! ', 'A fine ', 'question.'],
    hold: false,
    breaks: false,
    cost: 0.0071,
    requests: [],
    aborted: [],
    lookedUp: [],
    records: new Map(),
  };
}

let chatSeq = 0;

/** Chat ids count from one again (each test's first chat is `chat-1`). */
export function restartChatIds(): void {
  chatSeq = 0;
}

/** The provider's `POST /chat` (streamed) and `GET /chat/{id}`, as `chat` says. */
export async function providerChat(chat: ChatWorld, request: Request, url: URL): Promise<Response> {
  if (request.method === 'GET') {
    const id = decodeURIComponent(url.pathname.slice('/chat/'.length));
    chat.lookedUp.push(id);
    if (chat.cost === null) return Response.json({ message: 'down' }, { status: 503 });
    const kept = chat.records.get(id);
    if (!kept) return Response.json({ message: 'Not Found' }, { status: 404 });
    return Response.json({ id, orgId: 'org', cost: chat.cost, ...kept });
  }
  const body = (await request.json()) as Record<string, unknown>;
  chat.requests.push({ body, authorization: request.headers.get('authorization') });
  const failure = chat.failures.shift();
  if (failure === 'down') throw new TypeError('fetch failed: connection reset');
  if (failure !== undefined) {
    return Response.json(
      { message: 'no' },
      { status: failure, headers: chat.retryAfter ? { 'retry-after': chat.retryAfter } : {} },
    );
  }
  chatSeq += 1;
  const id = `chat-${chatSeq}`;
  const reply = chat.reply.join('');
  chat.records.set(id, {
    input: body.input,
    output: [{ role: 'assistant', content: reply }],
    messages: [
      { role: 'user', content: body.input },
      { role: 'assistant', content: reply },
    ],
    createdAt: new Date().toISOString(),
  });
  const encoder = new TextEncoder();
  const piece = (delta: string) =>
    encoder.encode(`data: ${JSON.stringify({ id, path: 'chat.output[0].content', delta })}\n\n`);
  const [first = '', ...rest] = chat.reply;
  const stream = streamedPieces(
    [piece(first), ...rest.map(piece), encoder.encode('data: [DONE]\n\n')],
    chat,
    request.signal,
    () => {
      if (!chat.aborted.includes(id)) chat.aborted.push(id);
    },
  );
  return new Response(stream, { status: 201, headers: { 'content-type': 'text/event-stream' } });
}

/**
 * A stand-in's streamed answer: `queue`'s pieces one a pull; after the first piece it breaks, or
 * (`hold`) waits until the gate aborts `signal`. `stopped` is told once, however the gate ended it
 * (an abort while held, or the stream cancelled).
 */
export function streamedPieces(
  queue: Uint8Array[],
  { breaks, hold }: { breaks: boolean; hold: boolean },
  signal: AbortSignal,
  stopped: () => void,
): ReadableStream<Uint8Array> {
  let pulls = 0;
  let ended = false;
  const stop = () => {
    if (!ended) stopped();
    ended = true;
  };
  return new ReadableStream<Uint8Array>({
    async pull(out) {
      pulls += 1;
      if (pulls > 1 && breaks) {
        out.error(new Error('connection reset'));
        return;
      }
      if (pulls > 1 && hold) {
        await new Promise<void>((done) => {
          if (signal.aborted) done();
          signal.addEventListener('abort', () => done(), { once: true });
        });
        stop();
        out.error(new DOMException('aborted', 'AbortError'));
        return;
      }
      const next = queue.shift();
      if (next) out.enqueue(next);
      else out.close();
    },
    cancel: stop,
  });
}
