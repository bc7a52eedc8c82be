/**
 * The taps the page kept before the app started (scripts/lib/early-taps.mjs), replayed once the
 * app has hydrated: each control that was tapped is clicked once more, now that it listens,
 * unless the tap no longer means what it meant: the control is gone, says something else now, or
 * the visitor has scrolled it out of view since. A copy the page already made during the tap is
 * not made again: its control is told how it went (`EARLY_COPY_EVENT`), wherever the visitor has
 * scrolled since, since the clipboard already holds what they asked for.
 */
export interface EarlyTap {
  control: Element;
  /** The control's text when it was tapped. */
  label: string | null;
  /** When, in the page's clock (performance.now()). */
  at: number;
  /** For a control that copies (`data-copy`): true once the tap's own copy was written. */
  copied?: Promise<boolean>;
}

/** Dispatched on a copy control whose tap was copied before the app started; detail: `copied`. */
export const EARLY_COPY_EVENT = 'pepa:early-copy';

declare global {
  interface Window {
    /** Set by the page's inline script until the app takes the taps it kept. */
    __pepaEarlyTaps?: () => EarlyTap[];
  }
}

function inView(control: Element): boolean {
  const box = control.getBoundingClientRect();
  return (
    box.width > 0 &&
    box.height > 0 &&
    box.bottom > 0 &&
    box.right > 0 &&
    box.top < window.innerHeight &&
    box.left < window.innerWidth
  );
}

/** Takes the kept taps (once: the inline script stops keeping them) and replays those that hold. */
export function replayEarlyTaps(): EarlyTap[] {
  const taps = window.__pepaEarlyTaps?.() ?? [];
  const replayed: EarlyTap[] = [];
  for (const tap of taps) {
    const { control } = tap;
    control.removeAttribute('data-pressed');
    if (tap.copied && control.isConnected) {
      control.dispatchEvent(new CustomEvent(EARLY_COPY_EVENT, { detail: tap.copied }));
      replayed.push(tap);
      continue;
    }
    const meaningful = control.isConnected && control.textContent === tap.label && inView(control);
    if (!meaningful || !(control instanceof HTMLElement)) continue;
    control.click();
    replayed.push(tap);
  }
  return replayed;
}
