/** The simulated room with the call object: a denied microphone, and each fault the room plays. */
import { PEPA_DEMO_PERSONA } from '../../../config/pepa-persona';
import { describe, expect, it, vi } from 'vitest';
import { flush, type Recorded } from '../test/call-harness';
import { setUpCallTests } from '../test/call-test-setup';
import { CONNECTION_LOST_MESSAGE } from '../pepa-call';
import { ENDED_BY_VISITOR, START, message, simulatorKit } from './test/room-simulator-kit';

setUpCallTests();

const { setup, GREETING } = simulatorKit(PEPA_DEMO_PERSONA);

describe('the simulated room with the call object', () => {
  it('a denied microphone fails the join as Daily does, surfacing microphone-permission-denied', async () => {
    const { h, microphone } = setup();
    microphone.getUserMedia.mockRejectedValueOnce(
      new DOMException('Permission denied', 'NotAllowedError'),
    );
    await expect(h.call.start('assistant-1')).resolves.toBeNull();
    await flush();
    expect(quietTail(h.events, 7)).toEqual([
      'progress:join:started',
      [
        'camera-error',
        { errorType: 'permissions', message: 'Permission denied', blockedMedia: ['audio'] },
      ],
      'progress:join:failed',
      [
        'error',
        { type: 'microphone-permission-denied', message: 'Permission denied', blockedBy: 'user' },
      ],
      ['call-start-failed', expect.objectContaining({ stage: 'join' })],
      'state:ending',
      'state:idle',
    ]);
  });

  it('the mic-denied fault refuses the microphone without asking the browser', async () => {
    const { h, microphone } = setup({ faults: ['mic-denied'] });
    await expect(h.call.start('assistant-1')).resolves.toBeNull();
    await flush();
    expect(microphone.getUserMedia).not.toHaveBeenCalled();
    expect(h.payloads.find(([name]) => name === 'error')?.[1]).toMatchObject({
      type: 'microphone-permission-denied',
    });
  });

  it('join-failure fails the join and releases the microphone', async () => {
    const { h, microphone } = setup({ faults: ['join-failure'] });
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(300);
    await expect(started).resolves.toBeNull();
    await flush();
    expect(h.payloads.find(([name]) => name === 'call-start-failed')?.[1]).toMatchObject({
      stage: 'join',
      error: {
        type: 'daily-call-join-error',
        message: 'The meeting you are trying to join does not exist.',
      },
    });
    expect(microphone.tracks[0]?.readyState).toBe('ended');
  });

  it('no-listening never answers playable, so the start times out', async () => {
    const { h } = setup({ faults: ['no-listening'] });
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(started).resolves.toBeNull();
    expect(h.payloads.find(([name]) => name === 'call-start-failed')?.[1]).toMatchObject({
      stage: 'assistant-ready',
      error: { type: 'start-timeout' },
    });
  });

  it('server-end: the assistant ends the call after the greeting, with no synthetic status', async () => {
    const { h, quiet } = setup({ faults: ['server-end'] });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 1000 + 300 + 1000);
    expect(quiet().slice(START.length)).toEqual([
      ...GREETING,
      message({ type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' }),
      'state:ending',
      'call-end',
      'state:idle',
    ]);
  });

  it('ejection: a Daily error of type ejected, then the meeting ends', async () => {
    const { h, quiet } = setup({ faults: ['ejection'] });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 1000);
    expect(quiet().slice(START.length + GREETING.length)).toEqual([
      [
        'error',
        {
          type: 'daily-error',
          dailyErrorType: 'ejected',
          message: 'You were removed from the meeting',
          cause: { type: 'ejected', msg: 'You were removed from the meeting' },
        },
      ],
      'state:ending',
      'call-end',
      ENDED_BY_VISITOR,
      'state:idle',
    ]);
  });

  it('network-interruption: interrupted, then connected again, and the call goes on', async () => {
    const { h, quiet } = setup({ faults: ['network-interruption'] });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 1000 + 2000);
    expect(quiet().slice(START.length + GREETING.length)).toEqual([
      ['network-connection', { connectionType: 'signaling', event: 'interrupted' }],
      'state:reconnecting',
      ['network-quality-change', { state: 'bad', reasons: ['recvPacketLoss'] }],
      ['network-connection', { connectionType: 'signaling', event: 'connected' }],
      'state:started',
      ['network-quality-change', { state: 'good', reasons: [] }],
    ]);
    expect(h.call.state).toBe('started');
    await h.call.stop();
  });

  it('network-rejoin: Daily gives up, the call joins a fresh room with the chosen microphone and goes on', async () => {
    const { h, microphone } = setup({ faults: ['network-rejoin'] });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300);
    expect(h.call.state).toBe('started');
    await h.call.setInputDevicesAsync({ audioDeviceId: 'headset' });
    await vi.advanceTimersByTimeAsync(2000 + 1000 + 2000 + 2000);
    const states = h.events.filter(
      (event) => typeof event === 'string' && event.startsWith('state:'),
    );
    expect(states.slice(-2)).toEqual(['state:reconnecting', 'state:started']);
    expect(h.payloads.filter(([name]) => name === 'error')).toEqual([]);
    // The fresh room opened the microphone the visitor chose.
    expect(microphone.getUserMedia).toHaveBeenLastCalledWith({
      audio: { deviceId: { exact: 'headset' } },
    });
    await h.call.stop();
  });

  it('network-rejoin: the provider is told of the join and rejoin, never that the visitor left, until the call ends', async () => {
    const said: string[] = [];
    const { h } = setup({
      faults: ['network-rejoin'],
      onRoomJoined: (url) => said.push(`joined ${url}`),
      onRoomLeft: (url) => said.push(`left ${url}`),
    });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 1000 + 2000 + 2000);
    expect(h.call.state).toBe('started');
    expect(said.map((line) => line.split(' ')[0])).toEqual(['joined', 'joined']);
    await h.call.stop();
    expect(said.map((line) => line.split(' ')[0])).toEqual(['joined', 'joined', 'left']);
    expect(new Set(said.map((line) => line.split(' ')[1])).size).toBe(1);
  });

  it('network-failure: a connection lost for good tells the provider the visitor left', async () => {
    const left: string[] = [];
    const { h } = setup({ faults: ['network-failure'], onRoomLeft: (url) => left.push(url) });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 1000 + 2000 + 1000);
    expect(h.call.state).toBe('idle');
    expect(left).toHaveLength(1);
  });

  it('network-failure: the connection is lost for good, a rejoin fails, and the call ends with a reason', async () => {
    const { h } = setup({ faults: ['network-failure'] });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 1000 + 2000 + 1000);
    const states = h.events.filter(
      (event) => typeof event === 'string' && event.startsWith('state:'),
    );
    expect(states.slice(-3)).toEqual(['state:reconnecting', 'state:ending', 'state:idle']);
    // A rejoin was tried with a fresh room, found the network gone, and the call ended saying so.
    expect(h.payloads.filter(([name]) => name === 'error').map(([, error]) => error)).toEqual([
      expect.objectContaining({ type: 'reconnect-error', message: CONNECTION_LOST_MESSAGE }),
    ]);
  });

  it('malformed-message: a non-JSON app message is ignored and the call carries on', async () => {
    const { h } = setup({ faults: ['malformed-message'] });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 1000);
    expect(h.logger.warn).toHaveBeenCalledWith(expect.any(String), '{"type":"transcript",');
    expect(h.call.state).toBe('started');
    await h.call.stop();
  });
});

function quietTail(events: Recorded[], count: number): Recorded[] {
  return events
    .filter(
      (event) =>
        !Array.isArray(event) || (event[0] !== 'volume-level' && event[0] !== 'local-volume-level'),
    )
    .slice(-count);
}
