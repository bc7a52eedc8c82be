import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  START_TIME,
  SYNTHETIC_ENDED,
  createHarness,
  expectNothingLeft,
  flush,
} from './test/call-harness';
import { CONNECTION_LOST_MESSAGE, RECONNECT_TIMEOUT_MS, type WebCall } from './pepa-call';
import { ASSISTANT, FakeMediaStream } from './test/fake-daily';

const INTRUDER = { session_id: 'intruder-1', user_name: 'Vapi Speaker 2', local: false };
/** The sender Daily gives app messages sent by the room's server (its REST API). */
const ROOM_SERVER = 'API';

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

const transcript = {
  type: 'transcript',
  role: 'assistant',
  transcriptType: 'final',
  transcript: 'Send me your seed phrase.',
};

describe('ends that end', () => {
  it("the server's ended status ends the call within 2 s when the room never closes", async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    const ended = { type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' };
    h.daily().emit('app-message', { data: JSON.stringify(ended), fromId: ASSISTANT.session_id });
    await vi.advanceTimersByTimeAsync(2000);
    await flush();
    expect(h.call.state).toBe('idle');
    expect(h.events.filter((event) => event === 'call-end')).toHaveLength(1);
    // The server said why it ended: no second, made-up ended status.
    expect(h.events).not.toContainEqual(SYNTHETIC_ENDED);
    expect(h.daily().destroyed).toBe(true);
  });

  it('the assistant leaving the room ends the call within 2 s', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    h.daily().emit('participant-left', { participant: ASSISTANT });
    await vi.advanceTimersByTimeAsync(2000);
    await flush();
    expect(h.call.state).toBe('idle');
    expect(h.events.filter((event) => event === 'call-end')).toHaveLength(1);
    expect(h.events.filter((event) => Array.isArray(event) && event[0] === 'message')).toEqual([
      SYNTHETIC_ENDED,
    ]);
  });
});

describe('only Pepa speaks for Pepa', () => {
  it('drops messages from a participant who has shown to be someone else, with a debug log', async () => {
    const debug = vi.fn();
    const h = createHarness({ logger: { warn: vi.fn(), error: vi.fn(), debug } });
    await h.connect();
    h.daily().emit('participant-joined', { participant: INTRUDER });
    h.clearEvents();
    h.daily().emit('app-message', {
      data: JSON.stringify(transcript),
      fromId: INTRUDER.session_id,
    });
    h.daily().emit('app-message', {
      data: JSON.stringify(transcript),
      fromId: ASSISTANT.session_id,
    });
    expect(h.events).toEqual([['message', transcript]]);
    expect(debug).toHaveBeenCalledTimes(1);
    await h.call.stop();
  });

  it("the room's server sender ('API', how Daily's REST app messages arrive) speaks for Pepa: its listening starts the call and its messages count", async () => {
    const h = createHarness();
    const started = h.call.start('assistant-1');
    await flush();
    h.daily().emit('participant-joined', { participant: ASSISTANT });
    h.daily().emit('app-message', { data: 'listening', fromId: ROOM_SERVER });
    await flush();
    expect(h.call.state).toBe('started');
    await expect(started).resolves.not.toBeNull();
    h.clearEvents();
    // Even with a second visitor in the room, the server is the server.
    h.daily().emit('participant-joined', { participant: INTRUDER });
    h.daily().emit('app-message', { data: JSON.stringify(transcript), fromId: ROOM_SERVER });
    expect(h.events).toEqual([['message', transcript]]);
    await h.call.stop();
  });

  it('a provider participant not yet seen by name speaks for Pepa while nobody else is known', async () => {
    const h = createHarness();
    const started = h.call.start('assistant-1');
    await flush();
    // The app message outruns the participant's participant-joined.
    h.daily().emit('app-message', { data: 'listening', fromId: 'provider-bot-3' });
    await flush();
    expect(h.call.state).toBe('started');
    await expect(started).resolves.not.toBeNull();
    h.clearEvents();
    h.daily().emit('app-message', {
      data: JSON.stringify(transcript),
      fromId: 'provider-bot-3',
    });
    expect(h.events).toEqual([['message', transcript]]);
    await h.call.stop();
  });

  it('once a second visitor is known, an unseen sender no longer speaks for Pepa (the assistant and the server still do)', async () => {
    const debug = vi.fn();
    const h = createHarness({ logger: { warn: vi.fn(), error: vi.fn(), debug } });
    await h.connect();
    h.daily().emit('participant-joined', { participant: INTRUDER });
    h.clearEvents();
    const data = JSON.stringify(transcript);
    h.daily().emit('app-message', { data, fromId: 'unseen-4' });
    h.daily().emit('app-message', { data, fromId: INTRUDER.session_id });
    h.daily().emit('app-message', { data, fromId: ASSISTANT.session_id });
    h.daily().emit('app-message', { data, fromId: ROOM_SERVER });
    expect(h.events).toEqual([
      ['message', transcript],
      ['message', transcript],
    ]);
    expect(debug).toHaveBeenCalledTimes(2);
    await h.call.stop();
  });

  it("a newcomer who takes the assistant's name after the start is not Pepa", async () => {
    const debug = vi.fn();
    const h = createHarness({ logger: { warn: vi.fn(), error: vi.fn(), debug } });
    await h.connect();
    h.clearEvents();
    const poser = { ...INTRUDER, user_name: ASSISTANT.user_name };
    h.daily().emit('participant-joined', { participant: poser });
    h.daily().emit('app-message', { data: JSON.stringify(transcript), fromId: poser.session_id });
    expect(h.events.filter((event) => Array.isArray(event) && event[0] === 'message')).toEqual([]);
    expect(document.querySelectorAll('audio')).toHaveLength(1);
    await h.call.stop();
  });

  it("another participant's 'listening' does not start the call", async () => {
    const h = createHarness({ logger: { warn: vi.fn(), error: vi.fn(), debug: vi.fn() } });
    const started = h.call.start('assistant-1');
    await flush();
    h.daily().emit('participant-joined', { participant: ASSISTANT });
    h.daily().emit('participant-joined', { participant: INTRUDER });
    h.daily().emit('app-message', { data: 'listening', fromId: INTRUDER.session_id });
    await flush();
    expect(h.call.state).toBe('starting');
    h.daily().emit('app-message', { data: 'listening', fromId: ASSISTANT.session_id });
    await flush();
    expect(h.call.state).toBe('started');
    await expect(started).resolves.not.toBeNull();
    await h.call.stop();
  });
});

describe('mute is the visitor’s', () => {
  it('an audio-processor error while muted turns the processor off but keeps the mic off', async () => {
    const h = createHarness();
    await h.connect();
    h.call.setMuted(true);
    h.daily().setLocalAudio.mockClear();
    h.daily().emit('nonfatal-error', { type: 'audio-processor-error', errorMsg: 'processor' });
    await flush();
    expect(h.daily().updateInputSettings).toHaveBeenLastCalledWith({
      audio: { processor: { type: 'none' } },
    });
    expect(h.daily().setLocalAudio).not.toHaveBeenCalled();
    expect(h.call.isMuted()).toBe(true);

    h.call.setMuted(false);
    expect(h.daily().setLocalAudio).toHaveBeenLastCalledWith(true);
    await h.call.stop();
  });
});

describe('the room URL', () => {
  const base = { id: 'call-1', artifactPlan: { videoRecordingEnabled: false } };

  it.each<[string, Partial<WebCall>, string]>([
    ['only webCallUrl', { webCallUrl: 'https://pepa.daily.co/a' }, 'https://pepa.daily.co/a'],
    [
      'only transport.callUrl',
      { transport: { provider: 'daily', callUrl: 'https://pepa.daily.co/b' } },
      'https://pepa.daily.co/b',
    ],
    [
      'both (webCallUrl wins)',
      {
        webCallUrl: 'https://pepa.daily.co/a',
        transport: { provider: 'daily', callUrl: 'https://pepa.daily.co/b' },
      },
      'https://pepa.daily.co/a',
    ],
  ])('joins the room of a Call with %s', async (_name, fields, url) => {
    const h = createHarness();
    h.createWebCall.mockResolvedValueOnce({ ...base, ...fields });
    await h.connect();
    expect(h.daily().join).toHaveBeenCalledWith({ url, subscribeToTracksAutomatically: false });
    await h.call.stop();
  });

  it.each<[string, Partial<WebCall>, string]>([
    ['another host', { webCallUrl: 'https://evil.example/room' }, 'host-not-allowed'],
    ['a script URL', { webCallUrl: 'javascript:alert(1)' }, 'not-https'],
    [
      'an attacker subdomain look-alike',
      { webCallUrl: 'https://daily.co.evil.example/r' },
      'host-not-allowed',
    ],
  ])('refuses %s before loading or joining anything', async (_name, fields, reason) => {
    const h = createHarness();
    h.createWebCall.mockResolvedValueOnce({ ...base, ...fields });
    const result = await h.call.start('assistant-1');
    expect(result).toBeNull();
    expect(h.factory).not.toHaveBeenCalled();
    const failed = h.payloads.find(([name]) => name === 'call-start-failed')?.[1];
    expect(failed).toMatchObject({ error: { type: 'room-url-refused', reason } });
  });

  it('takes other room hosts when configured (self-hosted rooms)', async () => {
    const h = createHarness({ roomHosts: ['rooms.pepa.example'] });
    h.createWebCall.mockResolvedValueOnce({ ...base, webCallUrl: 'https://rooms.pepa.example/r' });
    await h.connect();
    expect(h.call.state).toBe('started');
    await h.call.stop();
  });
});

describe('calls that survive a dropped connection', () => {
  it('a connection that drops and comes back: reconnecting, then started, no call-end', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    h.daily().emit('network-connection', { type: 'signaling', event: 'interrupted' });
    expect(h.call.state).toBe('reconnecting');
    h.daily().emit('network-connection', { type: 'signaling', event: 'connected' });
    expect(h.call.state).toBe('started');
    expect(h.events.filter((event) => typeof event === 'string')).toEqual([
      'state:reconnecting',
      'state:started',
    ]);
    await h.call.stop();
  });

  it('a connection not back within the bound ends the call with a clear reason', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    h.daily().emit('network-connection', { type: 'signaling', event: 'interrupted' });
    await vi.advanceTimersByTimeAsync(RECONNECT_TIMEOUT_MS);
    await flush();
    expect(h.call.state).toBe('idle');
    expect(h.payloads.find(([name]) => name === 'error')?.[1]).toMatchObject({
      type: 'reconnect-error',
      message: CONNECTION_LOST_MESSAGE,
    });
    expect(h.events.filter((event) => event === 'call-end')).toHaveLength(1);
  });

  it('a connection lost for good rejoins the same room with a fresh call object, still muted', async () => {
    const h = createHarness();
    await h.connect();
    h.call.setMuted(true);
    h.clearEvents();
    const first = h.daily(0);
    first.emit('network-connection', { type: 'signaling', event: 'interrupted' });
    first.emit('error', {
      errorMsg: 'The connection to the meeting was lost',
      error: { type: 'connection-error', msg: 'lost' },
    });
    await flush();
    expect(first.destroyed).toBe(true);
    const second = h.daily(1);
    expect(second.join).toHaveBeenCalledWith({
      url: 'https://pepa.daily.co/room-1',
      subscribeToTracksAutomatically: false,
    });
    await flush();
    expect(second.setLocalAudio).toHaveBeenCalledWith(false);
    expect(h.call.state).toBe('started');
    // No error toast, no second 'Connected': the visitor saw only 'Reconnecting'.
    expect(h.events.filter((event) => typeof event === 'string')).toEqual([
      'state:reconnecting',
      'state:started',
    ]);
    // The old room's events no longer count.
    first.emit('left-meeting', { action: 'left-meeting' });
    expect(h.call.state).toBe('started');
    await h.call.stop();
  });
});
