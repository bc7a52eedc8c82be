/** The call object: a recorded call, the audio settings, what the page sends, reconnecting, and its listeners. */
import { describe, expect, it, vi } from 'vitest';
import { CALL_OBJECT_UNAVAILABLE_MESSAGE, RECONNECT_URL_MESSAGE } from './pepa-call';
import { WEB_CALL, createHarness, deferred, flush } from './test/call-harness';
import { ASSISTANT, asMediaStreamTrack, fakeTrack } from './test/fake-daily';
import { levels, setUpCallTests } from './test/call-test-setup';

setUpCallTests();

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
