import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { malformedAnswerProblem, type CallError, type WebCall } from '../../../lib/call';
import { START_TIME, createHarness, expectNothingLeft } from '../../../lib/call/test/call-harness';
import { FakeMediaStream } from '../../../lib/call/test/fake-daily';
import { FAILURE_REASONS, describeStartFailure } from './start-failure';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START_TIME);
  vi.stubGlobal('MediaStream', FakeMediaStream);
});

afterEach(async () => {
  try {
    await expectNothingLeft();
  } finally {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  }
});

/** Answers a web-call request may resolve with that are not a Call with a room. */
const MALFORMED: Array<[string, unknown]> = [
  ['a null body', null],
  ['a webCallUrl that is a number', { id: 'call-1', webCallUrl: 42 }],
  [
    'a webCallUrl that is an object',
    { id: 'call-1', webCallUrl: { href: 'https://x.daily.co/r' } },
  ],
  ['a transport.callUrl that is a number', { id: 'call-1', transport: { callUrl: 7 } }],
  ['no room URL at all', { id: 'call-1' }],
  ['an empty room URL', { id: 'call-1', webCallUrl: '  ' }],
  ['a list', [{ webCallUrl: 'https://pepa.daily.co/r' }]],
  ['a bare string', 'https://pepa.daily.co/r'],
];

describe('a malformed web-call answer', () => {
  it.each(MALFORMED)(
    '%s is its own reason in the panel, without the microphone toast, and nothing is loaded',
    async (_name, answer) => {
      const h = createHarness();
      h.createWebCall.mockResolvedValueOnce(answer as WebCall);
      const outcome = await h.call.startWith((signal) => h.createWebCall({}, { signal }));
      expect(outcome.status).toBe('failed');
      // Nothing was loaded or joined, so the microphone was never touched.
      expect(h.factory).not.toHaveBeenCalled();
      const failed = h.payloads.find(([name]) => name === 'call-start-failed')?.[1] as
        { stage: string; error: CallError } | undefined;
      expect(failed?.stage).toBe('web-call-creation');
      expect(failed?.error).toMatchObject({ type: 'web-call-creation-error', kind: 'malformed' });
      expect(describeStartFailure(failed?.error ?? null)).toEqual({
        microphoneToast: false,
        reason: FAILURE_REASONS.malformed,
        retryAfterMs: null,
      });
    },
  );

  it('reads a Call with a room from webCallUrl or the transport as well formed', () => {
    expect(malformedAnswerProblem({ id: 'c', webCallUrl: 'https://pepa.daily.co/r' })).toBeNull();
    expect(
      malformedAnswerProblem({ id: 'c', webCallUrl: null, transport: { callUrl: 'https://x' } }),
    ).toBeNull();
    // A room elsewhere is well formed: the room check refuses it, with its own reason.
    expect(malformedAnswerProblem({ webCallUrl: 'https://evil.example/r' })).toBeNull();
  });
});
