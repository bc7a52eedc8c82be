/**
 * The simulated room on its own, driven as the call object drives Daily, and the assistant's level
 * curve.
 */
import { PEPA_DEMO_PERSONA } from '../../../config/pepa-persona';
import { describe, expect, it, vi } from 'vitest';
import { setUpCallTests } from '../test/call-test-setup';
import type { DailyLike, DailyLikeEventName, DailyLikeHandler } from '../daily-types';
import { assistantLevelAt, createSimulatorFactory, type SimulatorOptions } from './room-simulator';
import { createFakeAudio, createFakeGetUserMedia } from './test/simulator-fakes';

setUpCallTests();

/** A server message as the tests read it. */
type ServerUpdate = { type: string; messages?: unknown[] };

/** Records the room's own Daily events (levels left out) by wrapping the factory. */
function recordRoom(options: Partial<SimulatorOptions> = {}) {
  const voice = createFakeAudio();
  const microphone = createFakeGetUserMedia();
  const factory = createSimulatorFactory({
    persona: PEPA_DEMO_PERSONA,
    audio: voice.factory,
    getUserMedia: microphone.getUserMedia,
    ...options,
  });
  const seen: Array<[DailyLikeEventName, unknown]> = [];
  const names: DailyLikeEventName[] = [
    'left-meeting',
    'participant-joined',
    'participant-updated',
    'track-started',
    'app-message',
    'recording-started',
    'error',
    'camera-error',
    'network-quality-change',
    'network-connection',
  ];
  let room: DailyLike | null = null;
  const detachers: Array<() => void> = [];
  const listen = <E extends DailyLikeEventName>(daily: DailyLike, name: E): void => {
    const handler: DailyLikeHandler<E> = (payload) => seen.push([name, payload]);
    daily.on(name, handler);
    detachers.push(() => daily.off(name, handler));
  };
  const open = async (overrides: { audioSource?: boolean } = {}) => {
    room = await factory({
      audioSource: overrides.audioSource ?? true,
      videoSource: false,
      dailyConfig: {},
    });
    for (const name of names) listen(room, name);
    return room;
  };
  const close = async () => {
    for (const detach of detachers) detach();
    await room?.destroy();
  };
  return { voice, microphone, seen, open, close };
}

describe('the simulated room on its own', () => {
  it('acquires the microphone on join, joins after 300 ms and lets the assistant in', async () => {
    const room = recordRoom();
    const daily = await room.open();
    let joined = false;
    void daily.join({ url: 'sim://room', subscribeToTracksAutomatically: false }).then(() => {
      joined = true;
    });
    await vi.advanceTimersByTimeAsync(299);
    expect(room.microphone.getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(joined).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(joined).toBe(true);
    await vi.advanceTimersByTimeAsync(200);
    daily.updateParticipant('sim-assistant', {
      setSubscribedTracks: { audio: true, video: false },
    });
    await vi.advanceTimersByTimeAsync(50);
    daily.sendAppMessage('playable');
    await vi.advanceTimersByTimeAsync(250);
    expect(
      room.seen.map(([name, payload]) =>
        name === 'app-message' ? (payload as { data: unknown }).data : name,
      ),
    ).toEqual([
      'network-quality-change',
      'participant-joined',
      'participant-updated',
      'track-started',
      'listening',
    ]);
    expect(room.seen[3]?.[1]).toMatchObject({
      type: 'audio',
      track: room.voice.audio.assistantTrack,
    });
    expect(room.voice.audio.listenTo).toHaveBeenCalledTimes(1);
    await room.close();
    expect(room.microphone.tracks[0]?.readyState).toBe('ended');
  });

  it('destroy during the join rejects it and stops the microphone', async () => {
    const room = recordRoom();
    const daily = await room.open();
    const joining = daily.join({ url: 'sim://room', subscribeToTracksAutomatically: false });
    await vi.advanceTimersByTimeAsync(100);
    await room.close();
    await expect(joining).rejects.toThrow(/destroyed while joining/);
    expect(room.microphone.tracks[0]?.readyState).toBe('ended');
  });

  it('fails the join clearly where there is no Web Audio and no voice was given', async () => {
    const factory = createSimulatorFactory({
      persona: PEPA_DEMO_PERSONA,
      getUserMedia: createFakeGetUserMedia().getUserMedia,
    });
    const daily = await factory({ audioSource: true, videoSource: false, dailyConfig: {} });
    const joining = daily.join({ url: 'sim://room', subscribeToTracksAutomatically: false });
    const settled = expect(joining).rejects.toThrow(/needs Web Audio/);
    await vi.advanceTimersByTimeAsync(300);
    await settled;
    await daily.destroy();
  });

  it('refuses app messages before joining, as Daily does', async () => {
    const room = recordRoom();
    const daily = await room.open();
    expect(() => daily.sendAppMessage('playable')).toThrow(/joined meeting/);
    await room.close();
  });

  it('honours say, mute-assistant and end-call', async () => {
    const room = recordRoom();
    const daily = await room.open();
    await daily.startRemoteParticipantsAudioLevelObserver(100);
    void daily.join({ url: 'sim://room', subscribeToTracksAutomatically: false });
    await vi.advanceTimersByTimeAsync(500);
    daily.sendAppMessage(JSON.stringify({ type: 'control', control: 'mute-assistant' }));
    expect(room.voice.audio.hush).toHaveBeenCalledTimes(1);
    daily.sendAppMessage(
      JSON.stringify({
        type: 'say',
        message: 'Four words right here',
        interruptionsEnabled: false,
      }),
    );
    expect(room.voice.audio.speak).not.toHaveBeenCalled();
    daily.sendAppMessage(JSON.stringify({ type: 'control', control: 'unmute-assistant' }));
    daily.sendAppMessage(
      JSON.stringify({ type: 'say', message: 'Ribbit', interruptionsEnabled: false }),
    );
    expect(room.voice.audio.speak).toHaveBeenCalledWith(800);
    daily.sendAppMessage(JSON.stringify({ type: 'end-call' }));
    await vi.advanceTimersByTimeAsync(300);
    const data = room.seen
      .filter(([name]) => name === 'app-message')
      .map(
        ([, payload]) => JSON.parse((payload as { data: string }).data) as Record<string, unknown>,
      );
    expect(data.filter((entry) => entry.type === 'status-update')).toEqual([
      { type: 'status-update', status: 'ended', endedReason: 'customer-ended-call' },
    ]);
    expect(room.seen.at(-1)).toEqual(['left-meeting', { action: 'left-meeting' }]);
    expect(room.microphone.tracks[0]?.readyState).toBe('ended');
    expect(vi.getTimerCount()).toBe(0);
    await room.close();
  });

  it('answers a typed add-message in the conversation, as the provider does', async () => {
    const room = recordRoom();
    const daily = await room.open();
    void daily.join({ url: 'sim://room', subscribeToTracksAutomatically: false });
    await vi.advanceTimersByTimeAsync(500);
    daily.sendAppMessage(
      JSON.stringify({
        type: 'add-message',
        message: { role: 'user', content: 'Should I buy?' },
        triggerResponseEnabled: true,
      }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    const updates = room.seen
      .filter(([name]) => name === 'app-message')
      .map(([, payload]) => JSON.parse((payload as { data: string }).data) as ServerUpdate)
      .filter((entry) => entry.type === 'conversation-update');
    expect(updates.at(-1)?.messages).toEqual([
      { role: 'user', message: 'Should I buy?' },
      { role: 'assistant', message: PEPA_DEMO_PERSONA.replies[0] },
    ]);
    await room.close();
  });

  it("calls the tool a typed message asks for, answers it, and stays silent after the page's note", async () => {
    const room = recordRoom();
    const daily = await room.open();
    void daily.join({ url: 'sim://room', subscribeToTracksAutomatically: false });
    await vi.advanceTimersByTimeAsync(500);
    daily.sendAppMessage(
      JSON.stringify({
        type: 'add-message',
        message: { role: 'user', content: 'What is the contract address?' },
        triggerResponseEnabled: true,
      }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    daily.sendAppMessage(
      JSON.stringify({
        type: 'add-message',
        message: { role: 'system', content: '[The page shows the contract card.]' },
        triggerResponseEnabled: false,
      }),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    const sent = room.seen
      .filter(([name]) => name === 'app-message')
      .map(
        ([, payload]) =>
          JSON.parse((payload as { data: string }).data) as ServerUpdate & Record<string, unknown>,
      );
    expect(sent.filter((entry) => entry.type === 'tool-calls')).toEqual([
      {
        type: 'tool-calls',
        toolCallList: [
          {
            id: 'call_demo_1',
            type: 'function',
            function: { name: 'show_contract', arguments: '{}' },
          },
        ],
        toolWithToolCallList: [],
      },
    ]);
    const cue = PEPA_DEMO_PERSONA.toolCues.find((entry) => entry.tool.name === 'show_contract');
    // One reply only: the silent note triggered none.
    expect(
      sent.filter(
        (entry) =>
          entry.type === 'transcript' &&
          entry.role === 'assistant' &&
          entry.transcriptType === 'final',
      ),
    ).toEqual([
      { type: 'transcript', role: 'assistant', transcriptType: 'final', transcript: cue?.reply },
    ]);
    await room.close();
  });

  it('joins without the microphone when told to, and never asks for it', async () => {
    const room = recordRoom();
    const daily = await room.open({ audioSource: false });
    await Promise.all([
      daily.join({ url: 'sim://room', subscribeToTracksAutomatically: false }),
      vi.advanceTimersByTimeAsync(300),
    ]);
    expect(room.microphone.getUserMedia).not.toHaveBeenCalled();
    await room.close();
  });

  it('switches the microphone to the chosen device and stops the old one', async () => {
    const room = recordRoom();
    const daily = await room.open();
    await Promise.all([
      daily.join({ url: 'sim://room', subscribeToTracksAutomatically: false }),
      vi.advanceTimersByTimeAsync(300),
    ]);
    await daily.setInputDevicesAsync({ audioDeviceId: 'headset' });
    expect(room.microphone.getUserMedia).toHaveBeenLastCalledWith({
      audio: { deviceId: { exact: 'headset' } },
    });
    expect(room.microphone.tracks.map((track) => track.readyState)).toEqual(['ended', 'live']);
    expect(room.voice.audio.listenTo).toHaveBeenCalledTimes(2);
    await room.close();
    expect(room.microphone.tracks[1]?.readyState).toBe('ended');
  });

  it('answers startRecording with recording-started', async () => {
    const room = recordRoom();
    const daily = await room.open();
    void daily.join({ url: 'sim://room', subscribeToTracksAutomatically: false });
    await vi.advanceTimersByTimeAsync(300);
    daily.startRecording({ width: 1280, height: 720, layout: { preset: 'default' } });
    await vi.advanceTimersByTimeAsync(600);
    expect(room.seen.map(([name]) => name)).toContain('recording-started');
    await room.close();
  });
});

describe('assistantLevelAt', () => {
  it('is silent outside the line and loudest around its middle', () => {
    const line = { text: 'x', startedAt: 0, durationMs: 2000 };
    expect(assistantLevelAt(null, 0)).toBe(0);
    expect(assistantLevelAt(line, -1)).toBe(0);
    expect(assistantLevelAt(line, 2001)).toBe(0);
    expect(assistantLevelAt(line, 50)).toBeLessThan(0.02);
    expect(assistantLevelAt(line, 1000)).toBeGreaterThan(0.05);
  });
});
