/**
 * The model engine's endpoint as the tests stand in for it: `POST /chat/completions` streams a
 * reply chunk by chunk with its usage last (or fails, breaks, holds, or reports no usage or a bad
 * one, as the test sets), and records what it was asked.
 */

import { streamedPieces } from './provider-chat';

/** What the endpoint reports a request used; `'none'`: no usage chunk; `'malformed'`: a bad one. */
export type UsageReport =
  | { prompt_tokens: number; completion_tokens: number; cached_tokens: number }
  | 'none'
  | 'malformed';

export interface ModelWorld {
  /** Answers given before a reply, one each try: a status (with an error code), or 'down'. */
  failures: ({ status: number; code?: string } | 'down')[];
  retryAfter: string | null;
  /** The reply's pieces, one chunk each. */
  reply: string[];
  usage: UsageReport;
  /** After its first piece the stream breaks. */
  breaks: boolean;
  /** After its first piece the stream waits until the gate aborts it. */
  hold: boolean;
  requests: { body: Record<string, unknown>; authorization: string | null }[];
  /** Requests whose stream the gate ended. */
  aborted: number;
}

/** An endpoint that answers at once with a three-piece reply and a small usage. */
export function freshModel(): ModelWorld {
  return {
    failures: [],
    retryAfter: null,
    reply: ['Ribbit! ', 'A royal ', 'hello.'],
    usage: { prompt_tokens: 1600, completion_tokens: 40, cached_tokens: 1024 },
    breaks: false,
    hold: false,
    requests: [],
    aborted: 0,
  };
}

function usageChunk(usage: UsageReport): Record<string, unknown> | null {
  if (usage === 'none') return null;
  if (usage === 'malformed') return { prompt_tokens: 'many', completion_tokens: -1 };
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_tokens },
  };
}

let completionSeq = 0;

/** `POST /chat/completions`, as `model` says. */
export async function modelEndpoint(model: ModelWorld, request: Request): Promise<Response> {
  const body = (await request.json()) as Record<string, unknown>;
  model.requests.push({ body, authorization: request.headers.get('authorization') });
  const failure = model.failures.shift();
  if (failure === 'down') throw new TypeError('fetch failed: connection reset');
  if (failure !== undefined) {
    return Response.json(
      { error: { message: 'no', type: 'requests', code: failure.code ?? null } },
      {
        status: failure.status,
        headers: model.retryAfter ? { 'retry-after': model.retryAfter } : {},
      },
    );
  }
  completionSeq += 1;
  const id = `chatcmpl-${completionSeq}`;
  const encoder = new TextEncoder();
  const chunk = (fields: Record<string, unknown>) =>
    encoder.encode(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], ...fields })}\n\n`,
    );
  const words = (content: string) => chunk({ choices: [{ index: 0, delta: { content } }] });
  const [first = '', ...rest] = model.reply;
  const usage = usageChunk(model.usage);
  const queue = [
    words(first),
    ...rest.map(words),
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    ...(usage ? [chunk({ usage })] : []),
    encoder.encode('data: [DONE]\n\n'),
  ];
  const stream = streamedPieces(queue, model, request.signal, () => {
    model.aborted += 1;
  });
  return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

/** Completion ids count from one again. */
export function restartCompletionIds(): void {
  completionSeq = 0;
}
