import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { TalkPhase } from '../voice/voice-state';

/** The fixed navigation bar (4rem) and the gap kept from the screen's edges. */
const NAV_HEIGHT_PX = 64;
const EDGE_GAP_PX = 12;

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** The band a toast takes (its toaster's edge, one toast deep): kept clear after a call. */
const TOAST_BAND_PX = 110;

export interface Room {
  /** The highest a box may start (under the navigation bar, or under a toast at the top). */
  top: number;
  /** The lowest it may end (above the screen's edge, or above a toast at the bottom). */
  bottom: number;
}

/**
 * The least scroll that shows the whole of `box` within `room`, or, when it is taller than that,
 * puts its top at the room's top. 0: in view already.
 */
export function scrollToShow(box: { top: number; bottom: number }, room: Room | number): number {
  const { top, bottom } =
    typeof room === 'number'
      ? { top: NAV_HEIGHT_PX + EDGE_GAP_PX, bottom: room - EDGE_GAP_PX }
      : room;
  if (box.top < top) return box.top - top;
  const below = box.bottom - bottom;
  return below > 0 ? Math.min(below, box.top - top) : 0;
}

/** The room between the navigation bar and the screen's edge, less the bands toasts now take. */
export function roomBesideToasts(viewportHeight: number): Room {
  const room = { top: NAV_HEIGHT_PX + EDGE_GAP_PX, bottom: viewportHeight - EDGE_GAP_PX };
  for (const toaster of document.querySelectorAll<HTMLElement>('[data-sonner-toaster]')) {
    if (!toaster.querySelector('[data-sonner-toast]:not([data-removed="true"])')) continue;
    if (toaster.getAttribute('data-y-position') === 'top') {
      const offset = parseFloat(toaster.style.getPropertyValue('--offset-top')) || NAV_HEIGHT_PX;
      // A toast in the upper half keeps what follows below it; one lower is passed over.
      if (offset < viewportHeight / 2) room.top = Math.max(room.top, offset + TOAST_BAND_PX);
    } else {
      const offset = parseFloat(toaster.style.getPropertyValue('--offset-bottom')) || 16;
      room.bottom = Math.min(room.bottom, viewportHeight - offset - TOAST_BAND_PX);
    }
  }
  return room;
}

/**
 * After a call, what follows it (the rating, the transcript) comes into view, with the least
 * scroll, smoothly unless the visitor asked for reduced motion, clear of the toast the call's end
 * shows. Only when the visitor was with the call (its panel on screen): one reading elsewhere on
 * the page is not pulled back. The focus stays where it is (on Start Talking, where End Call was):
 * the next Tab reaches the rating.
 */
export function useAfterCallInView(block: RefObject<HTMLElement | null>, phase: TalkPhase): void {
  const previous = useRef(phase);
  useLayoutEffect(() => {
    const was = previous.current;
    previous.current = phase;
    const element = block.current;
    if (phase !== 'idle' || was === 'idle' || !element || element.childElementCount === 0) return;
    const panel = element.parentElement?.getBoundingClientRect();
    if (panel && (panel.bottom <= 0 || panel.top >= window.innerHeight)) return;
    // After the frame in which the call's end drew its toast, so the scroll keeps clear of it.
    const frame = requestAnimationFrame(() => {
      const room = roomBesideToasts(window.innerHeight);
      const by = scrollToShow(element.getBoundingClientRect(), room);
      if (Math.abs(by) < 1) return;
      window.scrollBy?.({ top: by, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    });
    return () => cancelAnimationFrame(frame);
  }, [phase, block]);
}
