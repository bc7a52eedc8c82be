import type { CSSProperties, ReactNode, Ref } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { MicIcon, MicOffIcon } from '../../../components/ui/icons';
import { PRIVACY_ANCHOR, PRIVACY_LINK_TEXT, callNotice } from '../../../config/privacy';
// A file of its own, not inlined as the hero's art is: the Talk section is below the first screen
// on every viewport, and keeping these bytes out of the page keeps the page within two round
// trips of a new connection (`npm run budget`).
import avatarArt from '../../../assets/art/pepa-avatar.svg?no-inline';
import type { TalkPhase } from '../voice/voice-state';
import { PHASE_TEXT, lineText, type TalkLines } from '../status/talk-lines';

export { DOUBLE_TAP_MS } from './double-tap';

/** Intrinsic size of the avatar art. */
const AVATAR_SIZE = 240;

const DOT_CLASS: Record<TalkPhase, string> = {
  idle: 'bg-court-300 shadow-[0_0_10px_var(--color-court-300)]',
  waiting: 'bg-gold-300 shadow-[0_0_10px_var(--color-gold-300)]',
  connecting: 'bg-gold-300 shadow-[0_0_10px_var(--color-gold-300)] motion-safe:animate-pulse',
  listening: 'bg-court-300 shadow-[0_0_10px_var(--color-court-300)] motion-safe:animate-pulse',
  speaking: 'bg-gold-200 shadow-[0_0_12px_var(--color-gold-200)]',
  reconnecting: 'bg-gold-300 shadow-[0_0_10px_var(--color-gold-300)] motion-safe:animate-pulse',
  ending: 'bg-mist',
};

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
  /**
   * The lines to show (talk-lines.ts: the one place they are decided), during a live call. Without
   * them the panel shows the phase's own (the prerendered page, the chat still loading).
   */
  lines?: Pick<TalkLines, 'status' | 'hint' | 'mutedHint' | 'confirm'>;
  /** Whether calls are recorded: said in the notice beside Start Talking. */
  recording?: boolean;
  /** Whose turn it is (listening, thinking, speaking): drawn on the portrait. */
  turn?: string | null;
  /** Beside the status, which keeps the spec's text: whose turn it is (the lines' cue). */
  cue?: ReactNode;
  /** Beside the button: the other way to talk with Pepa (Write to Pepa), when offered. */
  secondary?: ReactNode;
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
  lines,
  resting: restingAsked = false,
  recording = false,
  turn = null,
  cue,
  secondary,
  children,
}: TalkPanelProps) {
  const { status, hint, mutedHint, confirm } = lines ?? {
    status: PHASE_TEXT[phase].status,
    hint: phase === 'waiting' && line ? lineText(line) : PHASE_TEXT[phase].hint,
    mutedHint: false,
    confirm: null,
  };
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
      {/* In a call Pepa is drawn smaller at every width, so the status, the controls, the latest
          captions and the field fit on one screen. */}
      <div
        data-turn={turn ?? undefined}
        className={`relative mx-auto grid aspect-square max-w-full place-items-center ${inCall ? 'mt-2 w-28 sm:mt-6 sm:w-36' : 'mt-10 w-48 sm:mt-10 sm:w-56'}`}
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
            className={`aspect-square max-w-full rounded-full bg-court-900 ${inCall ? 'w-24 sm:w-32' : 'w-40 sm:w-48'}`}
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
      {mutedHint ? (
        <p
          data-testid="muted-indicator"
          className="relative mt-2 flex min-h-6 items-center justify-center gap-1.5 text-sm font-semibold text-gold-200 sm:mt-4"
        >
          <MicOffIcon className="size-4" />
          {hint}
        </p>
      ) : (
        <p className={`relative min-h-6 text-mist sm:mt-4 ${inCall ? 'mt-2' : 'mt-4'}`}>{hint}</p>
      )}
      {inCall && (
        // Escape's question, said politely; the region is there from the call's start, so a
        // screen reader hears the question when it appears.
        <p
          aria-live="polite"
          data-testid="end-confirm"
          className={`relative text-sm font-semibold text-gold-100 ${confirm ? 'mt-2' : ''}`}
        >
          {confirm}
        </p>
      )}

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
