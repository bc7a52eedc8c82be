/** The gate's errors: problem+json bodies with a stable `code` (openapi/gate.json, Problem). */
import type { Problem } from '../../../generated/gate/types.gen';

export type ProblemCode = Problem['code'];

const TITLES: Record<ProblemCode, string> = {
  'bad-request': 'The request is malformed',
  unauthorized: 'Missing or wrong credentials',
  'bot-check-failed': 'The bot check did not pass',
  'rate-limited': 'Too many requests from this visitor',
  'court-closed': 'The court is closed for today: its budget is spent',
  'court-resting':
    "Pepa is resting: the day's budget is spread over the day, and she is back at the time it gives",
  'court-full': 'The line is longer than the court lets anyone wait: come back later',
  'gate-unavailable': 'The gate cannot take calls right now',
  'provider-error': 'The voice service could not create the call',
  'ticket-gone': 'That place in line is gone',
  'not-found': 'Nothing with that id',
  'already-rated': 'That call was already rated',
  'chat-gone': 'That chat is gone',
  'reply-in-flight': 'Pepa is still answering the last message',
  'message-too-long': 'The message is too long',
  'text-busy': 'Pepa is answering as many messages as she can right now',
  'card-not-ready': "Pepa's words are not written down yet",
  'card-refused': 'Those words cannot go on a card',
  'card-gone': 'That card was taken down',
};

export const STATUS: Record<ProblemCode, number> = {
  'bad-request': 400,
  unauthorized: 401,
  'bot-check-failed': 403,
  'rate-limited': 429,
  'court-closed': 503,
  'court-resting': 503,
  'court-full': 503,
  'gate-unavailable': 503,
  'provider-error': 502,
  'ticket-gone': 404,
  'not-found': 404,
  'already-rated': 409,
  'chat-gone': 404,
  'reply-in-flight': 409,
  'message-too-long': 413,
  'text-busy': 503,
  'card-not-ready': 409,
  'card-refused': 422,
  'card-gone': 410,
};

export function problem(
  code: ProblemCode,
  extra: { detail?: string; retryAfterSeconds?: number; reopensAt?: string } = {},
): Response {
  const status = STATUS[code];
  const body: Problem = { code, title: TITLES[code], status, ...extra };
  const headers = new Headers({
    'content-type': 'application/problem+json',
    'cache-control': 'no-store',
  });
  if (extra.retryAfterSeconds !== undefined) {
    headers.set('retry-after', String(extra.retryAfterSeconds));
  }
  if (status === 401) headers.set('www-authenticate', 'Bearer');
  return new Response(JSON.stringify(body), { status, headers });
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** The largest JSON body the gate reads; anything longer is refused unread. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The body as text, read chunk by chunk with a byte counter: past `maxBytes` the stream is
 * cancelled and null returned, so a chunked body with no declared length is never read in full.
 */
export async function readLimited(request: Request, maxBytes: number): Promise<string | null> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Reads a JSON object body, or says why it is not one. */
export async function readJsonObject(
  request: Request,
  maxBytes = MAX_BODY_BYTES,
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; detail: string }> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    return { ok: false, detail: 'The body must be application/json' };
  }
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return { ok: false, detail: `The body is over ${maxBytes} bytes` };
  const text = await readLimited(request, maxBytes);
  if (text === null) return { ok: false, detail: `The body is over ${maxBytes} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, detail: 'The body is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, detail: 'The body must be a JSON object' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** The bearer token of a request, if it has one. */
export function bearer(request: Request): string | null {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim() ?? null;
}

/** The value of one cookie of the request. */
export function cookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}
