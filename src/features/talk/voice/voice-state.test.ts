import { describe, expect, it } from 'vitest';
import {
  CAPTION_MAX_CHARS,
  captionText,
  initialVoiceState,
  transcriptAfterCall,
  transcriptText,
  phaseOf,
  voiceReducer,
  type VoiceAction,
} from './voice-state';

function run(actions: VoiceAction[], from = initialVoiceState) {
  return actions.reduce(voiceReducer, from);
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
  it('keeps every final entry of both sides, and what each side is saying as it forms', () => {
    const transcript = (
      role: 'user' | 'assistant',
      transcriptType: 'partial' | 'final',
      text: string,
    ): VoiceAction => ({
      type: 'message',
      message: { type: 'transcript', role, transcriptType, transcript: text },
    });
    let state = run([
      { type: 'state-change', state: 'starting' },
      transcript('assistant', 'partial', 'Ribbit! Wel'),
      transcript('user', 'partial', 'Hel'),
    ]);
    expect(state.partials).toEqual({ assistant: 'Ribbit! Wel', user: 'Hel' });
    expect(state.transcript).toEqual([]);
    const more: VoiceAction[] = [
      transcript('assistant', 'final', ' Ribbit! Welcome. '),
      { type: 'message', message: { type: 'speech-update', status: 'started', role: 'user' } },
      transcript('user', 'final', 'Hello Pepa!'),
      { type: 'typed', text: '  Should I buy? ' },
    ];
    state = more.reduce(voiceReducer, state);
    expect(state.partials).toEqual({ assistant: null, user: null });
    expect(state.transcript.map(({ role, text, typed }) => [role, text, typed ?? false])).toEqual([
      ['assistant', 'Ribbit! Welcome.', false],
      ['user', 'Hello Pepa!', false],
      ['user', 'Should I buy?', true],
    ]);
    expect(transcriptText(state.transcript)).toBe(
      'Pepa: Ribbit! Welcome.\nYou: Hello Pepa!\nYou: Should I buy?',
    );
  });

  it('keeps the transcript after the call ends, until the next call starts', () => {
    const said: VoiceAction = {
      type: 'message',
      message: { type: 'transcript', role: 'user', transcriptType: 'final', transcript: 'hi' },
    };
    const ended = run([
      { type: 'state-change', state: 'starting' },
      said,
      { type: 'call-end' },
      { type: 'state-change', state: 'idle' },
    ]);
    expect(ended.transcript.map((line) => line.text)).toEqual(['hi']);
    const next = voiceReducer(ended, { type: 'state-change', state: 'starting' });
    expect(next.transcript).toEqual([]);
  });

  it('keeps every entry of a very long call, its first (the greeting) included', () => {
    const greeting: VoiceAction = {
      type: 'message',
      message: {
        type: 'transcript',
        role: 'assistant',
        transcriptType: 'final',
        transcript: 'Ribbit! Welcome to my court.',
      },
    };
    const lines = Array.from({ length: 800 }, (_, index): VoiceAction => ({
      type: 'typed',
      text: `line ${index}`,
    }));
    const state = run([greeting, ...lines]);
    expect(state.transcript).toHaveLength(801);
    expect(state.transcript[0]?.text).toBe('Ribbit! Welcome to my court.');
    const text = transcriptText(state.transcript).split('\n');
    expect(text).toHaveLength(801);
    expect(text[0]).toBe('Pepa: Ribbit! Welcome to my court.');
    expect(text.at(-1)).toBe('You: line 799');
  });

  it("keeps the last call's transcript through a start that is refused, until a call really starts", () => {
    const said: VoiceAction = {
      type: 'message',
      message: { type: 'transcript', role: 'user', transcriptType: 'final', transcript: 'hi' },
    };
    const ended = run([
      { type: 'state-change', state: 'starting' },
      { type: 'call-start', at: 1 },
      said,
      { type: 'call-end' },
      { type: 'state-change', state: 'idle' },
    ]);
    // Pressed again: the provider refuses (429), and the start ends without a call.
    const refused = [
      { type: 'state-change', state: 'starting' },
      {
        type: 'start-failed',
        error: { type: 'web-call-creation-error', kind: 'http', status: 429, message: 'busy' },
      },
      { type: 'state-change', state: 'ending' },
      { type: 'state-change', state: 'idle' },
    ] satisfies VoiceAction[];
    const afterRefusal = refused.reduce(voiceReducer, ended);
    expect(transcriptAfterCall(afterRefusal).map((line) => line.text)).toEqual(['hi']);
    // Refused twice: still kept.
    const twice = refused.reduce(voiceReducer, afterRefusal);
    expect(transcriptAfterCall(twice).map((line) => line.text)).toEqual(['hi']);
    // A call that really starts begins a transcript of its own.
    const started = run(
      [
        { type: 'state-change', state: 'starting' },
        { type: 'state-change', state: 'started' },
        { type: 'call-start', at: 2 },
        { type: 'call-end' },
        { type: 'state-change', state: 'idle' },
      ],
      twice,
    );
    expect(transcriptAfterCall(started)).toEqual([]);
  });

  it('follows the connection quality the room reports', () => {
    const state = run([{ type: 'network-quality', quality: 'bad' }]);
    expect(state.networkQuality).toBe('bad');
    expect(voiceReducer(state, { type: 'state-change', state: 'idle' }).networkQuality).toBe(
      'unknown',
    );
  });

  it('shows only the last characters of a very long transcript, after an ellipsis', () => {
    const long = `${'a'.repeat(500)} ${'b'.repeat(10_000)}`;
    const state = run([
      {
        type: 'message',
        message: { type: 'transcript', role: 'user', transcriptType: 'final', transcript: long },
      },
    ]);
    const text = captionText(state.transcript[0]?.text ?? '');
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
    expect(state.transcript).toEqual([]);
    expect(state.partials).toEqual({ user: null, assistant: null });
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
      transcript: [],
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
