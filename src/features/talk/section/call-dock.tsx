/**
 * The call docked: while a call is on and the section's call controls are out of view (the
 * visitor scrolled, or Pepa showed another section), a small bar stays in view at the bottom of
 * the screen with the status (the section's own lines: the bar and the section never disagree),
 * her latest words, Mute and End Call. Tapping its words brings the visitor back to the call. Nothing of it outlives the call: the observer is disconnected and the
 * listeners removed as soon as the call ends.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { buttonClass } from '../../../components/ui/button-styles';
import { MicOffIcon } from '../../../components/ui/icons';
import { TYPE_FIELD_ATTRIBUTE } from '../controls/type-to-pepa';
import { PHASE_TEXT, type TalkLines } from '../status/talk-lines';
import type { TalkPhase, VoiceState } from '../voice/voice-state';

/** The fixed navigation bar's height (4rem): nothing under it counts as in view. */
export const NAV_HEIGHT_PX = 64;

/** Room kept between what is brought into view and the screen's edges. */
const EDGE_GAP_PX = 12;

/** The phases of a call the bar stands in for (in line, the section keeps the visitor's place). */
const DOCKED_PHASES: ReadonlySet<TalkPhase> = new Set([
  'connecting',
  'listening',
  'speaking',
  'reconnecting',
]);

/** The bar's landmark name. */
export const CALL_DOCK_LABEL = 'Your call with Pepa';

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * Whether `target` is out of view (above the navigation bar or below the screen) while `active`.
 * An IntersectionObserver watches it; an engine without one measures on scroll and resize.
 */
export function useOutOfView(target: RefObject<Element | null>, active: boolean): boolean {
  const [out, setOut] = useState(false);
  useEffect(() => {
    const element = target.current;
    if (!active || !element) return;
    if (typeof IntersectionObserver !== 'undefined') {
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
    }
    let frame = 0;
    const measure = () => {
      frame = 0;
      const box = element.getBoundingClientRect();
      // Nothing laid out (no box at all) is not known to be out of view.
      const laidOut = box.width > 0 || box.height > 0;
      setOut(laidOut && (box.bottom <= NAV_HEIGHT_PX || box.top >= window.innerHeight));
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    schedule();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      setOut(false);
    };
  }, [target, active]);
  return active && out;
}

/**
 * Scrolls the panel's status up under the navigation bar, which leaves the most room below it for
 * the captions to grow, with the call's field (or, before it shows, its captions or controls)
 * above the screen's bottom edge. When both cannot fit, the field and the captions above it win:
 * they are what a call is read and written in.
 */
export function bringCallIntoView(controls: HTMLElement): void {
  const status = controls.closest('section')?.querySelector('[data-phase]') ?? controls;
  const bottom =
    controls.querySelector(`[${TYPE_FIELD_ATTRIBUTE}]`)?.closest('form') ??
    controls.querySelector('[role="log"]') ??
    controls.querySelector('button');
  const least = (bottom?.getBoundingClientRect().bottom ?? 0) + EDGE_GAP_PX - window.innerHeight;
  const most = status.getBoundingClientRect().top - NAV_HEIGHT_PX - EDGE_GAP_PX;
  const by = Math.max(least, most);
  if (Math.abs(by) < 1) return;
  window.scrollBy({ top: by, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
}

/** The section's lines the bar shows: what talkLines decided for the section (talk-lines.ts). */
export type DockLines = Pick<TalkLines, 'status' | 'hint' | 'mutedHint' | 'confirm'>;

/**
 * What the bar says of the call, from the section's own lines: the same status, under it the line
 * of ours the section shows in place of the spec's hint (muted, hold to talk, a quiet microphone),
 * so the bar never says 'Listening...' alone while the section says Pepa can't hear, and Escape's
 * question. The spec's own hints ('Speak naturally…') stay the section's: the bar has no room.
 */
export function dockLines(
  phase: TalkPhase,
  lines: DockLines,
): { status: string; note: string | null; muted: boolean; confirm: string | null } {
  const ours = lines.hint !== null && lines.hint !== PHASE_TEXT[phase].hint;
  return {
    status: lines.status,
    note: ours ? lines.hint : null,
    muted: lines.mutedHint,
    confirm: lines.confirm,
  };
}

/** Her latest words: what she is saying now, else her last finished line. */
function latestWords(state: VoiceState): string {
  const partial = state.partials.assistant;
  if (partial) return partial;
  const last = state.transcript.findLast((line) => line.role === 'assistant');
  return last?.text ?? '';
}

export interface CallDockInput {
  phase: TalkPhase;
  state: VoiceState;
  /** The section's lines (talkLines), the one source of what the bar says. */
  lines: DockLines;
  /** The section's call controls: out of view, the call docks. */
  controlsRef: RefObject<HTMLElement | null>;
  /** The section's button (End Call), where the focus lands back in the section. */
  primaryRef: RefObject<HTMLElement | null>;
  /** The section's Mute, when it shows one (not in hold to talk). */
  onToggleMute: (() => void) | null;
  /** The section's End Call. */
  onEnd(): void;
}

/**
 * The docked call, and the scroll that brings the call into view when it connects. Returns the
 * bar (portalled into the body), or null while the call's controls are in view or no call is on.
 */
export function useCallDock({
  phase,
  state,
  lines,
  controlsRef,
  primaryRef,
  onToggleMute,
  onEnd,
}: CallDockInput) {
  const inCall = DOCKED_PHASES.has(phase);
  const docked = useOutOfView(controlsRef, inCall);
  const connected = phase === 'listening' || phase === 'speaking';

  // When the call connects (its field appears), the status, captions and field come into view,
  // unless the visitor has scrolled away meanwhile: the bar is theirs then.
  const shownFor = useRef<number | null>(null);
  useEffect(() => {
    if (!connected || state.connectedAt === null || shownFor.current === state.connectedAt) return;
    shownFor.current = state.connectedAt;
    const controls = controlsRef.current;
    if (controls && !docked) bringCallIntoView(controls);
  }, [connected, state.connectedAt, docked, controlsRef]);

  const backToCall = useCallback(() => {
    const controls = controlsRef.current;
    if (controls) bringCallIntoView(controls);
    primaryRef.current?.focus({ preventScroll: true });
  }, [controlsRef, primaryRef]);

  const end = useCallback(() => {
    onEnd();
    // The transcript and the rating follow the call in the section: the visitor goes there.
    backToCall();
  }, [onEnd, backToCall]);

  if (!docked) return null;
  return createPortal(
    <CallDockBar
      {...dockLines(phase, lines)}
      words={latestWords(state)}
      pressedMute={state.muted}
      onToggleMute={onToggleMute}
      onEnd={end}
      onReturn={backToCall}
      home={primaryRef}
    />,
    document.body,
  );
}

interface CallDockBarProps {
  status: string;
  /** A line of ours under the status, as the section shows it. */
  note: string | null;
  /** The note is the muted line (drawn with the microphone-off icon, as in the section). */
  muted: boolean;
  /** Escape's question, as the section asks it. */
  confirm: string | null;
  words: string;
  /** The visitor pressed Mute. */
  pressedMute: boolean;
  onToggleMute: (() => void) | null;
  onEnd(): void;
  onReturn(): void;
  /** Where the focus goes when the bar leaves while holding it. */
  home: RefObject<HTMLElement | null>;
}

function CallDockBar({
  status,
  note,
  muted,
  confirm,
  words,
  pressedMute,
  onToggleMute,
  onEnd,
  onReturn,
  home,
}: CallDockBarProps) {
  const barRef = useRef<HTMLDivElement>(null);
  // The bar leaves while a control of it has the focus: the focus goes to the section's button
  // rather than falling to the page. Read as the bar leaves, not as it came.
  useLayoutEffect(() => {
    const bar = barRef.current;
    const focusHome = () => home.current?.focus({ preventScroll: true });
    return () => {
      if (bar?.contains(document.activeElement)) focusHome();
    };
  }, [home]);

  return (
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
          onClick={onReturn}
          // A name that changes with each of Pepa's words would be re-read on every caption: the
          // button is named by where it goes and the call's status; the words are seen, not read.
          aria-label={`Back to the call: ${status}`}
          className="flex min-w-0 flex-1 items-center gap-2.5 rounded-full px-3 py-1 text-left"
        >
          <span
            aria-hidden="true"
            className="size-2 shrink-0 rounded-full bg-court-300 shadow-[0_0_10px_var(--color-court-300)]"
          />
          <span className="min-w-0">
            <span
              data-testid="dock-status"
              className="block truncate text-sm font-semibold text-court-300"
            >
              {status}
            </span>
            {note !== null && (
              <span
                data-testid="dock-note"
                className="flex items-center gap-1 text-xs font-semibold text-gold-200"
              >
                {muted && <MicOffIcon className="size-3.5 shrink-0" />}
                <span className="truncate">{note}</span>
              </span>
            )}
            {confirm !== null && (
              <span
                data-testid="dock-confirm"
                className="block truncate text-xs font-semibold text-gold-100"
              >
                {confirm}
              </span>
            )}
            {words !== '' && (
              <span data-testid="dock-words" className="block truncate text-xs text-mist">
                Pepa: {words}
              </span>
            )}
          </span>
        </button>
        {onToggleMute && (
          <button
            type="button"
            aria-pressed={pressedMute}
            onClick={onToggleMute}
            className={buttonClass('outline', 'md', 'shrink-0')}
          >
            {pressedMute ? 'Unmute' : 'Mute'}
          </button>
        )}
        <button type="button" onClick={onEnd} className={buttonClass('gold', 'md', 'shrink-0')}>
          End Call
        </button>
      </div>
    </div>
  );
}
