/**
 * What the Talk panel says about the call, decided in one place: the status, the cue beside it,
 * the hint under it and the question Escape asks. Every text about whether Pepa hears the visitor
 * comes from `panelTexts`, so no two texts on screen can disagree (muted and "Pepa hears you" are
 * never shown together). The spec's status and hint stay word for word in the spec's states
 * (idle, connected, assistant speaking); where a state of the site's meets them (muted, hold to
 * talk, a quiet or blocked microphone, a turn offered, the text chat open), the spec's status
 * stays and the site's hint and cue make the screen true.
 */
import type { TalkPhase } from '../voice/voice-state';

/** Status and hint per phase: the idle, connected and speaking texts are the spec's. */
export const PHASE_TEXT: Record<TalkPhase, { status: string; hint: string | null }> = {
  idle: { status: 'Ready to chat', hint: 'Click the button below to start talking' },
  // Pepa takes a few guests at a time: the place in line is said in the hint (lineText).
  waiting: { status: 'Pepa is with other guests.', hint: null },
  connecting: {
    status: 'Connecting to Pepa...',
    hint: 'Allow the microphone if your browser asks',
  },
  listening: { status: 'Listening...', hint: 'Speak naturally, Pepa is all ears' },
  speaking: { status: 'Pepa is speaking...', hint: null },
  reconnecting: {
    status: 'Reconnecting to Pepa...',
    hint: 'The connection dropped. Hold on while it comes back',
  },
  ending: { status: 'Ending the call...', hint: null },
};

/** The site's hints, where a state of the site's meets the spec's. */
export const HINTS = {
  muted: "Muted: Pepa can't hear you",
  hold: 'Pepa hears you only while you hold. Release to send.',
  holding: 'Pepa hears you. Release to send.',
  quiet: "We can't hear you. Check that your microphone is connected and not muted.",
  microphoneBlocked: "Pepa can't hear you until the microphone is allowed. Write to her meanwhile.",
  chatOpen: 'Pepa reads what you write',
  offered: 'Your turn has come: take it below to talk to Pepa',
} as const;

/** The cue beside the status, during a connected call: whose turn it is. */
export const CUE_TEXT = {
  /** The visitor's turn, and Pepa hears the microphone. */
  hears: 'Pepa hears you',
  /** The visitor's turn, but the microphone does not reach her now (muted, hold, quiet). */
  yourTurn: 'Your turn',
  thinking: 'Pepa is thinking...',
  speaking: 'Pepa answers',
} as const;

/** Escape's question, said politely; End Call (or Leave the line) is the yes. */
export const QUESTIONS = {
  end: 'End the call? Press Escape again, or End Call.',
  leave: 'Leave the line? Press Escape again, or Leave the line.',
} as const;

/** How the visitor's microphone is set during a call. */
export type Microphone =
  /** Open: what the visitor says reaches Pepa. */
  | 'open'
  /** The visitor pressed Mute. */
  | 'muted'
  /** Hold to talk, not held now. */
  | 'hold'
  /** Hold to talk, held now. */
  | 'holding';

/** Everything the panel's texts depend on. */
export interface TalkSituation {
  phase: TalkPhase;
  microphone: Microphone;
  /** While waiting: the visitor's place in line. */
  line?: { position: number; estimatedWaitSeconds: number } | null;
  /** A place in line is held for the visitor (who is chatting), for their tap. */
  offered?: boolean;
  /** The text chat is open. */
  chatOpen?: boolean;
  /** The last start failed because the microphone is blocked or missing. */
  microphoneBlocked?: boolean;
  /** Pepa is thinking of her answer (the visitor stopped, or sent a message). */
  thinking?: boolean;
  /** The open microphone has been silent for a while. */
  quiet?: boolean;
  /** Escape was pressed once: the panel asks before it ends the call or leaves the line. */
  asking?: boolean;
}

/** Whether what the visitor says reaches Pepa now. */
export type Hearing =
  /** No call: nothing to hear with. */
  | 'no-call'
  | 'yes'
  | 'no'
  /** Only while the hold button (or Space) is held. */
  | 'while-holding';

/** Whose turn the cue shows; drawn on the portrait too. */
export type Turn = 'listening' | 'thinking' | 'speaking';

export interface PanelTexts {
  /** The status: the spec's words for the phase. */
  status: string;
  /** Beside the status, while connected: whose turn it is, in words that agree with `hearing`. */
  cue: { turn: Turn; text: string } | null;
  /** Under the status. */
  hint: string | null;
  /** The hint says the visitor is muted (drawn with the microphone-off icon). */
  mutedHint: boolean;
  /** Escape's question, while it is asked. */
  question: string | null;
  hearing: Hearing;
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** About how long: seconds up to a minute and a half, then minutes. */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${Math.max(5, Math.round(seconds / 5) * 5)} s`;
  return `${Math.round(seconds / 60)} min`;
}

/** "You're 12th in line — about 40 s." */
export function lineText(place: { position: number; estimatedWaitSeconds: number }): string {
  if (place.position <= 1) return `You're next — about ${waitText(place.estimatedWaitSeconds)}.`;
  return `You're ${ordinal(place.position)} in line — about ${waitText(place.estimatedWaitSeconds)}.`;
}

function hearingOf({ phase, microphone, quiet }: TalkSituation): Hearing {
  if (phase === 'idle' || phase === 'waiting') return 'no-call';
  if (phase !== 'listening' && phase !== 'speaking') return 'no';
  switch (microphone) {
    case 'open':
      // A silent microphone may be unplugged or muted by the device: not claimed to be heard.
      return quiet ? 'no' : 'yes';
    case 'holding':
      return 'yes';
    case 'hold':
      return 'while-holding';
    case 'muted':
      return 'no';
  }
}

/** The hint before a call, in line, or while one starts or ends. */
function hintOutsideCall(situation: TalkSituation): string | null {
  const { phase } = situation;
  if (phase === 'idle') {
    if (situation.microphoneBlocked) return HINTS.microphoneBlocked;
    if (situation.chatOpen) return HINTS.chatOpen;
    return PHASE_TEXT.idle.hint;
  }
  if (phase === 'waiting') {
    if (situation.offered) return HINTS.offered;
    return situation.line ? lineText(situation.line) : null;
  }
  return PHASE_TEXT[phase].hint;
}

/** The hint while connected: the spec's, unless the microphone is set otherwise. */
function hintInCall(phase: 'listening' | 'speaking', situation: TalkSituation): string | null {
  switch (situation.microphone) {
    // Said whoever speaks: the visitor must never think Pepa hears them.
    case 'muted':
      return HINTS.muted;
    // A hold interrupts Pepa as speech would: said whoever speaks.
    case 'holding':
      return HINTS.holding;
    // The way to talk, on the visitor's turn; while Pepa speaks, the spec's silence.
    case 'hold':
      return phase === 'listening' ? HINTS.hold : null;
    case 'open':
      if (phase === 'speaking') return PHASE_TEXT.speaking.hint;
      return situation.quiet ? HINTS.quiet : PHASE_TEXT.listening.hint;
  }
}

function cueOf(phase: TalkPhase, hearing: Hearing, thinking: boolean): PanelTexts['cue'] {
  if (phase === 'speaking') return { turn: 'speaking', text: CUE_TEXT.speaking };
  if (phase !== 'listening') return null;
  if (thinking) return { turn: 'thinking', text: CUE_TEXT.thinking };
  return { turn: 'listening', text: hearing === 'yes' ? CUE_TEXT.hears : CUE_TEXT.yourTurn };
}

/**
 * The panel's texts for one situation of the call: the one place they are decided. Pure, so the
 * Talk panel, its tests and anything else that speaks of the call (a docked bar) say the same.
 */
export function panelTexts(situation: TalkSituation): PanelTexts {
  const { phase } = situation;
  const hearing = hearingOf(situation);
  const hint =
    phase === 'listening' || phase === 'speaking'
      ? hintInCall(phase, situation)
      : hintOutsideCall(situation);
  const asking = situation.asking === true && phase !== 'idle' && phase !== 'ending';
  return {
    status: PHASE_TEXT[phase].status,
    cue: cueOf(phase, hearing, situation.thinking === true),
    hint,
    mutedHint: hint === HINTS.muted,
    question: asking ? (phase === 'waiting' ? QUESTIONS.leave : QUESTIONS.end) : null,
    hearing,
  };
}
