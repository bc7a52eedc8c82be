import type { CSSProperties, ReactNode, Ref } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { MicIcon, MicOffIcon } from '../../../components/ui/icons';
import { PRIVACY_ANCHOR, PRIVACY_LINK_TEXT, callNotice } from '../../../config/privacy';
// A file of its own, not inlined as the hero's art is: the Talk section is below the first screen
// on every viewport, and keeping these bytes out of the page keeps the page within two round
// trips of a new connection (`npm run budget`).
import avatarArt from '../../../assets/art/pepa-avatar.svg?no-inline';
import type { TalkPhase } from '../voice/voice-state';

export { DOUBLE_TAP_MS } from './double-tap';

/** Intrinsic size of the avatar art. */
const AVATAR_SIZE = 240;

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

const DOT_CLASS: Record<TalkPhase, string> = {
  idle: 'bg-court-300 shadow-[0_0_10px_var(--color-court-300)]',
  waiting: 'bg-gold-300 shadow-[0_0_10px_var(--color-gold-300)]',
  connecting: 'bg-gold-300 shadow-[0_0_10px_var(--color-gold-300)] motion-safe:animate-pulse',
  listening: 'bg-court-300 shadow-[0_0_10px_var(--color-court-300)] motion-safe:animate-pulse',
  speaking: 'bg-gold-200 shadow-[0_0_12px_var(--color-gold-200)]',
  reconnecting: 'bg-gold-300 shadow-[0_0_10px_var(--color-gold-300)] motion-safe:animate-pulse',
  ending: 'bg-mist',
};

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

export interface TalkPanelProps {
  phase: TalkPhase;
  /** While waiting: the visitor's place in line. */
  line?: { position: number; estimatedWaitSeconds: number } | null;
  onPrimary?: () => void;
  /** Assistant loudness 0..1, drawn as a glow around the avatar (still under reduced motion). */
  volume?: number;
  /** The 'Demo' badge: the demo build talks to the offline simulator, not the real Pepa. */
  demo?: boolean;
  primaryRef?: Ref<HTMLButtonElement>;
  /** The button and everything under it: what a toast must not cover. */
  controlsRef?: Ref<HTMLDivElement>;
  /** The button rests (stays focusable, ignores presses), e.g. while a retry must wait. */
  resting?: boolean;
  /** The visitor muted their microphone: said beside the status, which keeps the spec's text. */
  muted?: boolean;
  /** Whether calls are recorded: said in the notice beside Start Talking. */
  recording?: boolean;
  /** Whose turn it is (listening, thinking, speaking): drawn on the portrait. */
  turn?: string | null;
  /** Said beside the status, which keeps the spec's text: whose turn it is. */
  cue?: ReactNode;
  /** Beside the button: a second way to talk with Pepa (typing), when the section offers one. */
  secondary?: ReactNode;
  /**
   * Under the status and its hint, above the button: what stops a call right now (a blocked
   * microphone) and how to mend it, where the visitor's eyes already are when the start fails.
   */
  notice?: ReactNode;
  /** The call's controls under the button: controls, captions, notices (CallControls). */
  children?: ReactNode;
}

/** The notice's id, which describes the Start Talking button. */
export const CALL_NOTICE_ID = 'talk-call-notice';

/**
 * The Talk to Pepa panel: avatar, status, hint and the one button. The prerendered page shows it
 * idle; the voice chat, loaded on demand, renders the same view with live state.
 */
export function TalkPanel({
  phase,
  line = null,
  onPrimary,
  volume = 0,
  demo = false,
  primaryRef,
  controlsRef,
  muted = false,
  resting: restingAsked = false,
  recording = false,
  turn = null,
  cue,
  secondary,
  notice,
  children,
}: TalkPanelProps) {
  const { status, hint: phaseHint } = PHASE_TEXT[phase];
  const hint = phase === 'waiting' && line ? lineText(line) : phaseHint;
  const inCall = phase !== 'idle';
  const glow = phase === 'speaking' ? Math.min(1, Math.max(0, volume)) : 0;
  // While the call ends the button rests, but stays focusable: a disabled button would drop the
  // keyboard focus to the page, and the next Tab would skip 'Start Talking'.
  const resting = restingAsked || phase === 'ending';

  return (
    <div className="relative">
      {demo && (
        <span className="absolute top-0 right-0 rounded-full border border-gold-300/60 bg-court-950/80 px-3 py-1 font-display text-xs font-bold tracking-widest text-gold-200 uppercase sm:-top-8">
          Demo
        </span>
      )}
      {/* In a call, a phone shows a smaller Pepa, so the status, the controls and the latest
          captions fit on one screen. */}
      <div
        data-turn={turn ?? undefined}
        className={`relative mx-auto grid aspect-square max-w-full place-items-center sm:mt-10 sm:w-56 ${inCall ? 'mt-2 w-28' : 'mt-10 w-48'}`}
      >
        <span
          aria-hidden="true"
          className="absolute inset-0 rounded-full border border-gold-300/40 motion-safe:animate-halo"
        />
        <span
          aria-hidden="true"
          className="absolute inset-0 rounded-full border border-gold-300/30 motion-safe:animate-halo motion-safe:[animation-delay:1.6s]"
        />
        <span
          aria-hidden="true"
          data-testid="voice-glow"
          className="absolute -inset-3 rounded-full bg-gold-300/40 opacity-0 blur-xl transition-opacity duration-100"
          // Set only during a call, so the prerendered markup carries no inline style.
          style={glow > 0 ? { opacity: glow } : undefined}
        />
        <span
          data-portrait=""
          className="relative block max-w-[calc(100%-1rem)] rounded-full bg-linear-to-b from-gold-200 via-gold-400 to-gold-600 p-1.5 shadow-[0_0_60px_-10px_rgba(226,184,74,0.6)]"
          // Her voice level: the throat pulse (motion only) and the glow above follow it.
          style={glow > 0 ? ({ '--voice': glow } as CSSProperties) : undefined}
        >
          <img
            src={avatarArt}
            alt="Pepa, the frog queen"
            width={AVATAR_SIZE}
            height={AVATAR_SIZE}
            decoding="async"
            loading="lazy"
            className={`aspect-square max-w-full rounded-full bg-court-900 sm:w-48 ${inCall ? 'w-24' : 'w-40'}`}
          />
        </span>
      </div>

      <p
        role="status"
        aria-live="polite"
        data-phase={phase}
        className={`relative inline-flex items-center gap-2.5 rounded-full border border-court-500/60 bg-court-950/60 px-4 py-1.5 text-sm font-semibold text-court-300 sm:mt-8 ${inCall ? 'mt-4' : 'mt-8'}`}
      >
        <span aria-hidden="true" className={`size-2 rounded-full ${DOT_CLASS[phase]}`} />
        {status}
      </p>
      {cue}
      {muted && (
        <p
          data-testid="muted-indicator"
          className="relative mt-2 flex items-center justify-center gap-1.5 text-sm font-semibold text-gold-200"
        >
          <MicOffIcon className="size-4" />
          Muted: Pepa can&apos;t hear you
        </p>
      )}
      <p className={`relative min-h-6 text-mist sm:mt-4 ${inCall ? 'mt-2' : 'mt-4'}`}>{hint}</p>
      {notice}

      <div ref={controlsRef}>
        <button
          ref={primaryRef}
          type="button"
          data-early=""
          onClick={resting ? undefined : onPrimary}
          aria-disabled={resting || undefined}
          aria-describedby={inCall ? undefined : CALL_NOTICE_ID}
          className={buttonClass(
            inCall ? 'outline' : 'gold',
            'lg',
            `relative w-full max-w-52 sm:mt-8 sm:w-auto sm:max-w-none sm:min-w-52 aria-disabled:cursor-not-allowed aria-disabled:opacity-70 ${inCall ? 'mt-4' : 'mt-8'}`,
          )}
        >
          <MicIcon className="size-5" />
          {phase === 'waiting' ? 'Leave the line' : inCall ? 'End Call' : 'Start Talking'}
        </button>
        {secondary}
        {!inCall && (
          // Before the microphone opens: who processes the voice, and whether calls are kept.
          <p id={CALL_NOTICE_ID} className="relative mx-auto mt-4 max-w-sm text-xs text-mist">
            {callNotice(recording)}{' '}
            <a
              href={`#${PRIVACY_ANCHOR}`}
              className="text-gold-200 underline underline-offset-2 hover:text-gold-100"
            >
              {PRIVACY_LINK_TEXT}
            </a>
          </p>
        )}
        {children}
      </div>
    </div>
  );
}
