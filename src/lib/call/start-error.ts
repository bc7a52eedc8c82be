import type { CallError, StartStage } from './call-events';
import { describeError } from './daily-payloads';

/** Why a start ended without a call: the stage it failed in and the call error that did it. */
export class CallStartError extends Error {
  override readonly name = 'CallStartError';
  constructor(
    readonly stage: StartStage,
    override readonly cause: CallError,
  ) {
    super(cause.message);
  }
}

/**
 * How a start ended. `stopped`: the visitor (or the page) stopped it before it was ready, which
 * is not a failure. `busy`: a call was already under way, so nothing was started.
 */
export type StartOutcome<TCall> =
  | { status: 'started'; call: TCall }
  | { status: 'failed'; error: CallStartError }
  | { status: 'stopped' }
  | { status: 'busy' };

/**
 * An error that knows which {@link CallError} it is. The API layer's errors implement it, so the
 * call object never guesses at another layer's fields.
 */
export interface CallErrorSource {
  toCallError(): CallError;
}

function isCallErrorSource(error: unknown): error is CallErrorSource {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as Partial<CallErrorSource>).toCallError === 'function'
  );
}

/** The call error for a failed web-call request: the source's own, else an unknown failure. */
export function webCallCreationError(error: unknown): CallError {
  if (isCallErrorSource(error)) return error.toCallError();
  return {
    type: 'web-call-creation-error',
    kind: 'unknown',
    message: describeError(error),
    cause: error,
  };
}
