/** The call object: speech and volume, the assistant's audio, and the server's messages. */
import { describe, expect, it, vi } from 'vitest';
import { SYNTHETIC_ENDED, WEB_CALL, createHarness, deferred, flush } from './test/call-harness';
import type { FakeMediaStream } from './test/fake-daily';
import { ASSISTANT, VISITOR, asMediaStreamTrack, fakeTrack } from './test/fake-daily';
import { levels, setUpCallTests } from './test/call-test-setup';

const play = setUpCallTests();

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
    play().mockReturnValueOnce(pending.promise);
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
    play().mockRejectedValueOnce(new DOMException('play() needs a gesture', 'NotAllowedError'));
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
    expect(play()).toHaveBeenCalledTimes(2);
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
    play().mockRejectedValueOnce(new DOMException('blocked', 'NotAllowedError'));
    const daily = h.daily();
    daily.emit('track-started', {
      participant: ASSISTANT,
      track: asMediaStreamTrack(fakeTrack()),
      type: 'audio',
    });
    await flush();
    play().mockRejectedValueOnce(new DOMException('still blocked', 'NotAllowedError'));
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
    play().mockRejectedValueOnce(new DOMException('blocked', 'NotAllowedError'));
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
    expect(play()).toHaveBeenCalledTimes(2);
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
