import { describe, expect, it } from 'vitest';
import type { TalkPhase } from '../voice/voice-state';
import {
  CUE_TEXT,
  HINTS,
  PHASE_TEXT,
  QUESTIONS,
  lineText,
  ordinal,
  panelTexts,
  waitText,
  type Microphone,
  type PanelTexts,
  type TalkSituation,
} from './panel-texts';

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
const FLAGS = ['offered', 'chatOpen', 'microphoneBlocked', 'thinking', 'quiet', 'asking'] as const;

/** Every situation the panel can be in: each phase, microphone and combination of flags. */
function everySituation(): TalkSituation[] {
  const all: TalkSituation[] = [];
  for (const phase of PHASES) {
    for (const microphone of MICROPHONES) {
      for (let bits = 0; bits < 1 << FLAGS.length; bits += 1) {
        const situation: TalkSituation = { phase, microphone };
        FLAGS.forEach((flag, index) => {
          situation[flag] = (bits & (1 << index)) !== 0;
        });
        all.push(situation, { ...situation, line: { position: 3, estimatedWaitSeconds: 40 } });
      }
    }
  }
  return all;
}

/** Every text the panel shows of these, as the visitor reads them together. */
const shown = (texts: PanelTexts) =>
  [texts.status, texts.cue?.text, texts.hint, texts.question].filter(
    (shownText): shownText is string => typeof shownText === 'string',
  );

describe('panelTexts, walked through every state', () => {
  const situations = everySituation();

  it('covers every phase with each microphone and each combination of the flags', () => {
    expect(situations).toHaveLength(PHASES.length * MICROPHONES.length * 2 ** FLAGS.length * 2);
  });

  it('keeps the spec’s status word for word in every state', () => {
    for (const situation of situations) {
      expect(panelTexts(situation).status).toBe(PHASE_TEXT[situation.phase].status);
    }
  });

  it('never says Pepa hears the visitor unless she does, nor that she cannot when she does', () => {
    for (const situation of situations) {
      const texts = panelTexts(situation);
      for (const shownText of shown(texts)) {
        if (/Pepa hears you(?! only while)/.test(shownText)) {
          expect({ situation, shownText, hearing: texts.hearing }).toMatchObject({
            hearing: 'yes',
          });
        }
        if (/can't hear you/.test(shownText)) {
          expect({ situation, shownText, hearing: texts.hearing }).not.toMatchObject({
            hearing: 'yes',
          });
        }
      }
    }
  });

  it('says muted, and never "Pepa hears you", whenever a connected visitor is muted', () => {
    for (const situation of situations) {
      if (situation.microphone !== 'muted') continue;
      if (situation.phase !== 'listening' && situation.phase !== 'speaking') continue;
      const texts = panelTexts(situation);
      expect(texts.hint).toBe(HINTS.muted);
      expect(texts.mutedHint).toBe(true);
      expect(texts.hearing).toBe('no');
      expect(texts.cue?.text).not.toBe(CUE_TEXT.hears);
    }
  });

  it('shows the muted hint only to a connected, muted visitor', () => {
    for (const situation of situations) {
      const texts = panelTexts(situation);
      const connected = situation.phase === 'listening' || situation.phase === 'speaking';
      expect(texts.mutedHint).toBe(connected && situation.microphone === 'muted');
    }
  });

  it('gives a cue only while connected, and one that agrees with whose turn it is', () => {
    for (const situation of situations) {
      const { cue } = panelTexts(situation);
      if (situation.phase === 'speaking')
        expect(cue).toEqual({ turn: 'speaking', text: 'Pepa answers' });
      else if (situation.phase !== 'listening') expect(cue).toBeNull();
      else if (situation.thinking)
        expect(cue).toEqual({ turn: 'thinking', text: CUE_TEXT.thinking });
      else expect(cue?.turn).toBe('listening');
    }
  });

  it('asks before ending in a call, before leaving in line, and never when there is nothing to end', () => {
    for (const situation of situations) {
      const { question } = panelTexts(situation);
      if (!situation.asking || situation.phase === 'idle' || situation.phase === 'ending') {
        expect(question).toBeNull();
      } else {
        expect(question).toBe(situation.phase === 'waiting' ? QUESTIONS.leave : QUESTIONS.end);
      }
    }
  });
});

describe("panelTexts in the spec's states", () => {
  it('idle: Ready to chat, and the way to start', () => {
    expect(panelTexts({ phase: 'idle', microphone: 'open' })).toEqual({
      status: 'Ready to chat',
      cue: null,
      hint: 'Click the button below to start talking',
      mutedHint: false,
      question: null,
      hearing: 'no-call',
    });
  });

  it('connected: Listening..., the spec’s hint, and Pepa hears you', () => {
    expect(panelTexts({ phase: 'listening', microphone: 'open' })).toEqual({
      status: 'Listening...',
      cue: { turn: 'listening', text: 'Pepa hears you' },
      hint: 'Speak naturally, Pepa is all ears',
      mutedHint: false,
      question: null,
      hearing: 'yes',
    });
  });

  it('assistant speaking: Pepa is speaking..., and no hint', () => {
    const texts = panelTexts({ phase: 'speaking', microphone: 'open' });
    expect(texts.status).toBe('Pepa is speaking...');
    expect(texts.hint).toBeNull();
  });
});

describe("panelTexts in the site's own states", () => {
  it('hold to talk: the way to talk on her turn, and that she hears while held', () => {
    const released = panelTexts({ phase: 'listening', microphone: 'hold' });
    expect(released).toMatchObject({ hint: HINTS.hold, hearing: 'while-holding' });
    expect(released.cue?.text).toBe(CUE_TEXT.yourTurn);
    expect(panelTexts({ phase: 'speaking', microphone: 'hold' }).hint).toBeNull();
    expect(panelTexts({ phase: 'speaking', microphone: 'holding' })).toMatchObject({
      hint: HINTS.holding,
      hearing: 'yes',
    });
  });

  it('a quiet microphone: said in place of the spec’s hint, and not claimed heard', () => {
    const texts = panelTexts({ phase: 'listening', microphone: 'open', quiet: true });
    expect(texts).toMatchObject({ hint: HINTS.quiet, hearing: 'no' });
    expect(texts.cue?.text).toBe(CUE_TEXT.yourTurn);
  });

  it('a blocked microphone, the chat open, a turn offered, the place in line', () => {
    expect(panelTexts({ phase: 'idle', microphone: 'open', microphoneBlocked: true }).hint).toBe(
      HINTS.microphoneBlocked,
    );
    expect(panelTexts({ phase: 'idle', microphone: 'open', chatOpen: true }).hint).toBe(
      HINTS.chatOpen,
    );
    const line = { position: 12, estimatedWaitSeconds: 40 };
    expect(panelTexts({ phase: 'waiting', microphone: 'open', line }).hint).toBe(
      "You're 12th in line — about 40 s.",
    );
    expect(panelTexts({ phase: 'waiting', microphone: 'open', line, offered: true }).hint).toBe(
      HINTS.offered,
    );
  });

  it('says the place in line in words', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 112].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '112th',
    ]);
    expect([0, 12, 89, 90, 200].map(waitText)).toEqual(['5 s', '10 s', '90 s', '2 min', '3 min']);
    expect(lineText({ position: 1, estimatedWaitSeconds: 8 })).toBe("You're next — about 10 s.");
  });
});
