import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { START_TIME, createHarness, expectNothingLeft, flush } from './test/call-harness';
import { FakeMediaStream } from './test/fake-daily';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START_TIME);
  vi.stubGlobal('MediaStream', FakeMediaStream);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});

afterEach(async () => {
  try {
    await expectNothingLeft();
  } finally {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  }
});

/** The connection is lost for good: Daily gives up, and the call joins the room again. */
async function loseConnection(h: ReturnType<typeof createHarness>) {
  const first = h.daily(0);
  first.emit('network-connection', { type: 'signaling', event: 'interrupted' });
  first.emit('error', {
    errorMsg: 'The connection to the meeting was lost',
    error: { type: 'connection-error', msg: 'lost' },
  });
  await flush();
}

describe('the microphone across a rejoin', () => {
  it('a rejoin opens the microphone the visitor chose, not the default', async () => {
    const h = createHarness();
    await h.connect();
    expect(h.daily(0).options.audioSource).toBe(true);
    h.daily(0).setInputDevicesAsync.mockResolvedValueOnce({ mic: { deviceId: 'headset' } });
    await h.call.setInputDevicesAsync({ audioDeviceId: 'headset' });
    await loseConnection(h);
    expect(h.daily(1).options.audioSource).toBe('headset');
    await flush();
    expect(h.call.state).toBe('started');
    await h.call.stop();
  });

  it('a device the room did not switch to is not the one a rejoin opens', async () => {
    const h = createHarness();
    await h.connect();
    // The room stayed on the microphone it had: the one it reports is the one in use.
    h.daily(0).setInputDevicesAsync.mockResolvedValueOnce({ mic: { deviceId: 'built-in' } });
    await h.call.setInputDevicesAsync({ audioDeviceId: 'broken' });
    await loseConnection(h);
    expect(h.daily(1).options.audioSource).toBe('built-in');
    await h.call.stop();
  });

  it('a rejoin opens the microphone again: no call goes on without it', async () => {
    const h = createHarness();
    await h.connect();
    await loseConnection(h);
    expect(h.daily(1).options.audioSource).not.toBe(false);
    await h.call.stop();
  });
});
