import { describe, expect, it } from 'vitest';
import type { CallError } from './call-events';
import { CallStartError, webCallCreationError } from './start-error';

describe('start errors', () => {
  it("takes a failed request's call error from the error itself", () => {
    const own: CallError = {
      type: 'web-call-creation-error',
      kind: 'http',
      status: 429,
      retryAfterMs: 3000,
      message: 'busy',
    };
    expect(webCallCreationError({ toCallError: () => own })).toBe(own);
  });

  it('reports anything else as an unknown web-call failure, without guessing at its fields', () => {
    const thrown = { kind: 'http', status: 500, message: 'boom' };
    expect(webCallCreationError(thrown)).toEqual({
      type: 'web-call-creation-error',
      kind: 'unknown',
      message: 'boom',
      cause: thrown,
    });
  });

  it('names the stage and carries the call error as its cause', () => {
    const cause: CallError = { type: 'daily-call-join-error', message: 'no room' };
    const error = new CallStartError('join', cause);
    expect(error).toBeInstanceOf(Error);
    expect([error.stage, error.cause, error.message]).toEqual(['join', cause, 'no room']);
  });
});
