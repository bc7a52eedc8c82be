import {
  PEPA_BUY_QUESTION,
  PEPA_BUY_REFUSAL,
  PEPA_DEMO_PERSONA,
  PEPA_FIRST_MESSAGE,
} from '../../../config/pepa-persona';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  START_TIME,
  createHarness,
  expectNothingLeft,
  flush,
  type Recorded,
} from '../test/call-harness';
import { FakeMediaStream } from '../test/fake-daily';
import { CONNECTION_LOST_MESSAGE } from '../pepa-call';
import type { DailyLike, DailyLikeEventName, DailyLikeHandler } from '../daily-types';
import { assistantLevelAt, createSimulatorFactory, type SimulatorOptions } from './room-simulator';
import { createFakeAudio, createFakeGetUserMedia } from './test/simulator-fakes';

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
  }
});

function setup(options: Partial<SimulatorOptions> = {}) {
  const voice = createFakeAudio();
  const microphone = createFakeGetUserMedia();
  const createDailyCall = createSimulatorFactory({
    persona: PEPA_DEMO_PERSONA,
    audio: voice.factory,
    getUserMedia: microphone.getUserMedia,
    ...options,
  });
  const h = createHarness({ createDailyCall });
  const quiet = (): Recorded[] =>
    h.events.filter(
      (event) =>
        !Array.isArray(event) || (event[0] !== 'volume-level' && event[0] !== 'local-volume-level'),
    );
  return { h, voice, microphone, quiet };
}

const GREETING_PARTIAL = "Ribbit! Welcome to my court. I'm";
const message = (payload: Record<string, unknown>): Recorded => ['message', payload];
const ENDED_BY_VISITOR = message({
  type: 'status-update',
  status: 'ended',
  endedReason: 'customer-ended-call',
});

/** Everything after call-start of a greeting that runs to the end, with levels left out. */
const GREETING: Recorded[] = [
  message({ type: 'speech-update', status: 'started', role: 'assistant', turn: 1 }),
  'speech-start',
  message({
    type: 'transcript',
    role: 'assistant',
    transcriptType: 'partial',
    transcript: GREETING_PARTIAL,
  }),
  message({
    type: 'transcript',
    role: 'assistant',
    transcriptType: 'final',
    transcript: PEPA_FIRST_MESSAGE,
  }),
  message({ type: 'speech-update', status: 'stopped', role: 'assistant', turn: 1 }),
  message({
    type: 'conversation-update',
    messages: [{ role: 'assistant', message: PEPA_FIRST_MESSAGE }],
  }),
  'speech-end',
];

const START: Recorded[] = [
  'state:starting',
  'progress:web-call-creation:started',
  'progress:web-call-creation:completed',
  'progress:call-object-creation:started',
  'progress:call-object-creation:completed',
  'progress:join:started',
  'progress:join:completed',
  // The room's set-up, beside the wait for the assistant.
  'progress:audio-observer-setup:started',
  'progress:assistant-ready:started',
  'progress:audio-observer-setup:completed',
  'progress:audio-processing-setup:started',
  'progress:audio-processing-setup:completed',
  'progress:audio-observer-setup:started',
  'progress:audio-observer-setup:completed',
  // The room reports a good connection once joined, as Daily does.
  ['network-quality-change', { state: 'good', reasons: [] }],
  [
    'daily-participant-updated',
    {
      sessionId: 'sim-assistant',
      userName: 'Vapi Speaker',
      local: false,
      audioState: 'playable',
      videoState: undefined,
    },
  ],
  'progress:assistant-ready:completed',
  ['call-start-success', { callId: 'call-1', totalDurationMs: 800, timestamp: START_TIME + 800 }],
  'state:started',
  'call-start',
];

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

describe('the simulated room with the call object', () => {
  it("answers the visitor's second, canned buy question with Pepa's refusal", async () => {
    const { h, voice, quiet } = setup();
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800);
    await started;
    await vi.advanceTimersByTimeAsync(300 + 2000 + 1000);
    for (let turn = 0; turn < 2; turn += 1) {
      voice.setMicrophoneLevel(0.3);
      await vi.advanceTimersByTimeAsync(500);
      voice.setMicrophoneLevel(0);
      await vi.advanceTimersByTimeAsync(700 + 600 + 1600 + 1000);
    }
    await h.call.stop();
    const finals = quiet().flatMap((event) => {
      if (!Array.isArray(event) || event[0] !== 'message') return [];
      const data = event[1] as {
        type?: string;
        transcriptType?: string;
        role?: string;
        transcript?: string;
      };
      return data.type === 'transcript' && data.transcriptType === 'final'
        ? [`${data.role}: ${data.transcript}`]
        : [];
    });
    expect(finals).toEqual([
      `assistant: ${PEPA_FIRST_MESSAGE}`,
      'user: Hello Pepa!',
      'assistant: A fine question for a fine guest. In my pond, every frog is royalty.',
      `user: ${PEPA_BUY_QUESTION}`,
      `assistant: ${PEPA_BUY_REFUSAL}`,
    ]);
  });

  it('greets, hears the visitor, replies, and releases the microphone and voice on stop', async () => {
    const { h, voice, microphone, quiet } = setup();
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800);
    await expect(started).resolves.toMatchObject({ id: 'call-1' });
    expect(microphone.getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(document.querySelector('audio')?.dataset.participantId).toBe('sim-assistant');

    await vi.advanceTimersByTimeAsync(300 + 2000 + 1000);
    voice.setMicrophoneLevel(0.3);
    await vi.advanceTimersByTimeAsync(500);
    voice.setMicrophoneLevel(0);
    await vi.advanceTimersByTimeAsync(700 + 600 + 1600 + 1000);
    await h.call.stop();

    const reply = 'A fine question for a fine guest. In my pond, every frog is royalty.';
    expect(quiet()).toEqual([
      ...START,
      ...GREETING,
      message({ type: 'speech-update', status: 'started', role: 'user', turn: 1 }),
      message({ type: 'transcript', role: 'user', transcriptType: 'partial', transcript: 'Hello' }),
      message({ type: 'speech-update', status: 'stopped', role: 'user', turn: 1 }),
      message({
        type: 'transcript',
        role: 'user',
        transcriptType: 'final',
        transcript: 'Hello Pepa!',
      }),
      message({ type: 'speech-update', status: 'started', role: 'assistant', turn: 2 }),
      'speech-start',
      message({
        type: 'transcript',
        role: 'assistant',
        transcriptType: 'partial',
        transcript: 'A fine question for a fine guest.',
      }),
      message({
        type: 'transcript',
        role: 'assistant',
        transcriptType: 'final',
        transcript: reply,
      }),
      message({ type: 'speech-update', status: 'stopped', role: 'assistant', turn: 2 }),
      message({
        type: 'conversation-update',
        messages: [
          { role: 'assistant', message: PEPA_FIRST_MESSAGE },
          { role: 'user', message: 'Hello Pepa!' },
          { role: 'assistant', message: reply },
        ],
      }),
      'speech-end',
      'state:ending',
      'call-end',
      ENDED_BY_VISITOR,
      'state:idle',
    ]);
    expect(voice.audio.speak).toHaveBeenCalledWith(2000);
    expect(microphone.tracks.map((track) => track.readyState)).toEqual(['ended']);
    expect(voice.voiceTrack.readyState).toBe('ended');
  });

  it('tells the provider side once when the visitor leaves a joined room', async () => {
    const onRoomLeft = vi.fn();
    const { h } = setup({ onRoomLeft });
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800);
    await expect(started).resolves.toMatchObject({ id: 'call-1' });
    expect(onRoomLeft).not.toHaveBeenCalled();
    await h.call.stop();
    expect(onRoomLeft.mock.calls).toEqual([['https://pepa.daily.co/room-1']]);
  });

  it("tells the provider side each line said, as the provider records a call's messages", async () => {
    const onSpoken = vi.fn();
    const { h } = setup({ onSpoken });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 100);
    expect(onSpoken.mock.calls).toEqual([
      [
        'https://pepa.daily.co/room-1',
        { role: 'bot', message: PEPA_DEMO_PERSONA.firstMessage, time: expect.any(Number) },
      ],
    ]);
    await h.call.stop();
  });

  it('does not tell the provider side of a room the visitor never joined', async () => {
    const onRoomLeft = vi.fn();
    const onRoomJoined = vi.fn();
    const { h } = setup({ onRoomLeft, onRoomJoined, faults: ['join-failure'] });
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800);
    await expect(started).resolves.toBeNull();
    await h.call.stop();
    expect(onRoomLeft).not.toHaveBeenCalled();
    expect(onRoomJoined).not.toHaveBeenCalled();
  });

  it('tells the provider side once the visitor has joined, not while the join is under way', async () => {
    const onRoomJoined = vi.fn();
    const { h } = setup({ onRoomJoined });
    const started = h.call.start('assistant-1');
    expect(onRoomJoined).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(800);
    await expect(started).resolves.toMatchObject({ id: 'call-1' });
    expect(onRoomJoined.mock.calls).toEqual([['https://pepa.daily.co/room-1']]);
    await h.call.stop();
    expect(onRoomJoined).toHaveBeenCalledTimes(1);
  });

  it('reports remote levels that rise and fall while the greeting is spoken', async () => {
    const { h } = setup();
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 100);
    const volumes = h.payloads
      .filter(([name]) => name === 'volume-level')
      .map(([, payload]) => (payload as { volume: number }).volume);
    const peak = Math.max(...volumes);
    const peakAt = volumes.indexOf(peak);
    expect(peak).toBeGreaterThan(0.5);
    expect(volumes.at(-1)).toBe(0);
    expect(peakAt).toBeGreaterThan(5);
    expect(peakAt).toBeLessThan(volumes.length - 5);
    await h.call.stop();
  });

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

  it('runs faster with a time scale', async () => {
    const { h } = setup({ timeScale: 0.1 });
    const started = h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(80);
    await expect(started).resolves.toMatchObject({ id: 'call-1' });
    await h.call.stop();
  });

  it('records when asked, and greets only on say-first-message', async () => {
    const { h, quiet } = setup();
    h.createWebCall.mockResolvedValueOnce({
      id: 'call-1',
      webCallUrl: 'https://pepa.daily.co/room-1',
      artifactPlan: { videoRecordingEnabled: true },
    });
    void h.call.start('assistant-1');
    await vi.advanceTimersByTimeAsync(800);
    expect(h.call.state).toBe('started');
    await vi.advanceTimersByTimeAsync(3000);
    const afterStart = quiet().slice(quiet().indexOf('call-start') + 1);
    // The room started recording 600 ms after the request; the call object then asked to greet.
    expect(afterStart.slice(0, 2)).toEqual(GREETING.slice(0, 2));
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

  it("calls the tool a typed line asks for, answers it, and stays silent after the page's note", async () => {
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
