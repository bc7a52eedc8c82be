import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { CallError } from './call-events';
import {
  CALL_OBJECT_UNAVAILABLE_MESSAGE,
  RECONNECT_URL_MESSAGE,
  VALIDATION_MESSAGE,
  isMobileUserAgent,
  type WebCall,
} from './pepa-call';
import {
  DESKTOP_UA,
  HAPPY_START,
  START_TIME,
  SYNTHETIC_ENDED,
  WEB_CALL,
  createHarness,
  deferred,
  expectNothingLeft,
  flush,
} from './test/call-harness';
import {
  ASSISTANT,
  FakeMediaStream,
  VISITOR,
  asMediaStreamTrack,
  fakeTrack,
  type FakeDaily,
} from './test/fake-daily';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

let play: MockInstance<() => Promise<void>>;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START_TIME);
  vi.stubGlobal('MediaStream', FakeMediaStream);
  play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});

afterEach(async () => {
  try {
    await expectNothingLeft();
  } finally {
    vi.useRealTimers();
  }
});

function levels(daily: FakeDaily, participantsAudioLevel: Record<string, number>): void {
  daily.emit('remote-participants-audio-level', { participantsAudioLevel });
}

describe('a happy call', () => {
  it('emits the whole ordered sequence from start to stop and releases everything', async () => {
    const h = createHarness();
    const result = await h.connect();
    expect(result).toBe(WEB_CALL);
    const daily = h.daily();

    daily.emit('app-message', {
      data: JSON.stringify({ type: 'speech-update', status: 'started', role: 'assistant' }),
      fromId: ASSISTANT.session_id,
    });
    levels(daily, { [ASSISTANT.session_id]: 0.03 });
    levels(daily, { [ASSISTANT.session_id]: 0.3 });
    levels(daily, { [ASSISTANT.session_id]: 0 });
    daily.emit('local-audio-level', { audioLevel: 0.2 });
    await vi.advanceTimersByTimeAsync(1000);
    await h.call.stop();

    expect(h.events).toEqual([
      ...HAPPY_START,
      ['message', { type: 'speech-update', status: 'started', role: 'assistant' }],
      ['volume-level', { volume: 0.2 }],
      'speech-start',
      ['volume-level', { volume: 1 }],
      ['volume-level', { volume: 0 }],
      ['local-volume-level', { volume: 0.2 }],
      'speech-end',
      'state:ending',
      'call-end',
      SYNTHETIC_ENDED,
      'state:idle',
    ]);
    expect(h.createWebCall).toHaveBeenCalledTimes(1);
    expect(h.createWebCall.mock.calls[0]?.[0]).toEqual({ assistantId: 'assistant-1' });
    expect(h.factory).toHaveBeenCalledWith({
      audioSource: true,
      videoSource: false,
      dailyConfig: {},
    });
    expect(daily.join).toHaveBeenCalledWith({
      url: WEB_CALL.webCallUrl,
      subscribeToTracksAutomatically: false,
    });
    expect(daily.updateParticipant).toHaveBeenCalledWith(ASSISTANT.session_id, {
      setSubscribedTracks: { audio: true, video: false },
    });
    expect(daily.startRemoteParticipantsAudioLevelObserver).toHaveBeenCalledWith(100);
    expect(daily.startLocalAudioLevelObserver).toHaveBeenCalledWith(100);
    expect(daily.updateInputSettings).toHaveBeenCalledWith({
      audio: { processor: { type: 'noise-cancellation' } },
    });
    expect(daily.startRecording).not.toHaveBeenCalled();
    expect(daily.sentMessages()).toEqual(['playable']);
    expect(daily.destroy).toHaveBeenCalledTimes(1);
  });

  it('reports each stage with a timestamp and, once done, its duration', async () => {
    const webCall = deferred<WebCall>();
    const h = createHarness();
    h.createWebCall.mockReturnValueOnce(webCall.promise);
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(250);
    webCall.resolve(WEB_CALL);
    await h.connect(() => started);
    const progress = h.payloads.filter(([name]) => name === 'call-start-progress');
    expect(progress.slice(0, 3).map(([, payload]) => payload)).toEqual([
      { stage: 'web-call-creation', status: 'started', timestamp: START_TIME },
      {
        stage: 'web-call-creation',
        status: 'completed',
        timestamp: START_TIME + 250,
        durationMs: 250,
      },
      { stage: 'call-object-creation', status: 'started', timestamp: START_TIME + 250 },
    ]);
    expect(h.payloads.find(([name]) => name === 'call-start-success')?.[1]).toEqual({
      callId: 'call-1',
      totalDurationMs: 250,
      timestamp: START_TIME + 250,
    });
    await h.call.stop();
  });

  it('builds the web-call body from ids or inline objects', async () => {
    const h = createHarness();
    const assistant = { name: 'Pepa' };
    await h.connect(() =>
      h.call.start(
        assistant,
        { variableValues: { a: 1 } },
        'squad-1',
        { name: 'court', nodes: [], edges: [] },
        { x: 1 },
        {
          roomDeleteOnUserLeaveEnabled: false,
        },
      ),
    );
    expect(h.createWebCall.mock.calls[0]?.[0]).toEqual({
      assistant,
      assistantOverrides: { variableValues: { a: 1 } },
      squadId: 'squad-1',
      workflow: { name: 'court', nodes: [], edges: [] },
      workflowOverrides: { x: 1 },
      roomDeleteOnUserLeaveEnabled: false,
    });
    await h.call.stop();
  });
});

describe('validation', () => {
  it('rejects a start without assistant, squad or workflow and makes no request', async () => {
    const h = createHarness();
    await expect(h.call.start()).rejects.toThrow(VALIDATION_MESSAGE);
    const error = { type: 'validation-error', message: VALIDATION_MESSAGE };
    expect(h.events).toEqual([
      'progress:validation:failed',
      ['error', error],
      [
        'call-start-failed',
        { stage: 'validation', error, totalDurationMs: 0, timestamp: START_TIME },
      ],
    ]);
    expect(h.createWebCall).not.toHaveBeenCalled();
    expect(h.call.state).toBe('idle');
  });

  it('returns null from a second start while one is in flight, with no second request or call object', async () => {
    const webCall = deferred<WebCall>();
    const h = createHarness();
    h.createWebCall.mockReturnValueOnce(webCall.promise);
    const first = h.call.start('assistant-1');
    await expect(h.call.start('assistant-1')).resolves.toBeNull();
    expect(h.events).toEqual([
      'state:starting',
      'progress:web-call-creation:started',
      'progress:validation:failed',
    ]);
    expect(h.payloads[2]?.[1]).toEqual({
      stage: 'validation',
      status: 'failed',
      timestamp: START_TIME,
      durationMs: 0,
      detail: 'A call is already in progress',
    });
    webCall.resolve(WEB_CALL);
    await h.connect(() => first);
    await expect(h.call.start('assistant-1')).resolves.toBeNull();
    expect(h.createWebCall).toHaveBeenCalledTimes(1);
    expect(h.factory).toHaveBeenCalledTimes(1);
    await h.call.stop();
  });
});

describe('stop and end during a start in flight', () => {
  it('stop while the web call is being created resolves null and creates no call object', async () => {
    const webCall = deferred<WebCall>();
    const h = createHarness();
    h.createWebCall.mockReturnValueOnce(webCall.promise);
    const started = h.call.start('assistant-1');
    await flush();
    await h.call.stop();
    await expect(started).resolves.toBeNull();
    expect(h.createWebCall.mock.calls[0]?.[1]?.signal?.aborted).toBe(true);
    webCall.resolve(WEB_CALL);
    await flush();
    expect(h.factory).not.toHaveBeenCalled();
    expect(h.events).toEqual([
      'state:starting',
      'progress:web-call-creation:started',
      'state:ending',
      'state:idle',
    ]);
  });

  it('stop while the call object is being created destroys it when it arrives, unjoined', async () => {
    const h = createHarness();
    const gate = deferred<void>();
    const create = h.factory.getMockImplementation();
    h.factory.mockImplementationOnce(async (options) => {
      await gate.promise;
      return create!(options);
    });
    const started = h.call.start('assistant-1');
    await flush();
    await h.call.stop();
    await expect(started).resolves.toBeNull();
    gate.resolve();
    await flush();
    const daily = h.daily();
    expect(daily.destroy).toHaveBeenCalledTimes(1);
    expect(daily.join).not.toHaveBeenCalled();
    expect(daily.listenerCount()).toBe(0);
  });

  it('stop while joining destroys the call object and nothing runs after the join settles', async () => {
    const h = createHarness();
    const join = deferred<unknown>();
    h.configureNextDaily((daily) => daily.join.mockReturnValueOnce(join.promise));
    const started = h.call.start('assistant-1');
    await flush();
    const daily = h.daily();
    expect(daily.join).toHaveBeenCalledTimes(1);
    await h.call.stop();
    await expect(started).resolves.toBeNull();
    join.resolve(undefined);
    await flush();
    expect(daily.destroyed).toBe(true);
    expect(daily.startRemoteParticipantsAudioLevelObserver).not.toHaveBeenCalled();
    expect(daily.updateInputSettings).not.toHaveBeenCalled();
  });

  it('stop while waiting for the assistant leaves without call-end or call-start-failed', async () => {
    const h = createHarness();
    const started = h.call.start('assistant-1');
    await flush();
    h.daily().emit('track-started', {
      participant: ASSISTANT,
      track: asMediaStreamTrack(fakeTrack()),
      type: 'audio',
    });
    await flush();
    expect(document.querySelectorAll('audio')).toHaveLength(1);
    await h.call.stop();
    await expect(started).resolves.toBeNull();
    expect(h.events).toContain('progress:assistant-ready:started');
    expect(h.events).not.toContain('progress:assistant-ready:completed');
    expect(h.events.slice(-2)).toEqual(['state:ending', 'state:idle']);
    h.daily().emit('app-message', { data: 'listening', fromId: ASSISTANT.session_id });
    await flush();
    expect(h.events).not.toContain('call-start');
  });

  it('end while the room is being joined cancels the start without sending end-call', async () => {
    const h = createHarness();
    const join = deferred<unknown>();
    h.configureNextDaily((daily) => daily.join.mockReturnValueOnce(join.promise));
    const started = h.call.start('assistant-1');
    await flush();
    await h.call.end();
    join.resolve(undefined);
    await expect(started).resolves.toBeNull();
    expect(h.daily().sentMessages()).toEqual([]);
    expect(h.daily().destroyed).toBe(true);
  });

  it("end after the room is joined but before listening tells the provider (end-call), then destroys: the provider's call would otherwise run on", async () => {
    const h = createHarness();
    const started = h.call.start('assistant-1');
    await flush();
    const daily = h.daily();
    expect(daily.join).toHaveBeenCalledTimes(1);
    expect(h.call.state).toBe('starting');
    await h.call.end();
    await expect(started).resolves.toBeNull();
    expect(daily.sentMessages()).toEqual([{ type: 'end-call' }]);
    const sent = daily.sendAppMessage.mock.invocationCallOrder[0] ?? Infinity;
    expect(sent).toBeLessThan(daily.destroy.mock.invocationCallOrder[0] ?? -1);
  });

  it('stop and end are safe to call twice, and end sends end-call once', async () => {
    const h = createHarness();
    await h.connect();
    const daily = h.daily();
    const first = h.call.end();
    const second = h.call.end();
    await Promise.all([first, second, h.call.stop()]);
    await h.call.stop();
    expect(daily.sentMessages()).toEqual(['playable', { type: 'end-call' }]);
    expect(daily.destroy).toHaveBeenCalledTimes(1);
    expect(h.events.filter((event) => event === 'call-end')).toHaveLength(1);
  });

  it('a new start after a stop gets a fresh call object and a fresh ended-status flag', async () => {
    const h = createHarness();
    await h.connect();
    h.daily(0).emit('app-message', {
      data: JSON.stringify({
        type: 'status-update',
        status: 'ended',
        endedReason: 'assistant-ended-call',
      }),
      fromId: ASSISTANT.session_id,
    });
    await h.call.stop();
    h.clearEvents();
    await h.connect();
    await h.call.stop();
    expect(h.instances).toHaveLength(2);
    expect(h.events.slice(-4)).toEqual(['state:ending', 'call-end', SYNTHETIC_ENDED, 'state:idle']);
  });
});

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

describe('speech and volume', () => {
  it('sums remote levels, caps the volume at 1 and speaks above 0.01', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    const daily = h.daily();
    levels(daily, { a: 0.005, b: 0.005 });
    levels(daily, { a: 0.006, b: 0.006 });
    levels(daily, { a: 0.1, b: 0.2 });
    await h.call.stop();
    expect(h.events.slice(0, 4)).toEqual([
      ['volume-level', { volume: 0.01 / 0.15 }],
      ['volume-level', { volume: 0.012 / 0.15 }],
      'speech-start',
      ['volume-level', { volume: 1 }],
    ]);
  });

  it('ends speech 1000 ms after the last speaking sample, restarting on each one', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    const daily = h.daily();
    levels(daily, { a: 0.1 });
    await vi.advanceTimersByTimeAsync(600);
    levels(daily, { a: 0.1 });
    await vi.advanceTimersByTimeAsync(999);
    expect(h.events).not.toContain('speech-end');
    await vi.advanceTimersByTimeAsync(1);
    expect(h.events.filter((event) => typeof event === 'string')).toEqual([
      'speech-start',
      'speech-end',
    ]);
    await h.call.stop();
  });

  it('never emits speech-end after stop', async () => {
    const h = createHarness();
    await h.connect();
    levels(h.daily(), { a: 0.1 });
    await h.call.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(h.events).not.toContain('speech-end');
  });
});

describe('assistant audio', () => {
  it('plays only the Vapi Speaker audio, tagged with its session id, then sends playable', async () => {
    const h = createHarness();
    const started = h.call.start('assistant-1');
    await flush();
    const daily = h.daily();
    const other = { session_id: 'other-1', user_name: 'someone', local: false };
    daily.emit('track-started', {
      participant: other,
      track: asMediaStreamTrack(fakeTrack()),
      type: 'audio',
    });
    daily.emit('track-started', {
      participant: VISITOR,
      track: asMediaStreamTrack(fakeTrack()),
      type: 'audio',
    });
    daily.emit('track-started', {
      participant: null,
      track: asMediaStreamTrack(fakeTrack()),
      type: 'audio',
    });
    expect(document.querySelectorAll('audio')).toHaveLength(0);

    const pending = deferred<void>();
    play.mockReturnValueOnce(pending.promise);
    const track = asMediaStreamTrack(fakeTrack());
    daily.emit('track-started', { participant: ASSISTANT, track, type: 'audio' });
    const audio = document.querySelector('audio');
    expect(audio?.dataset.participantId).toBe(ASSISTANT.session_id);
    expect((audio?.srcObject as unknown as FakeMediaStream).getTracks()).toEqual([track]);
    await flush();
    expect(daily.sentMessages()).toEqual([]);
    pending.resolve();
    await flush();
    expect(daily.sentMessages()).toEqual(['playable']);

    daily.emit('participant-left', { participant: ASSISTANT });
    expect(document.querySelectorAll('audio')).toHaveLength(0);
    await h.call.stop();
    await started;
  });

  it('hands the assistant video track to listeners and subscribes to video for tavus voices', async () => {
    const h = createHarness();
    h.createWebCall.mockResolvedValueOnce({
      ...WEB_CALL,
      assistant: { voice: { provider: 'tavus' } },
    });
    await h.connect();
    const daily = h.daily();
    expect(daily.updateParticipant).toHaveBeenCalledWith(ASSISTANT.session_id, {
      setSubscribedTracks: { audio: true, video: true },
    });
    const track = asMediaStreamTrack(fakeTrack('video'));
    daily.emit('track-started', { participant: ASSISTANT, track, type: 'video' });
    expect(h.payloads.at(-1)).toEqual(['video', { track, participantId: ASSISTANT.session_id }]);
    daily.emit('participant-joined', { participant: VISITOR });
    expect(daily.updateParticipant).toHaveBeenCalledTimes(1);
    await h.call.stop();
  });

  it('reports blocked autoplay, pauses the start timeout, and retries on the next gesture', async () => {
    const h = createHarness({ startTimeoutMs: 5000 });
    play.mockRejectedValueOnce(new DOMException('play() needs a gesture', 'NotAllowedError'));
    const started = h.call.start('assistant-1');
    await flush();
    const daily = h.daily();
    daily.emit('track-started', {
      participant: ASSISTANT,
      track: asMediaStreamTrack(fakeTrack()),
      type: 'audio',
    });
    await flush();
    expect(h.payloads.at(-1)).toEqual([
      'error',
      {
        type: 'audio-playback-blocked',
        participantId: ASSISTANT.session_id,
        message: 'play() needs a gesture',
        cause: expect.any(DOMException),
      },
    ]);
    expect(daily.sentMessages()).toEqual([]);
    expect(h.call.getResourceCounts().gestureListeners).toBe(2);

    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.call.state).toBe('starting');

    window.dispatchEvent(new Event('pointerdown'));
    await flush();
    expect(play).toHaveBeenCalledTimes(2);
    expect(h.events.at(-1)).toBe('audio-playback-resumed');
    expect(daily.sentMessages()).toEqual(['playable']);
    expect(h.call.getResourceCounts().gestureListeners).toBe(0);

    daily.emit('app-message', { data: 'listening', fromId: ASSISTANT.session_id });
    await expect(started).resolves.toBe(WEB_CALL);
    await h.call.stop();
  });

  it('resumeAudio() retries from a UI click and tells whether audio plays', async () => {
    const h = createHarness();
    await h.connect();
    play.mockRejectedValueOnce(new DOMException('blocked', 'NotAllowedError'));
    const daily = h.daily();
    daily.emit('track-started', {
      participant: ASSISTANT,
      track: asMediaStreamTrack(fakeTrack()),
      type: 'audio',
    });
    await flush();
    play.mockRejectedValueOnce(new DOMException('still blocked', 'NotAllowedError'));
    await expect(h.call.resumeAudio()).resolves.toBe(false);
    expect(h.payloads.filter(([name]) => name === 'error')).toHaveLength(1);
    await expect(h.call.resumeAudio()).resolves.toBe(true);
    expect(h.events.at(-1)).toBe('audio-playback-resumed');
    await h.call.stop();
  });

  it('teardown removes the gesture listeners of audio still blocked', async () => {
    const h = createHarness();
    const add = vi.spyOn(window, 'addEventListener');
    const remove = vi.spyOn(window, 'removeEventListener');
    await h.connect();
    play.mockRejectedValueOnce(new DOMException('blocked', 'NotAllowedError'));
    h.daily().emit('track-started', {
      participant: ASSISTANT,
      track: asMediaStreamTrack(fakeTrack()),
      type: 'audio',
    });
    await flush();
    await h.call.stop();
    const added = add.mock.calls.filter(([type]) => type === 'pointerdown' || type === 'keydown');
    const removed = remove.mock.calls.filter(
      ([type]) => type === 'pointerdown' || type === 'keydown',
    );
    expect(added).toHaveLength(2);
    expect(removed).toEqual(added);
    window.dispatchEvent(new Event('pointerdown'));
    expect(play).toHaveBeenCalledTimes(2);
  });
});

describe('server messages', () => {
  it('turns JSON app messages into message events and ignores malformed ones', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    const daily = h.daily();
    const transcript = {
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'Ribbit.',
    };
    const fromId = ASSISTANT.session_id;
    daily.emit('app-message', { data: '{not json', fromId });
    daily.emit('app-message', { data: '42', fromId });
    daily.emit('app-message', { data: JSON.stringify(transcript), fromId });
    await h.call.stop();
    expect(h.events).toEqual([
      ['message', transcript],
      'state:ending',
      'call-end',
      SYNTHETIC_ENDED,
      'state:idle',
    ]);
    expect(h.logger.warn).toHaveBeenCalledTimes(2);
    expect(h.logger.warn).toHaveBeenCalledWith(expect.any(String), '{not json');
  });

  it('on left-meeting: call-end and exactly one synthetic ended status', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    h.daily().emit('left-meeting', { action: 'left-meeting' });
    h.daily().emit('left-meeting', { action: 'left-meeting' });
    await flush();
    expect(h.events).toEqual(['state:ending', 'call-end', SYNTHETIC_ENDED, 'state:idle']);
  });

  it('no synthetic ended status when the server already sent one', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    const ended = { type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' };
    h.daily().emit('app-message', { data: JSON.stringify(ended), fromId: ASSISTANT.session_id });
    h.daily().emit('left-meeting', { action: 'left-meeting' });
    await flush();
    expect(h.events).toEqual([['message', ended], 'state:ending', 'call-end', 'state:idle']);
  });

  it('a fatal Daily error (ejection) reports daily-error and ends the call', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    h.daily().emit('error', {
      errorMsg: 'You were ejected',
      error: { type: 'ejected', msg: 'ejected' },
    });
    h.daily().emit('left-meeting', { action: 'left-meeting' });
    await flush();
    expect(h.events).toEqual([
      [
        'error',
        {
          type: 'daily-error',
          dailyErrorType: 'ejected',
          message: 'You were ejected',
          cause: { type: 'ejected', msg: 'ejected' },
        },
      ],
      'state:ending',
      'call-end',
      SYNTHETIC_ENDED,
      'state:idle',
    ]);
  });

  it.each([
    ['ejected', 'You were ejected'],
    ['exp-room', 'Meeting has ended'],
  ])(
    "after the server's ended status, Daily's fatal %s error is the room closing: an ordinary end, no error",
    async (type, errorMsg) => {
      const h = createHarness();
      await h.connect();
      h.clearEvents();
      const ended = { type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' };
      h.daily().emit('app-message', { data: JSON.stringify(ended), fromId: ASSISTANT.session_id });
      h.daily().emit('error', { errorMsg, error: { type, msg: errorMsg } });
      h.daily().emit('left-meeting', { action: 'left-meeting' });
      await flush();
      expect(h.events).toEqual([['message', ended], 'state:ending', 'call-end', 'state:idle']);
      expect(h.daily().destroyed).toBe(true);
    },
  );

  it("after the server's ended status, a fatal error with no left-meeting still ends the call quietly", async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    const ended = { type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' };
    h.daily().emit('app-message', { data: JSON.stringify(ended), fromId: ASSISTANT.session_id });
    h.daily().emit('error', { errorMsg: 'Ejected', error: { type: 'ejected', msg: 'Ejected' } });
    await flush();
    expect(h.events).toEqual([['message', ended], 'state:ending', 'call-end', 'state:idle']);
  });

  it('forwards network and participant events as small types', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    const daily = h.daily();
    daily.emit('network-quality-change', {
      networkState: 'warning',
      networkStateReasons: ['sendPacketLoss'],
    });
    daily.emit('network-connection', { type: 'signaling', event: 'interrupted' });
    daily.emit('participant-updated', {
      participant: {
        ...ASSISTANT,
        tracks: { audio: { state: 'playable' }, video: { state: 'off' } },
      },
    });
    daily.emit('camera-error', {
      errorMsg: { errorMsg: 'cam in use' },
      error: { type: 'cam-in-use', msg: 'cam in use' },
    });
    await h.call.stop();
    expect(h.events.slice(0, 5)).toEqual([
      ['network-quality-change', { state: 'warning', reasons: ['sendPacketLoss'] }],
      ['network-connection', { connectionType: 'signaling', event: 'interrupted' }],
      // A dropped connection during a call: the call is reconnecting.
      'state:reconnecting',
      [
        'daily-participant-updated',
        {
          sessionId: 'assistant-1',
          userName: 'Vapi Speaker',
          local: false,
          audioState: 'playable',
          videoState: 'off',
        },
      ],
      ['camera-error', { errorType: 'cam-in-use', message: 'cam in use', blockedMedia: undefined }],
    ]);
  });
});

describe('video recording', () => {
  it('records 1280x720 with the default layout and sends say-first-message with the measured delay', async () => {
    const h = createHarness();
    h.createWebCall.mockResolvedValueOnce({
      ...WEB_CALL,
      artifactPlan: { videoRecordingEnabled: true },
    });
    await h.connect();
    const daily = h.daily();
    expect(h.factory).toHaveBeenCalledWith({
      audioSource: true,
      videoSource: true,
      dailyConfig: {},
    });
    expect(daily.startRecording).toHaveBeenCalledWith({
      width: 1280,
      height: 720,
      layout: { preset: 'default' },
    });
    expect(daily.updateParticipant).toHaveBeenCalledWith(ASSISTANT.session_id, {
      setSubscribedTracks: { audio: true, video: true },
    });
    await vi.advanceTimersByTimeAsync(1500);
    daily.emit('recording-started', { action: 'recording-started' });
    expect(daily.sentMessages()).toEqual([
      'playable',
      { type: 'control', control: 'say-first-message', videoRecordingStartDelaySeconds: 1.5 },
    ]);
    await h.call.stop();
    expect(daily.stopRecording).toHaveBeenCalledTimes(1);
    expect(daily.stopRecording.mock.invocationCallOrder[0]).toBeLessThan(
      daily.destroy.mock.invocationCallOrder[0]!,
    );
  });
});

describe('audio settings', () => {
  it('turns the processor off and re-enables local audio on a nonfatal audio-processor error', async () => {
    const h = createHarness();
    await h.connect();
    const daily = h.daily();
    daily.emit('nonfatal-error', { type: 'audio-processor-error', errorMsg: 'krisp failed' });
    await flush();
    expect(daily.updateInputSettings).toHaveBeenLastCalledWith({
      audio: { processor: { type: 'none' } },
    });
    expect(daily.setLocalAudio).toHaveBeenCalledWith(true);
    expect(daily.updateInputSettings.mock.invocationCallOrder.at(-1)).toBeLessThan(
      daily.setLocalAudio.mock.invocationCallOrder[0]!,
    );
    daily.emit('nonfatal-error', { type: 'input-settings-error', errorMsg: 'other' });
    await flush();
    expect(daily.setLocalAudio).toHaveBeenCalledTimes(1);
    await h.call.stop();
  });

  it("observes the visitor's level only once noise cancellation has settled: Daily stops a level observer when the input processor changes", async () => {
    const h = createHarness();
    const settled = deferred<unknown>();
    h.configureNextDaily((daily) => daily.updateInputSettings.mockReturnValueOnce(settled.promise));
    const started = h.connect();
    await flush();
    const daily = h.daily();
    expect(daily.updateInputSettings).toHaveBeenCalledTimes(1);
    expect(daily.startRemoteParticipantsAudioLevelObserver).toHaveBeenCalledWith(100);
    expect(daily.startLocalAudioLevelObserver).not.toHaveBeenCalled();
    settled.resolve(undefined);
    await started;
    expect(daily.startLocalAudioLevelObserver).toHaveBeenCalledWith(100);
    expect(daily.updateInputSettings.mock.invocationCallOrder[0]).toBeLessThan(
      daily.startLocalAudioLevelObserver.mock.invocationCallOrder[0]!,
    );
    await h.call.stop();
  });

  it("observes the visitor's level after a failed noise cancellation too, and reports a failed local observer as audio-observer-setup-error", async () => {
    const h = createHarness();
    h.configureNextDaily((daily) => {
      daily.updateInputSettings.mockRejectedValueOnce(new Error('no processor'));
      daily.startLocalAudioLevelObserver.mockRejectedValueOnce(new Error('worklet aborted'));
    });
    await expect(h.connect()).resolves.toMatchObject({ id: 'call-1' });
    expect(h.daily().startLocalAudioLevelObserver).toHaveBeenCalledWith(100);
    const errors = h.payloads.filter(([name]) => name === 'error').map(([, error]) => error);
    expect(errors).toHaveLength(2);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'audio-processing-setup-error', message: 'no processor' }),
        expect.objectContaining({ type: 'audio-observer-setup-error', message: 'worklet aborted' }),
      ]),
    );
    expect(h.call.state).toBe('started');
    await h.call.stop();
  });

  it('mutes with setLocalAudio(!muted) and no forced track discard', async () => {
    const h = createHarness();
    await h.connect();
    const daily = h.daily();
    h.call.setMuted(true);
    expect(daily.setLocalAudio).toHaveBeenLastCalledWith(false);
    expect(daily.setLocalAudio.mock.calls.at(-1)).toHaveLength(1);
    expect(h.call.isMuted()).toBe(true);
    h.call.setMuted(false);
    expect(h.call.isMuted()).toBe(false);
    await h.call.stop();
  });

  it('fails audio operations without a call object', async () => {
    const h = createHarness();
    expect(() => h.call.setMuted(true)).toThrow(CALL_OBJECT_UNAVAILABLE_MESSAGE);
    expect(() => h.call.isMuted()).toThrow(CALL_OBJECT_UNAVAILABLE_MESSAGE);
    expect(() => h.call.say('hi')).toThrow(CALL_OBJECT_UNAVAILABLE_MESSAGE);
    await expect(h.call.setInputDevicesAsync({ audioDeviceId: 'mic' })).rejects.toThrow(
      CALL_OBJECT_UNAVAILABLE_MESSAGE,
    );
    await expect(h.call.setOutputDeviceAsync({ outputDeviceId: 'spk' })).rejects.toThrow(
      CALL_OBJECT_UNAVAILABLE_MESSAGE,
    );
  });

  it('drops audioSource: false from a device change', async () => {
    const h = createHarness();
    await h.connect();
    await h.call.setInputDevicesAsync({ audioDeviceId: 'mic-2', audioSource: false });
    expect(h.daily().setInputDevicesAsync).toHaveBeenCalledWith({ audioDeviceId: 'mic-2' });
    await h.call.stop();
  });

  it('routes the assistant audio to the chosen speaker', async () => {
    const h = createHarness();
    await h.connect();
    const setSinkId = vi.fn(async (_id: string) => undefined);
    const audio = document.querySelector('audio')!;
    Object.assign(audio, { setSinkId });
    await h.call.setOutputDeviceAsync({ outputDeviceId: 'speaker-2' });
    expect(h.daily().setOutputDeviceAsync).toHaveBeenCalledWith({ outputDeviceId: 'speaker-2' });
    expect(setSinkId).toHaveBeenCalledWith('speaker-2');
    await h.call.stop();
  });

  it('removes alwaysIncludeMicInPermissionPrompt: false and keeps explicit sources', async () => {
    const track = asMediaStreamTrack(fakeTrack());
    const h = createHarness({
      dailyConfig: { alwaysIncludeMicInPermissionPrompt: false, micAudioMode: 'speech' },
      callObject: { audioSource: track },
    });
    await h.connect();
    expect(h.factory).toHaveBeenCalledWith({
      audioSource: track,
      videoSource: false,
      dailyConfig: { micAudioMode: 'speech' },
    });
    await h.call.stop();
  });
});

describe('messages the page sends', () => {
  it('serialises say with interruption flags defaulting to false', async () => {
    const h = createHarness();
    await h.connect();
    h.call.say('Hello frog');
    h.call.say('Bye', true, true, true);
    h.call.send({ type: 'control', control: 'mute-assistant' });
    expect(h.daily().sentMessages().slice(1)).toEqual([
      {
        type: 'say',
        message: 'Hello frog',
        interruptionsEnabled: false,
        interruptAssistantEnabled: false,
      },
      {
        type: 'say',
        message: 'Bye',
        endCallAfterSpoken: true,
        interruptionsEnabled: true,
        interruptAssistantEnabled: true,
      },
      { type: 'control', control: 'mute-assistant' },
    ]);
    await h.call.stop();
  });
});

describe('reconnect', () => {
  it('throws while a call is in progress', async () => {
    const h = createHarness();
    await h.connect();
    await expect(h.call.reconnect(WEB_CALL)).rejects.toThrow(/in progress/);
    await h.call.stop();
  });

  it('requires a webCallUrl', async () => {
    const h = createHarness();
    await expect(h.call.reconnect({ ...WEB_CALL, webCallUrl: undefined })).rejects.toThrow(
      RECONNECT_URL_MESSAGE,
    );
    expect(h.events).toEqual([
      ['error', { type: 'reconnect-error', message: RECONNECT_URL_MESSAGE }],
    ]);
  });

  it('joins the existing room again without creating a web call', async () => {
    const h = createHarness();
    await expect(h.connect(() => h.call.reconnect(WEB_CALL))).resolves.toBe(WEB_CALL);
    expect(h.createWebCall).not.toHaveBeenCalled();
    expect(h.daily().join).toHaveBeenCalledWith({
      url: WEB_CALL.webCallUrl,
      subscribeToTracksAutomatically: false,
    });
    expect(h.events[1]).toBe('progress:call-object-creation:started');
    await h.call.stop();
  });
});

describe('listeners', () => {
  it('a listener that throws does not break the call or the other listeners', async () => {
    const h = createHarness();
    const boom = new Error('listener bug');
    h.call.on('call-start', () => {
      throw boom;
    });
    const seen: string[] = [];
    const unsubscribe = h.call.on('call-start', () => seen.push('second'));
    await expect(h.connect()).resolves.toBe(WEB_CALL);
    expect(seen).toEqual(['second']);
    expect(h.logger.error).toHaveBeenCalledWith('A "call-start" listener threw', boom);
    unsubscribe();
    await h.call.stop();
  });

  it('once() hears one event only, and unsubscribing stops delivery', async () => {
    const h = createHarness();
    const states: string[] = [];
    h.call.once('state-change', ({ state }) => states.push(state));
    const off = h.call.on('state-change', ({ state }) => states.push(`on:${state}`));
    await h.connect();
    off();
    await h.call.stop();
    expect(states).toEqual(['starting', 'on:starting', 'on:started']);
  });

  it('counts the resources it holds during a call', async () => {
    const h = createHarness();
    await h.connect();
    levels(h.daily(), { a: 0.5 });
    expect(h.call.getResourceCounts()).toEqual({
      audioElements: 1,
      timers: 1,
      dailyListeners: 15,
      gestureListeners: 0,
    });
    expect(h.daily().listenerCount()).toBe(15);
    await h.call.stop();
  });

  it('holds nothing more after 50 start and stop cycles', async () => {
    const h = createHarness();
    for (let cycle = 0; cycle < 50; cycle += 1) {
      await h.connect();
      levels(h.daily(cycle), { a: 0.5 });
      if (cycle % 2 === 0) await h.call.stop();
      else await h.call.end();
      expect(h.call.getResourceCounts()).toEqual({
        audioElements: 0,
        timers: 0,
        dailyListeners: 0,
        gestureListeners: 0,
      });
    }
    expect(h.instances).toHaveLength(50);
    expect(h.instances.every((daily) => daily.destroyed && daily.listenerCount() === 0)).toBe(true);
    expect(h.events.filter((event) => event === 'call-start')).toHaveLength(50);
    expect(h.events.filter((event) => event === 'call-end')).toHaveLength(50);
  });
});
