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
import { ASSISTANT, FakeMediaStream, asMediaStreamTrack, fakeTrack } from './test/fake-daily';

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

/** A microphone the test grants or refuses. */
function microphone() {
  const answers: Array<ReturnType<typeof deferred<MediaStream>>> = [];
  const open = vi.fn(() => {
    const answer = deferred<MediaStream>();
    answers.push(answer);
    return answer.promise;
  });
  return {
    open,
    grant() {
      const track = fakeTrack('audio', 'microphone');
      answers.shift()?.resolve(new FakeMediaStream([asMediaStreamTrack(track)]) as never);
      return track;
    },
    refuse() {
      answers.shift()?.reject(new DOMException('Permission denied', 'NotAllowedError'));
    },
  };
}

/** A call request the test answers. */
function request() {
  const answer = deferred<WebCall>();
  const send = vi.fn((_signal: AbortSignal) => answer.promise);
  return { send, answer };
}

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

describe('the microphone before the place', () => {
  it('sends no call request when the browser already says the microphone is denied', async () => {
    const mic = microphone();
    const h = createHarness({
      openMicrophone: mic.open,
      microphonePermission: () => Promise.resolve('denied'),
    });
    const call = request();
    const unjoined = vi.fn();
    const outcome = h.call.startWith(call.send, { unjoined });
    mic.refuse();
    await flush();
    const ended = await outcome;
    expect(ended.status).toBe('failed');
    expect(ended.status === 'failed' && ended.error.stage).toBe('join');
    expect(call.send).not.toHaveBeenCalled();
    expect(unjoined).not.toHaveBeenCalled();
    expect(h.call.state).toBe('idle');
  });

  it('sends no call request when the microphone is refused before the permission answer', async () => {
    const mic = microphone();
    const permission = deferred<PermissionState | null>();
    const h = createHarness({
      openMicrophone: mic.open,
      microphonePermission: () => permission.promise,
    });
    const call = request();
    const outcome = h.call.startWith(call.send);
    mic.refuse();
    await flush();
    permission.resolve('prompt');
    await flush();
    await expect(outcome).resolves.toMatchObject({ status: 'failed' });
    expect(call.send).not.toHaveBeenCalled();
  });

  it('gives the web call back at once when the microphone is refused after the admission', async () => {
    const mic = microphone();
    const h = createHarness({ openMicrophone: mic.open, microphonePermission: null });
    const call = request();
    const unjoined = vi.fn();
    const outcome = h.call.startWith(call.send, { unjoined });
    await flush();
    expect(call.send).toHaveBeenCalledTimes(1);
    call.answer.resolve(WEB_CALL);
    await flush();
    expect(unjoined).not.toHaveBeenCalled();
    mic.refuse();
    await flush();
    await expect(outcome).resolves.toMatchObject({ status: 'failed' });
    expect(unjoined).toHaveBeenCalledTimes(1);
    expect(unjoined).toHaveBeenCalledWith(WEB_CALL);
    expect(h.factory).not.toHaveBeenCalled();
  });

  it('gives back nothing it was never given: a refusal with the request still out leaves it to the request', async () => {
    const mic = microphone();
    const h = createHarness({ openMicrophone: mic.open, microphonePermission: null });
    const call = request();
    const unjoined = vi.fn();
    const outcome = h.call.startWith(call.send, { unjoined });
    await flush();
    mic.refuse();
    await flush();
    await expect(outcome).resolves.toMatchObject({ status: 'failed' });
    // The request was told to stop (its signal), and gives back what it is answered itself.
    expect(call.send.mock.calls[0]?.[0].aborted).toBe(true);
    call.answer.resolve(WEB_CALL);
    await flush();
    expect(unjoined).not.toHaveBeenCalled();
  });

  it('keeps the overlap when the microphone is allowed: the request and the prompt both go at the tap', async () => {
    const mic = microphone();
    const h = createHarness({
      openMicrophone: mic.open,
      microphonePermission: () => Promise.resolve('granted'),
    });
    const call = request();
    const unjoined = vi.fn();
    const outcome = h.call.startWith(call.send, { unjoined });
    await flush();
    expect(mic.open).toHaveBeenCalledTimes(1);
    expect(call.send).toHaveBeenCalledTimes(1);
    // The request went out before the microphone answered.
    const track = mic.grant();
    call.answer.resolve(WEB_CALL);
    await flush();
    expect(h.daily().options.audioSource).toBe(track);
    await assistantListens(h);
    await expect(outcome).resolves.toMatchObject({ status: 'started' });
    await h.call.stop();
    await flush();
    expect(unjoined).not.toHaveBeenCalled();
  });

  it('joins no call without the microphone: a start told to skip it still asks, and a denied one goes nowhere', async () => {
    const permission = vi.fn(() => Promise.resolve<PermissionState | null>('denied'));
    const h = createHarness({ openMicrophone: null, microphonePermission: permission });
    const call = request();
    const unjoined = vi.fn();
    // What the dropped typing-only call once passed: nothing reads it now.
    const listenOnly = { microphone: false, unjoined };
    const outcome = h.call.startWith(call.send, listenOnly);
    await flush();
    expect(permission).toHaveBeenCalledTimes(1);
    await expect(outcome).resolves.toMatchObject({ status: 'failed' });
    expect(call.send).not.toHaveBeenCalled();
    expect(h.factory).not.toHaveBeenCalled();
  });
});
