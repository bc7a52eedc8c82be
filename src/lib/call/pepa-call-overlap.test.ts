import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebCall } from './pepa-call';
import {
  START_TIME,
  WEB_CALL,
  createHarness,
  deferred,
  expectNothingLeft,
  flush,
} from './test/call-harness';
import {
  ASSISTANT,
  FakeMediaStream,
  asMediaStreamTrack,
  fakeTrack,
  type FakeTrack,
} from './test/fake-daily';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START_TIME);
  vi.stubGlobal('MediaStream', FakeMediaStream);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});

afterEach(async () => {
  await expectNothingLeft();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A microphone whose answer the test gives, and every track it handed out. */
function controlledMicrophone() {
  const pending: Array<ReturnType<typeof deferred<MediaStream>>> = [];
  const tracks: FakeTrack[] = [];
  const open = vi.fn((_constraints: MediaStreamConstraints) => {
    const answer = deferred<MediaStream>();
    pending.push(answer);
    return answer.promise;
  });
  return {
    open,
    tracks,
    /** Grants the oldest request still pending a fresh track. */
    grant() {
      const track = fakeTrack('audio', `microphone-${tracks.length + 1}`);
      tracks.push(track);
      pending.shift()?.resolve(new FakeMediaStream([asMediaStreamTrack(track)]) as never);
      return track;
    },
    deny(name = 'NotAllowedError') {
      pending.shift()?.reject(new DOMException('Permission denied', name));
    },
    live: () => tracks.filter((track) => track.readyState === 'live').length,
  };
}

/** A call request the test answers, with the signal it was given. */
function controlledRequest() {
  const answer = deferred<WebCall>();
  let signal: AbortSignal | null = null;
  const request = vi.fn((given: AbortSignal) => {
    signal = given;
    return answer.promise;
  });
  return { request, answer, aborted: () => signal?.aborted ?? false };
}

/** Plays the assistant joining and saying `listening` in the newest room. */
async function assistantListens(h: ReturnType<typeof createHarness>) {
  const room = h.instances[h.instances.length - 1]!;
  room.emit('participant-joined', { participant: ASSISTANT });
  room.emit('track-started', {
    participant: ASSISTANT,
    track: asMediaStreamTrack(fakeTrack('audio', 'pepa')),
    type: 'audio',
  });
  await flush();
  room.emit('app-message', { data: 'listening', fromId: ASSISTANT.session_id });
  await flush();
}

describe('an overlapped start', () => {
  it('asks for the microphone at the tap, while the call request is still out', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open });
    const call = controlledRequest();
    void h.call.startWith(call.request);
    await flush();
    expect(call.request).toHaveBeenCalledTimes(1);
    expect(microphone.open).toHaveBeenCalledTimes(1);
    expect(microphone.open).toHaveBeenCalledWith({ audio: true });
    await h.call.stop();
    // Granted after the stop: released at once, never used.
    const late = microphone.grant();
    await flush();
    expect(late.readyState).toBe('ended');
    expect(call.aborted()).toBe(true);
  });

  it('hands the track it opened to the call object: one microphone, one prompt', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open });
    const call = controlledRequest();
    const outcome = h.call.startWith(call.request);
    await flush();
    const track = microphone.grant();
    call.answer.resolve(WEB_CALL);
    await flush();
    expect(h.factory).toHaveBeenCalledTimes(1);
    expect(h.daily().options.audioSource).toBe(track);
    await assistantListens(h);
    await expect(outcome).resolves.toMatchObject({ status: 'started' });
    expect(microphone.open).toHaveBeenCalledTimes(1);
    expect(track.readyState).toBe('live');
    await h.call.stop();
    expect(track.readyState).toBe('ended');
  });

  it('on a phone joins when the last of the room URL, the microphone and the wait is there', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open, userAgent: IPHONE_UA });
    const call = controlledRequest();
    void h.call.startWith(call.request);
    await flush();
    // The request is answered after 1200 ms: the phone's wait (1000 ms from the tap) is over.
    await vi.advanceTimersByTimeAsync(1200);
    call.answer.resolve(WEB_CALL);
    await flush();
    expect(h.instances).toHaveLength(0);
    // The microphone comes last (a slow prompt): the join follows it at once.
    await vi.advanceTimersByTimeAsync(300);
    microphone.grant();
    await flush();
    expect(h.daily().join).toHaveBeenCalledTimes(1);
    expect(Date.now() - START_TIME).toBe(1500);
    await h.call.stop();
  });

  it('on a phone, a quick request still waits out the 1000 ms from the tap', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open, userAgent: IPHONE_UA });
    const call = controlledRequest();
    void h.call.startWith(call.request);
    await flush();
    microphone.grant();
    await vi.advanceTimersByTimeAsync(400);
    call.answer.resolve(WEB_CALL);
    await vi.advanceTimersByTimeAsync(599);
    expect(h.instances).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.daily().join).toHaveBeenCalledTimes(1);
    await h.call.stop();
  });

  it('a refused microphone ends the start at once: the request is aborted, no room is made', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open });
    const call = controlledRequest();
    const outcome = h.call.startWith(call.request);
    await flush();
    microphone.deny();
    await flush();
    const result = await outcome;
    expect(result.status).toBe('failed');
    expect(result.status === 'failed' && result.error.cause.type).toBe(
      'microphone-permission-denied',
    );
    expect(call.aborted()).toBe(true);
    // The gate answers anyway: nothing is joined.
    call.answer.resolve(WEB_CALL);
    await flush();
    expect(h.instances).toHaveLength(0);
  });

  it('a refused request (the line, the limits, a closed court) releases the microphone at once', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open });
    const call = controlledRequest();
    const outcome = h.call.startWith(call.request);
    await flush();
    const track = microphone.grant();
    await flush();
    call.answer.reject(new Error('court-closed'));
    await expect(outcome).resolves.toMatchObject({ status: 'failed' });
    expect(track.readyState).toBe('ended');
    expect(microphone.live()).toBe(0);
  });

  it('End Call while the microphone and the request are both pending leaves nothing behind', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open, userAgent: IPHONE_UA });
    const call = controlledRequest();
    void h.call.startWith(call.request);
    await flush();
    await h.call.end();
    expect(call.aborted()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    // Both answer after the end, in either order: nothing is kept, nothing joins.
    call.answer.resolve(WEB_CALL);
    microphone.grant();
    await vi.advanceTimersByTimeAsync(2000);
    expect(microphone.live()).toBe(0);
    expect(h.instances).toHaveLength(0);
  });

  it('End Call during the join releases the microphone and destroys the room', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open });
    const joined = deferred<unknown>();
    h.configureNextDaily((daily) => daily.join.mockReturnValueOnce(joined.promise));
    void h.call.startWith(async () => WEB_CALL);
    await flush();
    const track = microphone.grant();
    await flush();
    expect(h.daily().join).toHaveBeenCalledTimes(1);
    await h.call.end();
    expect(track.readyState).toBe('ended');
    expect(h.daily().destroyed).toBe(true);
    joined.resolve(undefined);
    await flush();
  });

  it("Pepa listening is not held back by noise cancellation; the microphone's observer waits for it", async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open });
    const noiseCancellation = deferred<unknown>();
    h.configureNextDaily((daily) =>
      daily.updateInputSettings.mockReturnValueOnce(noiseCancellation.promise),
    );
    const outcome = h.call.startWith(async () => WEB_CALL);
    await flush();
    microphone.grant();
    await flush();
    await assistantListens(h);
    await expect(outcome).resolves.toMatchObject({ status: 'started' });
    const daily = h.daily();
    expect(daily.startRemoteParticipantsAudioLevelObserver).toHaveBeenCalledTimes(1);
    expect(daily.updateInputSettings).toHaveBeenCalledTimes(1);
    expect(daily.startLocalAudioLevelObserver).not.toHaveBeenCalled();
    noiseCancellation.resolve({});
    await flush();
    expect(daily.startLocalAudioLevelObserver).toHaveBeenCalledTimes(1);
    await h.call.stop();
  });

  it('a microphone switched in the call lets the track the start opened go', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open });
    const outcome = h.call.startWith(async () => WEB_CALL);
    await flush();
    const track = microphone.grant();
    await flush();
    await assistantListens(h);
    await outcome;
    h.daily().setInputDevicesAsync.mockResolvedValueOnce({ mic: { deviceId: 'usb-mic' } });
    await h.call.setInputDevicesAsync({ audioDeviceId: 'usb-mic' });
    expect(track.readyState).toBe('ended');
    await h.call.stop();
  });

  it('every start opens the microphone: no call joins listening only', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({ openMicrophone: microphone.open });
    // What the dropped typing-only call once passed: nothing reads it now.
    const listenOnly = { microphone: false, unjoined: vi.fn() };
    void h.call.startWith(async () => WEB_CALL, listenOnly);
    await flush();
    expect(microphone.open).toHaveBeenCalledTimes(1);
    const track = microphone.grant();
    await flush();
    expect(h.daily().options.audioSource).toBe(track);
    await h.call.stop();
  });
});

describe('a sequential start (the provider client’s order, for measuring)', () => {
  it('runs each stage after the last and leaves the microphone to the join', async () => {
    const microphone = controlledMicrophone();
    const h = createHarness({
      openMicrophone: microphone.open,
      userAgent: IPHONE_UA,
      startOrder: 'sequential',
    });
    const call = controlledRequest();
    void h.call.startWith(call.request);
    await flush();
    await vi.advanceTimersByTimeAsync(1200);
    call.answer.resolve(WEB_CALL);
    await flush();
    // The phone's wait starts only now, after the call object.
    expect(h.daily().join).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(999);
    expect(h.daily().join).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.daily().join).toHaveBeenCalledTimes(1);
    expect(microphone.open).not.toHaveBeenCalled();
    expect(h.daily().options.audioSource).toBe(true);
    await h.call.stop();
  });
});
