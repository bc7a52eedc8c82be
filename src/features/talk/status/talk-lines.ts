/**
 * What the Talk panel says, from one place: the status line, the cue beside it, the hint under
 * it, and the question Escape asks. Every line about whether Pepa can hear the visitor comes from
 * `talkLines`, so no two lines on screen can disagree. The spec's status and hint stay word for
 * word in the spec's states (idle, connected, assistant speaking, with nothing of ours on top);
 * where a state of ours meets them (muted, hold to talk, a turn offered, a text chat open, a
 * blocked microphone), the spec's status stays and our hint makes the screen true.
 */
import type { TalkPhase } from '../voice/voice-state';

/** Status line and hint per phase: the idle, connected and speaking texts are the spec's. */
export const PHASE_TEXT: Record<TalkPhase, { status: string; hint: string | null }> = {
  idle: { status: 'Ready to chat', hint: 'Click the button below to start talking' },
  // Pepa takes a few guests at a time: the place in line is said beside it (lineText).
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

/** Our lines, where a state of ours meets the spec's. */
export const LINES = {
  muted: "Muted: Pepa can't hear you",
  holdReleased: 'Pepa hears you only while you hold. Release to send.',
  holding: 'Pepa hears you. Release to send.',
  quietMicrophone:
    'Pepa hears nothing from your microphone. Check that it is connected and not muted.',
  chatOpen: 'Pepa reads what you write',
  microphoneBlocked: "Without the microphone Pepa can't hear you: write to her instead",
  offeredStatus: 'Your turn has come.',
  offered: 'Pepa hears you once you take your turn',
  confirmEnd: 'End the call? Press Escape again or End Call.',
  confirmLeave: 'Leave the line? Press Escape again or Leave the line.',
} as const;

/** Whose turn it is, beside the status: the visitor's, or Pepa thinking of her answer. */
export const CUE_TEXT = {
  yourTurn: 'Your turn',
  thinking: 'Pepa is thinking...',
} as const;

/** How the visitor's microphone is set in a call. */
export type Microphone =
  /** Open: Pepa hears the visitor. */
  | 'open'
  /** The visitor pressed Mute. */
  | 'muted'
  /** Hold to talk, not held now. */
  | 'hold'
  /** Hold to talk, held now. */
  | 'holding';

/** Everything the panel's lines depend on. */
export interface TalkSituation {
  phase: TalkPhase;
  microphone: Microphone;
  /** While waiting: the visitor's place in line. */
  line?: { position: number; estimatedWaitSeconds: number } | null;
  /** A place in line is held for the visitor chatting, for their tap. */
  offered?: boolean;
  /** The text chat is open (no call). */
  chatOpen?: boolean;
  /** The last start failed because the microphone is blocked or missing. */
  microphoneBlocked?: boolean;
  /** Pepa is thinking of her answer (the visitor stopped, or sent a line). */
  thinking?: boolean;
  /** The open microphone has been silent for a while. */
  quiet?: boolean;
  /** Escape was pressed once: the panel asks before it ends the call or leaves the line. */
  confirmingEnd?: boolean;
}

/** Whether Pepa hears the visitor's microphone now. */
export type Hearing =
  /** No call, nothing to hear with. */
  | 'no-call'
  | 'yes'
  | 'no'
  /** Only while the hold button (or Space) is held. */
  | 'while-holding'
  /** A place is offered: once the visitor takes it. */
  | 'after-tap';

export interface TalkLines {
  status: string;
  /** Beside the status, during a call: whose turn it is. */
  cue: string | null;
  /** Under the status. */
  hint: string | null;
  /** The hint is the muted line (drawn with the microphone-off icon). */
  mutedHint: boolean;
  /** Escape's question, said politely. */
  confirm: string | null;
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

function hearingOf(phase: TalkPhase, microphone: Microphone, offered: boolean): Hearing {
  if (phase === 'waiting') return offered ? 'after-tap' : 'no-call';
  if (phase === 'idle') return 'no-call';
  if (phase !== 'listening' && phase !== 'speaking') return 'no';
  switch (microphone) {
    case 'open':
    case 'holding':
      return 'yes';
    case 'hold':
      return 'while-holding';
    case 'muted':
      return 'no';
  }
}

/** The hint before and around a call (no microphone in use). */
function hintOutsideCall(situation: TalkSituation): string | null {
  const { phase } = situation;
  switch (phase) {
    case 'idle':
      if (situation.chatOpen) return LINES.chatOpen;
      if (situation.microphoneBlocked) return LINES.microphoneBlocked;
      return PHASE_TEXT.idle.hint;
    case 'waiting':
      if (situation.offered) return LINES.offered;
      return situation.line ? lineText(situation.line) : null;
    default:
      return PHASE_TEXT[phase].hint;
  }
}

/** The hint while connected: the spec's, unless the microphone is set otherwise. */
function hintInCall(phase: 'listening' | 'speaking', situation: TalkSituation): string | null {
  switch (situation.microphone) {
    // Said whoever speaks: the visitor must not think Pepa hears them.
    case 'muted':
      return LINES.muted;
    // A hold interrupts Pepa as speech would: said whoever speaks.
    case 'holding':
      return LINES.holding;
    // The way to talk, when it is the visitor's turn; while Pepa speaks, the spec's silence.
    case 'hold':
      return phase === 'listening' ? LINES.holdReleased : null;
    case 'open':
      if (phase === 'speaking') return PHASE_TEXT.speaking.hint;
      return situation.quiet ? LINES.quietMicrophone : PHASE_TEXT.listening.hint;
  }
}

/** The panel's lines for one situation: the one place they are decided. */
export function talkLines(situation: TalkSituation): TalkLines {
  const { phase, microphone } = situation;
  const offered = phase === 'waiting' && situation.offered === true;
  const connected = phase === 'listening' || phase === 'speaking';
  const status = offered ? LINES.offeredStatus : PHASE_TEXT[phase].status;
  const hint = connected ? hintInCall(phase, situation) : hintOutsideCall(situation);
  const cue =
    phase === 'listening' ? (situation.thinking ? CUE_TEXT.thinking : CUE_TEXT.yourTurn) : null;
  const asking = situation.confirmingEnd === true && phase !== 'idle' && phase !== 'ending';
  return {
    status,
    cue,
    hint,
    mutedHint: hint === LINES.muted,
    confirm: asking ? (phase === 'waiting' ? LINES.confirmLeave : LINES.confirmEnd) : null,
    hearing: hearingOf(phase, microphone, offered),
  };
}
