import { useRef, type CSSProperties, type ReactNode, type Ref } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { MicIcon, MicOffIcon } from '../../../components/ui/icons';
import { PRIVACY_ANCHOR, PRIVACY_LINK_TEXT, callNotice } from '../../../config/privacy';
// A file of its own, not inlined as the hero's art is: the Talk section is below the first screen
// on every viewport, and keeping these bytes out of the page keeps the page within two round
// trips of a new connection (`npm run budget`).
import avatarArt from '../../../assets/art/pepa-avatar.svg?no-inline';
import type { TalkPhase } from '../voice/voice-state';
import { TurnCueLabel } from '../controls/turn-cue-label';
import { useCallViewInViewOnPress } from '../status/call-in-view';
import { panelTexts, type PanelTexts } from '../status/panel-texts';

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
  /** The button and everything under it. */
  controlsRef?: Ref<HTMLDivElement>;
  /** The button rests (stays focusable, ignores presses), e.g. while a retry must wait. */
  resting?: boolean;
  /** Whether calls are recorded: said in the notice beside Start Talking. */
  recording?: boolean;
  /**
   * What the panel says (panel-texts.ts, the one place it is decided): the status, the cue, the
   * hint and Escape's question. Without it, the phase's own texts.
   */
  texts?: PanelTexts;
  /**
   * The panel keeps the call's room: the compact layout of a call (a smaller Pepa, the section's
   * intro put away), during a call and, after it, while the panel holds what the call left (its
   * rating, its transcript, why it failed), so those take the place the call's controls had.
   * A call's phase by default.
   */
  callRoom?: boolean;
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
 * idle; the call view, loaded on demand, renders the same view with live state.
 */
export function TalkPanel({
  phase,
  line = null,
  onPrimary,
  volume = 0,
  demo = false,
  primaryRef,
  controlsRef,
  resting: restingAsked = false,
  recording = false,
  texts: textsGiven,
  callRoom,
  secondary,
  notice,
  children,
}: TalkPanelProps) {
  const texts = textsGiven ?? panelTexts({ phase, microphone: 'open', line });
  const inCall = phase !== 'idle';
  const room = callRoom ?? inCall;
  const statusRef = useRef<HTMLParagraphElement>(null);
  useCallViewInViewOnPress(room, statusRef);
  const glow = phase === 'speaking' ? Math.min(1, Math.max(0, volume)) : 0;
  // While the call ends the button rests, but stays focusable: a disabled button would drop the
  // keyboard focus to the page, and the next Tab would skip 'Start Talking'.
  const resting = restingAsked || phase === 'ending';

  const hintClass = `relative min-h-6 sm:mt-4 ${room ? 'mt-2' : 'mt-4'}`;

  return (
    <div className="relative" data-call-room={room ? '' : undefined}>
      {demo && (
        <span className="absolute top-0 right-0 rounded-full border border-gold-300/60 bg-court-950/80 px-3 py-1 font-display text-xs font-bold tracking-widest text-gold-200 uppercase sm:-top-8">
          Demo
        </span>
      )}
      {/* In the call's room, a phone shows a smaller Pepa, so the status, the controls and the
          latest captions fit on one screen, and after the call its rating and transcript. */}
      <div
        data-turn={texts.cue?.turn}
        className={`relative mx-auto grid aspect-square max-w-full place-items-center sm:mt-10 sm:w-56 ${room ? 'mt-2 w-28' : 'mt-10 w-48'}`}
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
            className={`aspect-square max-w-full rounded-full bg-court-900 sm:w-48 ${room ? 'w-24' : 'w-40'}`}
          />
        </span>
      </div>

      <p
        ref={statusRef}
        role="status"
        aria-live="polite"
        data-phase={phase}
        // What a press brings into view starts below the toasts' lane (call-in-view.ts).
        className={`relative inline-flex scroll-mt-[calc(var(--toast-lane-end)_-_4rem)] items-center gap-2.5 rounded-full border border-court-500/60 bg-court-950/60 px-4 py-1.5 text-sm font-semibold text-court-300 sm:mt-8 ${room ? 'mt-4' : 'mt-8'}`}
      >
        <span aria-hidden="true" className={`size-2 rounded-full ${DOT_CLASS[phase]}`} />
        {texts.status}
      </p>
      {room && <TurnCueLabel cue={texts.cue} />}
      {/* Escape's question, in the hint's place while it is asked; the region is there from the
          call's start, so a screen reader hears the question when it comes. */}
      {inCall && (
        <p
          aria-live="polite"
          data-testid="escape-question"
          className={texts.question ? `${hintClass} font-semibold text-gold-100` : 'sr-only'}
        >
          {texts.question}
        </p>
      )}
      {texts.question === null &&
        (texts.mutedHint ? (
          <p
            data-testid="muted-indicator"
            className={`${hintClass} flex items-center justify-center gap-1.5 text-sm font-semibold text-gold-200`}
          >
            <MicOffIcon className="size-4" />
            {texts.hint}
          </p>
        ) : (
          <p className={`${hintClass} text-mist`}>{texts.hint}</p>
        ))}
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
            `relative w-full max-w-52 sm:mt-8 sm:w-auto sm:max-w-none sm:min-w-52 aria-disabled:cursor-not-allowed aria-disabled:opacity-70 ${room ? 'mt-4' : 'mt-8'}`,
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
