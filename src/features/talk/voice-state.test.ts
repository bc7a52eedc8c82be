import { describe, expect, it } from 'vitest';
import {
  CAPTION_LINES,
  CAPTION_MAX_CHARS,
  captionText,
  initialVoiceState,
  phaseOf,
  voiceReducer,
  type VoiceAction,
} from './voice-state';

function run(actions: VoiceAction[]) {
  return actions.reduce(voiceReducer, initialVoiceState);
}

describe('phaseOf', () => {
  it('follows the spec: idle, connected on call-start, speaking and back, idle on call-end', () => {
    const phases = [];
    let state = initialVoiceState;
    const steps: VoiceAction[] = [
      { type: 'state-change', state: 'starting' },
      { type: 'state-change', state: 'started' },
      { type: 'call-start', at: 1 },
      { type: 'speech-start' },
      { type: 'speech-end' },
      { type: 'speech-start' },
      { type: 'call-end' },
      { type: 'state-change', state: 'ending' },
      { type: 'state-change', state: 'idle' },
    ];
    phases.push(phaseOf(state));
    for (const step of steps) {
      state = voiceReducer(state, step);
      phases.push(phaseOf(state));
    }
    expect(phases).toEqual([
      'idle',
      'connecting',
      'connecting',
      'listening',
      'speaking',
      'listening',
      'speaking',
      'connecting',
      'ending',
      'idle',
    ]);
    expect(state.speaking).toBe(false);
  });
});

describe('voiceReducer', () => {
  it('keeps the last few final transcripts of both sides as captions, ignoring partials', () => {
    const lines = Array.from({ length: CAPTION_LINES + 2 }, (_, index): VoiceAction => ({
      type: 'message',
      message: {
        type: 'transcript',
        role: index % 2 ? 'user' : 'assistant',
        transcriptType: 'final',
        transcript: ` line ${index} `,
      },
    }));
    const state = run([
      { type: 'state-change', state: 'starting' },
      {
        type: 'message',
        message: {
          type: 'transcript',
          role: 'assistant',
          transcriptType: 'partial',
          transcript: 'li',
        },
      },
      ...lines,
      { type: 'message', message: { type: 'speech-update', status: 'started', role: 'assistant' } },
    ]);
    expect(state.captions.map((c) => [c.role, c.text])).toEqual([
      ['assistant', 'line 2'],
      ['user', 'line 3'],
      ['assistant', 'line 4'],
      ['user', 'line 5'],
    ]);
  });

  it('shows only the last characters of a very long transcript, after an ellipsis', () => {
    const long = `${'a'.repeat(500)} ${'b'.repeat(10_000)}`;
    const state = run([
      {
        type: 'message',
        message: { type: 'transcript', role: 'user', transcriptType: 'final', transcript: long },
      },
    ]);
    const text = state.captions[0]?.text ?? '';
    expect(text).toHaveLength(CAPTION_MAX_CHARS);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('b'.repeat(CAPTION_MAX_CHARS - 1))).toBe(true);
    expect(captionText(' short ')).toBe('short');
  });

  it('ignores transcripts that are malformed', () => {
    const state = run([
      {
        type: 'message',
        message: { type: 'transcript', role: 'system', transcriptType: 'final', transcript: 'x' },
      },
      {
        type: 'message',
        message: { type: 'transcript', role: 'user', transcriptType: 'final', transcript: 42 },
      },
      {
        type: 'message',
        message: { type: 'transcript', role: 'user', transcriptType: 'final', transcript: '  ' },
      },
    ]);
    expect(state.captions).toEqual([]);
  });

  it('clears the last call (captions, failure, mute) when a new call starts', () => {
    const state = run([
      { type: 'start-failed', error: { type: 'microphone-permission-denied', message: 'denied' } },
      { type: 'muted', muted: true },
      {
        type: 'message',
        message: { type: 'transcript', role: 'user', transcriptType: 'final', transcript: 'hi' },
      },
      { type: 'state-change', state: 'starting' },
    ]);
    expect(state).toMatchObject({
      failure: null,
      muted: false,
      captions: [],
      callState: 'starting',
    });
  });

  it('remembers when the visitor was last audible, above the threshold only', () => {
    const state = run([
      { type: 'local-volume-level', volume: 0.5, at: 100 },
      { type: 'local-volume-level', volume: 0.001, at: 200 },
    ]);
    expect(state.lastHeardAt).toBe(100);
  });

  it('tracks blocked audio until it resumes, and forgets it when the call is over', () => {
    expect(run([{ type: 'audio-blocked' }]).audioBlocked).toBe(true);
    expect(run([{ type: 'audio-blocked' }, { type: 'audio-resumed' }]).audioBlocked).toBe(false);
    expect(
      run([{ type: 'audio-blocked' }, { type: 'state-change', state: 'idle' }]).audioBlocked,
    ).toBe(false);
  });
});
