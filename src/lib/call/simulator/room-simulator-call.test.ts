/**
 * The simulated room with the call object: a conversation, what the provider side is told, the
 * levels, the time scale and a recorded call.
 */
import {
  PEPA_BUY_QUESTION,
  PEPA_BUY_REFUSAL,
  PEPA_DEMO_PERSONA,
  PEPA_FIRST_MESSAGE,
} from '../../../config/pepa-persona';
import { describe, expect, it, vi } from 'vitest';
import { setUpCallTests } from '../test/call-test-setup';
import { ENDED_BY_VISITOR, START, message, simulatorKit } from './test/room-simulator-kit';

setUpCallTests();

const { setup, GREETING } = simulatorKit(PEPA_DEMO_PERSONA);

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

  it("tells the provider side each message said, as the provider records a call's messages", async () => {
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
