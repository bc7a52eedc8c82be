import type { CallError } from './call-events';
import { describeError, isPermissionDeniedError } from './daily-payloads';

/**
 * True when a thrown value says the machine has no microphone to open: none is connected
 * (`NotFoundError`, the older `DevicesNotFoundError`), or none satisfies a plain audio request,
 * which WebKit reports as an `OverconstrainedError` when it has no capture device at all.
 */
export function isMicrophoneMissingError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('name' in error)) return false;
  return (
    error.name === 'NotFoundError' ||
    error.name === 'DevicesNotFoundError' ||
    error.name === 'OverconstrainedError'
  );
}

/** What a failed join means: the microphone refused, missing, or the room itself. */
export function joinFailure(error: unknown): CallError {
  const message = describeError(error);
  if (isPermissionDeniedError(error)) {
    return { type: 'microphone-permission-denied', message, cause: error };
  }
  if (isMicrophoneMissingError(error)) return { type: 'microphone-missing', message, cause: error };
  return { type: 'daily-call-join-error', message, cause: error };
}
