/**
 * The app's door to the provider's REST API. Only this folder imports `generated/`; the rest of
 * the app imports from here. It is loaded with the call view, so it pulls in the one SDK function
 * it needs and nothing else.
 */
import { client } from '../../generated/client.gen';
import { siteConfig } from '../config/site';
import type { Call, CallControllerCreateWebCallData } from '../../generated/types.gen';
import type { CallError, CallErrorSource } from '../lib/call';
import { errorDetails } from './error-details';
import { retryAfterMs } from './retry-after';

export { errorDetails };

export type { Call };
/**
 * The body of `POST /call/web` as the SDK function takes it. Read from the operation, not the
 * schema name: a spec with read-only fields makes the generator emit a separate `…Writable` body
 * type, and the app must type-check against either.
 */
export type CreateWebCallDto = CallControllerCreateWebCallData['body'];

/** `http`: the provider answered with an error status. `network`: no answer (offline, aborted). */
export type VapiApiErrorKind = 'http' | 'network';

interface VapiApiErrorInit {
  kind: VapiApiErrorKind;
  status: number;
  body: unknown;
  details: readonly string[];
  retryAfterMs?: number | null;
  cause?: unknown;
}

/** A failed provider request. `status` is 0 when there was no HTTP answer. */
export class VapiApiError extends Error implements CallErrorSource {
  override readonly name = 'VapiApiError';
  readonly kind: VapiApiErrorKind;
  readonly status: number;
  /** The error body as the provider sent it (parsed JSON when it was JSON). */
  readonly body: unknown;
  /** What the provider said was wrong: its message(s), or each request validation problem. */
  readonly details: readonly string[];
  /** How long the provider asked to wait before trying again (its `Retry-After`), if it did. */
  readonly retryAfterMs: number | null;

  constructor(message: string, init: VapiApiErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.body = init.body;
    this.details = init.details;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }

  /** The call error a failed web-call request is, as the call library reports it. */
  toCallError(): CallError {
    return {
      type: 'web-call-creation-error',
      kind: this.kind,
      ...(this.kind === 'http' ? { status: this.status, body: this.body } : {}),
      ...(this.retryAfterMs === null ? {} : { retryAfterMs: this.retryAfterMs }),
      message: this.message,
      cause: this,
    };
  }
}

export function isVapiApiError(value: unknown): value is VapiApiError {
  return value instanceof VapiApiError;
}

function httpError(operation: string, response: Response, body: unknown): VapiApiError {
  const details = errorDetails(body);
  const reason = details.length > 0 ? `: ${details.join('; ')}` : '';
  return new VapiApiError(`${operation} failed with HTTP ${response.status}${reason}`, {
    kind: 'http',
    status: response.status,
    body,
    details,
    retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
  });
}

function networkError(operation: string, cause: unknown): VapiApiError {
  const reason = cause instanceof Error ? cause.message : 'no response';
  return new VapiApiError(`${operation} failed: ${reason}`, {
    kind: 'network',
    status: 0,
    body: undefined,
    details: [],
    cause,
  });
}

/**
 * The generated client throws whatever the error interceptors return. This one turns every
 * failed request into a {@link VapiApiError}: the provider's answer (status, reason, Retry-After)
 * or, with no answer at all, a network error.
 */
export function toVapiApiError(
  error: unknown,
  response: Response | undefined,
  request: Request | undefined,
): VapiApiError {
  if (error instanceof VapiApiError) return error;
  const operation = request ? `${request.method} ${new URL(request.url).pathname}` : 'The request';
  return response ? httpError(operation, response, error) : networkError(operation, error);
}

// Points the provider's client at the provider (or the local mock in the demo) and authenticates
// every secured operation with the public key: only a static-only build talks to it directly.
client.setConfig({
  baseUrl: siteConfig.voice.apiUrl,
  auth: () => siteConfig.voice.publicKey,
});

client.interceptors.error.use((error, response, request) =>
  toVapiApiError(error, response ?? undefined, request),
);
