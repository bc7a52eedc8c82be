import { describe, expect, it } from 'vitest';
import type { TalkPhase } from '../voice/voice-state';
import {
  CUE_TEXT,
  LINES,
  PHASE_TEXT,
  talkLines,
  type Microphone,
  type TalkLines,
  type TalkSituation,
} from './talk-lines';

const PHASES: readonly TalkPhase[] = [
  'idle',
  'waiting',
  'connecting',
  'listening',
  'speaking',
  'reconnecting',
  'ending',
];
const MICROPHONES: readonly Microphone[] = ['open', 'muted', 'hold', 'holding'];
const FLAGS = [
  'offered',
  'chatOpen',
  'microphoneBlocked',
  'thinking',
  'quiet',
  'confirmingEnd',
] as const;

/** Every situation the panel can be in: each phase, microphone, place in line and flag. */
function* everySituation(): Generator<TalkSituation> {
  for (const phase of PHASES)
    for (const microphone of MICROPHONES)
      for (const line of [null, { position: 3, estimatedWaitSeconds: 40 }])
        for (let bits = 0; bits < 1 << FLAGS.length; bits += 1) {
          const situation: TalkSituation = { phase, microphone, line };
          FLAGS.forEach((flag, index) => {
            situation[flag] = (bits & (1 << index)) !== 0;
          });
          yield situation;
        }
}

function visible(lines: TalkLines): string[] {
  return [lines.status, lines.cue, lines.hint, lines.confirm].filter(
    (line): line is string => line !== null,
  );
}

/** A line that says Pepa hears the visitor now, without a condition. */
function saysHears(line: string): boolean {
  return /all ears|^Pepa hears you\.|can hear you now/.test(line);
}
/** A line that says she does not. */
function saysDeaf(line: string): boolean {
  return /can't hear you/.test(line);
}
/** A line that says she hears only on a condition (a hold, a tap). */
function saysHearsIf(line: string): boolean {
  return /hears you (only while|once)/.test(line);
}

/** Whether she really hears the visitor, from the situation alone. */
function truth(situation: TalkSituation): 'yes' | 'no' | 'if' {
  const connected = situation.phase === 'listening' || situation.phase === 'speaking';
  if (situation.phase === 'waiting' && situation.offered) return 'if';
  if (!connected) return 'no';
  if (situation.microphone === 'open' || situation.microphone === 'holding') return 'yes';
  return situation.microphone === 'hold' ? 'if' : 'no';
}

const label = (situation: TalkSituation) => JSON.stringify(situation);

describe('talkLines', () => {
  const all = [...everySituation()];

  it('walks every situation', () => {
    expect(all).toHaveLength(PHASES.length * MICROPHONES.length * 2 * 2 ** FLAGS.length);
  });

  it('never shows one line saying Pepa hears the visitor and another that she cannot', () => {
    for (const situation of all) {
      const lines = visible(talkLines(situation));
      const hears = lines.some(saysHears);
      const deaf = lines.some(saysDeaf);
      const hearsIf = lines.some(saysHearsIf);
      expect([hears, deaf, hearsIf].filter(Boolean).length, label(situation)).toBeLessThanOrEqual(
        1,
      );
    }
  });

  it('says only what is true about her hearing, and says the same in `hearing`', () => {
    for (const situation of all) {
      const result = talkLines(situation);
      const lines = visible(result);
      const real = truth(situation);
      if (real !== 'yes') expect(lines.some(saysHears), label(situation)).toBe(false);
      if (real !== 'no') expect(lines.some(saysDeaf), label(situation)).toBe(false);
      if (real !== 'if') expect(lines.some(saysHearsIf), label(situation)).toBe(false);
      const expected =
        situation.phase === 'idle' || (situation.phase === 'waiting' && !situation.offered)
          ? 'no-call'
          : real === 'if'
            ? situation.phase === 'waiting'
              ? 'after-tap'
              : 'while-holding'
            : real;
      expect(result.hearing, label(situation)).toBe(expected);
    }
  });

  it('asks to start talking only when no chat, call, line or failed microphone is on screen', () => {
    for (const situation of all) {
      const invites = visible(talkLines(situation)).includes(PHASE_TEXT.idle.hint ?? '');
      const free =
        situation.phase === 'idle' && !situation.chatOpen && !situation.microphoneBlocked;
      expect(invites, label(situation)).toBe(free);
    }
  });

  it('keeps the spec’s status in the spec’s states, whatever of ours is on top', () => {
    for (const situation of all) {
      const { status } = talkLines(situation);
      if (situation.phase === 'idle') expect(status).toBe('Ready to chat');
      if (situation.phase === 'listening') expect(status).toBe('Listening...');
      if (situation.phase === 'speaking') expect(status).toBe('Pepa is speaking...');
      if (status === 'Listening...') expect(situation.phase).toBe('listening');
    }
  });

  it('shows the spec’s texts exactly in the spec’s own states', () => {
    const spec = (phase: TalkPhase) => talkLines({ phase, microphone: 'open' });
    expect(spec('idle')).toMatchObject({
      status: 'Ready to chat',
      hint: 'Click the button below to start talking',
      cue: null,
    });
    expect(spec('listening')).toMatchObject({
      status: 'Listening...',
      hint: 'Speak naturally, Pepa is all ears',
    });
    expect(spec('speaking')).toMatchObject({ status: 'Pepa is speaking...', hint: null });
  });

  it('reads each of our states as the README says', () => {
    const read = (situation: TalkSituation) => visible(talkLines(situation));
    expect(read({ phase: 'listening', microphone: 'muted' })).toEqual([
      'Listening...',
      CUE_TEXT.yourTurn,
      "Muted: Pepa can't hear you",
    ]);
    expect(read({ phase: 'speaking', microphone: 'muted' })).toEqual([
      'Pepa is speaking...',
      LINES.muted,
    ]);
    expect(read({ phase: 'listening', microphone: 'hold' })).toEqual([
      'Listening...',
      CUE_TEXT.yourTurn,
      'Pepa hears you only while you hold. Release to send.',
    ]);
    expect(read({ phase: 'listening', microphone: 'holding' })).toEqual([
      'Listening...',
      CUE_TEXT.yourTurn,
      'Pepa hears you. Release to send.',
    ]);
    expect(read({ phase: 'speaking', microphone: 'hold' })).toEqual(['Pepa is speaking...']);
    expect(read({ phase: 'listening', microphone: 'muted', thinking: true })).toEqual([
      'Listening...',
      'Pepa is thinking...',
      "Muted: Pepa can't hear you",
    ]);
    expect(read({ phase: 'idle', microphone: 'open', chatOpen: true })).toEqual([
      'Ready to chat',
      'Pepa reads what you write',
    ]);
    expect(
      read({
        phase: 'waiting',
        microphone: 'open',
        chatOpen: true,
        line: { position: 2, estimatedWaitSeconds: 30 },
      }),
    ).toEqual(['Pepa is with other guests.', "You're 2nd in line — about 30 s."]);
    expect(read({ phase: 'waiting', microphone: 'open', chatOpen: true, offered: true })).toEqual([
      'Your turn has come.',
      'Pepa hears you once you take your turn',
    ]);
    expect(read({ phase: 'listening', microphone: 'open', confirmingEnd: true })).toContain(
      'End the call? Press Escape again or End Call.',
    );
    expect(read({ phase: 'waiting', microphone: 'open', confirmingEnd: true })).toContain(
      'Leave the line? Press Escape again or Leave the line.',
    );
    expect(talkLines({ phase: 'idle', microphone: 'open', confirmingEnd: true }).confirm).toBe(
      null,
    );
  });
});
