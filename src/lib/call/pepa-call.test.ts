/** The call object: a happy call, what it refuses, and stopping or ending a start in flight. */
import { describe, expect, it, vi } from 'vitest';
import { VALIDATION_MESSAGE, type WebCall } from './pepa-call';
import {
  HAPPY_START,
  START_TIME,
  SYNTHETIC_ENDED,
  WEB_CALL,
  createHarness,
  deferred,
  flush,
} from './test/call-harness';
import { ASSISTANT, asMediaStreamTrack, fakeTrack } from './test/fake-daily';
import { levels, setUpCallTests } from './test/call-test-setup';

setUpCallTests();

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
