/**
 * The tests' way into the gate: every request goes through the Worker (`SELF`), and every answer
 * is checked against openapi/gate.json, streams when they end.
 */
import { SELF } from 'cloudflare:test';
import { ORIGIN } from './bench';
import { expectConforms } from './conformance';
import type { Admitted, Problem, Waiting } from '../../generated/gate/types.gen';

/** The checks of streamed answers, made when each stream ends; the test's end awaits them. */
const streamChecks: Promise<void>[] = [];

/** Throws when a stream answered in this test drifted from openapi/gate.json. */
export async function expectStreamsConform(): Promise<void> {
  const checks = streamChecks.splice(0);
  await Promise.all(checks);
}

/**
 * A request to the gate; its answer must be one openapi/gate.json allows, or the test fails. A
 * stream is handed on as it comes (the test reads it, or stops it) and checked whole when it
 * ends: a stream the test stops is not waited for.
 */
export async function api(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await SELF.fetch(`${ORIGIN}${path}`, init);
  const method = init.method ?? 'GET';
  const pathname = new URL(path, ORIGIN).pathname;
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream') && response.body) {
    const decoder = new TextDecoder();
    let text = '';
    const { status, headers } = response;
    const recorder = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        text += decoder.decode(chunk, { stream: true });
        out.enqueue(chunk);
      },
      flush() {
        streamChecks.push(
          expectConforms(method, pathname, new Response(text, { status, headers })),
        );
      },
    });
    return new Response(response.body.pipeThrough(recorder), { status, headers });
  }
  await expectConforms(method, pathname, response);
  return response;
}

/** The answers' bodies, as the contract types them (generated from openapi/gate.json). */
export type { Admitted as AdmittedBody, Problem as ProblemBody, Waiting as WaitingBody };

/** An answer's body, read as JSON and typed as the test expects. */
export async function body<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The events of a reply's stream, as JSON. */
export async function events(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);
}
