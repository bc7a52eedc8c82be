/**
 * The call docked: while a call is on and the section's End Call is out of view (the visitor
 * scrolled, or Pepa showed another section), a bar fixed to the bottom of the screen keeps the
 * call's status, her latest words, Mute and End Call. It is fixed to the viewport, so it never
 * moves the page and nothing has to follow it; it comes and goes as the section's End Call leaves
 * and returns, which an IntersectionObserver reports. Nothing of it outlives the call.
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { buttonClass } from '../../../components/ui/button-styles';
import type { TalkPhase, VoiceState } from '../voice/voice-state';

/** The fixed navigation bar's height (4rem): what is under it is out of view. */
export const NAV_HEIGHT_PX = 64;

/** The bar's landmark name. */
export const CALL_DOCK_LABEL = 'Your call with Pepa';

/** The phases of a call the bar stands in for (in line, the section keeps the visitor's place). */
const DOCKED_PHASES: ReadonlySet<TalkPhase> = new Set([
  'connecting',
  'listening',
  'speaking',
  'reconnecting',
]);

/** Whether the bar stands in for the section in `phase`. */
export function docksIn(phase: TalkPhase): boolean {
  return DOCKED_PHASES.has(phase);
}

/**
 * Whether `target` is wholly out of view (under the navigation bar, above or below the screen)
 * while `active`. The observer goes with `active`, and with it what it reported.
 */
export function useOutOfView(target: RefObject<Element | null>, active: boolean): boolean {
  const [out, setOut] = useState(false);
  useEffect(() => {
    const element = target.current;
    // Every engine the site supports has had an observer since 2019; a page without one (a
    // test's DOM) keeps the call in its section.
    if (!active || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1);
        if (entry) setOut(!entry.isIntersecting);
      },
      { rootMargin: `-${NAV_HEIGHT_PX}px 0px 0px 0px` },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      setOut(false);
    };
  }, [target, active]);
  return active && out;
}

/**
 * Brings the call back into view at the visitor's tap on the bar: its status just below the
 * toasts' lane (the status's scroll margin), which leaves the most room below for the captions
 * and the field. Nothing follows it after.
 */
export function bringCallIntoView(primary: HTMLElement): void {
  const status = primary.closest('section')?.querySelector('[role="status"][data-phase]');
  (status ?? primary).scrollIntoView({ block: 'start', behavior: 'instant' });
}

/** Her latest words: what she is saying now, else her last finished remark. */
export function latestWords(state: VoiceState): string {
  const partial = state.partials.assistant;
  if (partial) return partial;
  return state.transcript.findLast((entry) => entry.role === 'assistant')?.text ?? '';
}

export interface CallDockProps {
  phase: TalkPhase;
  /** The section's status for the same state, word for word. */
  status: string;
  /** What the section says beside the status (muted, …), when it says something. */
  note: string | null;
  /** Her latest words. */
  words: string;
  muted: boolean;
  /** The section's End Call: out of view, the call docks; the focus comes back to it. */
  primaryRef: RefObject<HTMLElement | null>;
  /** The section's Mute, when the section shows one (not in hold-to-talk). */
  onToggleMute: (() => void) | null;
  /** The section's End Call. */
  onEnd(): void;
}

/**
 * The docked call, portalled into the body while a call is on and its End Call is out of view;
 * nothing otherwise.
 */
export function CallDock({ phase, primaryRef, ...bar }: CallDockProps) {
  const docked = useOutOfView(primaryRef, docksIn(phase));
  if (!docked) return null;
  return createPortal(
    <CallDockBar {...bar} reconnecting={phase === 'reconnecting'} home={primaryRef} />,
    document.body,
  );
}

interface CallDockBarProps extends Omit<CallDockProps, 'phase' | 'primaryRef'> {
  reconnecting: boolean;
  /** The section's End Call: where the visitor goes back to, and where a focus in the bar lands. */
  home: RefObject<HTMLElement | null>;
}

function CallDockBar({
  status,
  note,
  words,
  muted,
  reconnecting,
  onToggleMute,
  onEnd,
  home,
}: CallDockBarProps) {
  const barRef = useRef<HTMLDivElement>(null);
  // The bar leaves while one of its controls has the focus (End Call pressed, or the section came
  // back into view): the focus goes to the section's button rather than falling to the page.
  useLayoutEffect(() => {
    const bar = barRef.current;
    // The section's button outlives the bar: the one it was as the bar came is the one to go to.
    const homeButton = home.current;
    return () => {
      if (bar?.contains(document.activeElement)) homeButton?.focus({ preventScroll: true });
    };
  }, [home]);

  // At the visitor's press, once: the section's End Call (and the status above it) comes back.
  const backToCall = () => {
    const button = home.current;
    if (!button) return;
    bringCallIntoView(button);
    button.focus({ preventScroll: true });
  };

  return (
    <>
      {/* Room at the end of the page, so the bar never covers the footer's last lines. */}
      <div aria-hidden="true" className="h-24" />
      <div
        ref={barRef}
        role="region"
        aria-label={CALL_DOCK_LABEL}
        data-call-dock=""
        className="fixed inset-x-0 bottom-0 z-40 px-3 sm:bottom-4"
        // A phone's home indicator and rounded corners: the bar sits above them.
        style={{ paddingBottom: 'max(0.75rem, env(safe-area-inset-bottom))' }}
      >
        <div className="mx-auto flex max-w-xl items-center gap-2 rounded-full border border-gold-400/30 bg-court-950/95 p-1.5 shadow-lg backdrop-blur-md">
          <button
            type="button"
            onClick={backToCall}
            // Named by where it goes and the call's state; her words change too often to be a name.
            aria-label={`Back to the call: ${status}${note === null ? '' : `. ${note}`}`}
            className="flex min-w-0 flex-1 items-center gap-2.5 rounded-full px-3 py-1 text-left"
          >
            <span
              aria-hidden="true"
              className="size-2 shrink-0 rounded-full bg-court-300 shadow-[0_0_10px_var(--color-court-300)]"
            />
            <span className="min-w-0">
              {/* The status is read whole (two lines on a phone); her words only where there is room. */}
              <span className="line-clamp-2 text-sm leading-tight font-semibold text-court-300">
                {status}
              </span>
              {/* Not a live region: the section's captions already say her words as they come. */}
              {note !== null ? (
                <span className="line-clamp-2 text-xs leading-tight font-semibold text-gold-200">
                  {note}
                </span>
              ) : (
                words !== '' && (
                  <span className="hidden truncate text-xs text-mist sm:block" aria-hidden="true">
                    Pepa: {words}
                  </span>
                )
              )}
            </span>
          </button>
          {onToggleMute && (
            <button
              type="button"
              aria-pressed={muted}
              aria-disabled={reconnecting || undefined}
              onClick={reconnecting ? undefined : onToggleMute}
              className={buttonClass('outline', 'md', 'shrink-0 aria-disabled:opacity-60')}
            >
              {muted ? 'Unmute' : 'Mute'}
            </button>
          )}
          <button
            type="button"
            // The call ends where its section is: the visitor goes there with the press, and the
            // rating and the transcript take the controls' place.
            onClick={() => {
              backToCall();
              onEnd();
            }}
            className={buttonClass('gold', 'md', 'shrink-0')}
          >
            End Call
          </button>
        </div>
      </div>
    </>
  );
}
