/** The call object: how a start fails, and what a phone changes. */
import { describe, expect, it, vi } from 'vitest';
import type { CallError } from './call-events';
import { isMobileUserAgent, type WebCall } from './pepa-call';
import {
  DESKTOP_UA,
  START_TIME,
  WEB_CALL,
  createHarness,
  deferred,
  flush,
} from './test/call-harness';
import { IPHONE_UA, setUpCallTests } from './test/call-test-setup';

setUpCallTests();

describe('start failures', () => {
  /** A failed request as the API layer throws it: an error that says which call error it is. */
  const apiFailure = (
    message: string,
    callError: Omit<CallError & { type: 'web-call-creation-error' }, 'message' | 'cause' | 'type'>,
  ) => {
    const failure: Error & { toCallError(): CallError } = Object.assign(new Error(message), {
      toCallError: (): CallError => ({
        type: 'web-call-creation-error',
        ...callError,
        message,
        cause: failure,
      }),
    });
    return failure;
  };

  it('a web-call HTTP failure carries its kind and status, then cleans up and resolves null', async () => {
    const h = createHarness();
    const failure = apiFailure('Unauthorized', {
      kind: 'http',
      status: 401,
      body: { message: 'Invalid key' },
    });
    h.createWebCall.mockRejectedValueOnce(failure);
    await expect(h.call.start('assistant-1')).resolves.toBeNull();
    await flush();
    const error = {
      type: 'web-call-creation-error',
      kind: 'http',
      status: 401,
      body: { message: 'Invalid key' },
      message: 'Unauthorized',
      cause: failure,
    };
    expect(h.events).toEqual([
      'state:starting',
      'progress:web-call-creation:started',
      'progress:web-call-creation:failed',
      ['error', error],
      [
        'call-start-failed',
        { stage: 'web-call-creation', error, totalDurationMs: 0, timestamp: START_TIME },
      ],
      'state:ending',
      'state:idle',
    ]);
  });

  it('a network failure is told apart from an HTTP one', async () => {
    const h = createHarness();
    h.createWebCall.mockRejectedValueOnce(apiFailure('Failed to fetch', { kind: 'network' }));
    await h.call.start('assistant-1');
    await flush();
    expect(h.payloads.find(([name]) => name === 'error')?.[1]).toMatchObject({
      type: 'web-call-creation-error',
      kind: 'network',
    });
  });

  it('a failure the request does not describe is an unknown web-call failure', async () => {
    const h = createHarness();
    const thrown = Object.assign(new Error('odd'), { kind: 'http', status: 500 });
    h.createWebCall.mockRejectedValueOnce(thrown);
    await h.call.start('assistant-1');
    await flush();
    expect(h.payloads.find(([name]) => name === 'error')?.[1]).toEqual({
      type: 'web-call-creation-error',
      kind: 'unknown',
      message: 'odd',
      cause: thrown,
    });
  });

  it('a failing call-object factory reports daily-call-object-creation-error', async () => {
    const h = createHarness();
    h.factory.mockRejectedValueOnce(new Error('Duplicate DailyIframe instances are not allowed'));
    await expect(h.call.start('assistant-1')).resolves.toBeNull();
    await flush();
    expect(h.events.slice(3)).toEqual([
      'progress:call-object-creation:started',
      'progress:call-object-creation:failed',
      [
        'error',
        expect.objectContaining({
          type: 'daily-call-object-creation-error',
          message: 'Duplicate DailyIframe instances are not allowed',
        }),
      ],
      ['call-start-failed', expect.objectContaining({ stage: 'call-object-creation' })],
      'state:ending',
      'state:idle',
    ]);
  });

  it('a rejected join reports daily-call-join-error and destroys the call object', async () => {
    const h = createHarness();
    h.configureNextDaily((daily) => daily.join.mockRejectedValueOnce(new Error('room not found')));
    await expect(h.call.start('assistant-1')).resolves.toBeNull();
    await flush();
    expect(h.events).toEqual([
      'state:starting',
      'progress:web-call-creation:started',
      'progress:web-call-creation:completed',
      'progress:call-object-creation:started',
      'progress:call-object-creation:completed',
      'progress:join:started',
      'progress:join:failed',
      [
        'error',
        expect.objectContaining({ type: 'daily-call-join-error', message: 'room not found' }),
      ],
      ['call-start-failed', expect.objectContaining({ stage: 'join' })],
      'state:ending',
      'state:idle',
    ]);
  });

  it('a join refused for the microphone reports microphone-permission-denied', async () => {
    const h = createHarness();
    h.configureNextDaily((daily) => {
      daily.join.mockRejectedValueOnce(new DOMException('Permission denied', 'NotAllowedError'));
    });
    await h.call.start('assistant-1');
    await flush();
    expect(h.payloads.find(([name]) => name === 'error')?.[1]).toMatchObject({
      type: 'microphone-permission-denied',
      message: 'Permission denied',
    });
  });

  it("Daily's camera-error for a denied microphone fails the start as microphone-permission-denied", async () => {
    const h = createHarness();
    const started = h.call.start('assistant-1');
    await flush();
    h.daily().emit('camera-error', {
      errorMsg: { errorMsg: 'Permission denied', audioOk: false },
      error: {
        type: 'permissions',
        msg: 'Permission denied',
        blockedBy: 'user',
        blockedMedia: ['audio'],
      },
    });
    await expect(started).resolves.toBeNull();
    await flush();
    const error = {
      type: 'microphone-permission-denied',
      message: 'Permission denied',
      blockedBy: 'user',
    };
    expect(h.events.slice(-6)).toEqual([
      [
        'camera-error',
        { errorType: 'permissions', message: 'Permission denied', blockedMedia: ['audio'] },
      ],
      'progress:assistant-ready:failed',
      ['error', error],
      ['call-start-failed', expect.objectContaining({ stage: 'assistant-ready', error })],
      'state:ending',
      'state:idle',
    ]);
  });

  it('fails after the start timeout when listening never arrives, and cleans up', async () => {
    const h = createHarness({ startTimeoutMs: 5000 });
    const started = h.call.start('assistant-1');
    await flush();
    await vi.advanceTimersByTimeAsync(4999);
    expect(h.call.state).toBe('starting');
    await vi.advanceTimersByTimeAsync(1);
    await expect(started).resolves.toBeNull();
    const error = {
      type: 'start-timeout',
      timeoutMs: 5000,
      message: 'The assistant was not ready within 5000 ms',
    };
    expect(h.events.slice(-5)).toEqual([
      'progress:assistant-ready:failed',
      ['error', error],
      [
        'call-start-failed',
        { stage: 'assistant-ready', error, totalDurationMs: 5000, timestamp: START_TIME + 5000 },
      ],
      'state:ending',
      'state:idle',
    ]);
    expect(h.daily().destroyed).toBe(true);
  });

  it('the start timeout defaults to 20 seconds and also covers a hanging web-call request', async () => {
    const h = createHarness();
    h.createWebCall.mockReturnValueOnce(new Promise<WebCall>(() => undefined));
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(19_999);
    expect(h.call.state).toBe('starting');
    await vi.advanceTimersByTimeAsync(1);
    await expect(started).resolves.toBeNull();
    expect(h.payloads.find(([name]) => name === 'call-start-failed')?.[1]).toMatchObject({
      stage: 'web-call-creation',
      error: { type: 'start-timeout', timeoutMs: 20_000 },
    });
    expect(h.createWebCall.mock.calls[0]?.[1]?.signal?.aborted).toBe(true);
  });

  it('leaving the meeting before listening fails the start', async () => {
    const h = createHarness();
    const started = h.call.start('assistant-1');
    await flush();
    h.daily().emit('left-meeting', { action: 'left-meeting' });
    await expect(started).resolves.toBeNull();
    await flush();
    expect(h.events).not.toContain('call-end');
    expect(h.payloads.find(([name]) => name === 'call-start-failed')?.[1]).toMatchObject({
      stage: 'assistant-ready',
      error: { type: 'start-method-error' },
    });
  });

  it('a Daily error while joining fails the join once, even if the join then rejects too', async () => {
    const h = createHarness();
    const join = deferred<unknown>();
    h.configureNextDaily((daily) => {
      daily.join.mockReturnValueOnce(join.promise);
    });
    const started = h.call.start('assistant-1');
    await flush();
    h.daily().emit('error', { errorMsg: 'Meeting has ended', error: { type: 'exp-room' } });
    join.reject(new Error('join aborted'));
    await expect(started).resolves.toBeNull();
    await flush();
    const failures = h.payloads.filter(([name]) => name === 'call-start-failed');
    expect(failures).toEqual([
      [
        'call-start-failed',
        expect.objectContaining({
          stage: 'join',
          error: {
            type: 'daily-call-join-error',
            message: 'Meeting has ended',
            cause: { type: 'exp-room' },
          },
        }),
      ],
    ]);
  });

  it('an ejection after joining but before listening fails the start as daily-error', async () => {
    const h = createHarness();
    const started = h.call.start('assistant-1');
    await flush();
    h.daily().emit('error', { errorMsg: 'Ejected', error: { type: 'ejected' } });
    await expect(started).resolves.toBeNull();
    await flush();
    expect(h.payloads.find(([name]) => name === 'call-start-failed')?.[1]).toMatchObject({
      stage: 'assistant-ready',
      error: { type: 'daily-error', dailyErrorType: 'ejected' },
    });
  });

  it('optional stages report their failure and the start carries on', async () => {
    const h = createHarness();
    h.createWebCall.mockResolvedValueOnce({
      ...WEB_CALL,
      artifactPlan: { videoRecordingEnabled: true },
    });
    h.configureNextDaily((daily) => {
      daily.startRecording.mockImplementationOnce(() => {
        throw new Error('recording not allowed');
      });
      daily.startRemoteParticipantsAudioLevelObserver.mockRejectedValueOnce(
        new Error('no observer'),
      );
      daily.updateInputSettings.mockRejectedValueOnce(new Error('no processor'));
    });
    await expect(h.connect()).resolves.toMatchObject({ id: 'call-1' });
    // Beside the wait for the assistant, in their own order; the microphone's level observer
    // still starts once noise cancellation has settled, even when it failed.
    expect(h.events.slice(5, 22)).toEqual([
      'progress:join:started',
      'progress:join:completed',
      'progress:video-recording-setup:started',
      'progress:assistant-ready:started',
      'progress:video-recording-setup:failed',
      [
        'error',
        expect.objectContaining({
          type: 'video-recording-setup-error',
          message: 'recording not allowed',
        }),
      ],
      'progress:audio-observer-setup:started',
      'progress:audio-observer-setup:failed',
      [
        'error',
        expect.objectContaining({ type: 'audio-observer-setup-error', message: 'no observer' }),
      ],
      'progress:audio-processing-setup:started',
      'progress:audio-processing-setup:failed',
      [
        'error',
        expect.objectContaining({ type: 'audio-processing-setup-error', message: 'no processor' }),
      ],
      'progress:audio-observer-setup:started',
      'progress:audio-observer-setup:completed',
      'progress:assistant-ready:completed',
      ['call-start-success', expect.objectContaining({ callId: 'call-1' })],
      'state:started',
    ]);
    expect(h.daily().stopRecording).not.toHaveBeenCalled();
    await h.call.stop();
  });
});

describe('mobile user agents', () => {
  it('recognises mobile user agents case-insensitively', () => {
    for (const ua of [
      IPHONE_UA,
      'Mozilla/5.0 (Linux; ANDROID 14)',
      'BlackBerry9700',
      'iPad',
      'iPod',
      'IEMobile/10',
      'Bada/2.0',
    ]) {
      expect(isMobileUserAgent(ua)).toBe(true);
    }
    expect(isMobileUserAgent(DESKTOP_UA)).toBe(false);
  });

  it('waits 1000 ms from the tap before joining on a mobile user agent', async () => {
    const h = createHarness({ userAgent: IPHONE_UA });
    const started = h.call.start('assistant-1');
    await flush();
    await vi.advanceTimersByTimeAsync(999);
    expect(h.instances).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.daily().join).toHaveBeenCalledTimes(1);
    expect(h.events.slice(3, 8)).toEqual([
      'progress:mobile-wait:started',
      'progress:mobile-wait:completed',
      'progress:call-object-creation:started',
      'progress:call-object-creation:completed',
      'progress:join:started',
    ]);
    await h.call.stop();
    await expect(started).resolves.toBeNull();
  });

  it('stop during the mobile wait clears its timer and never joins', async () => {
    const h = createHarness({ userAgent: IPHONE_UA });
    void h.call.start('assistant-1');
    await flush();
    await h.call.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(h.instances).toHaveLength(0);
  });
});
