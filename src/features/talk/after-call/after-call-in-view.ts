import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { TalkPhase } from '../voice/voice-state';

/** The fixed navigation bar (4rem) and the gap kept from the screen's edges. */
const NAV_HEIGHT_PX = 64;
const EDGE_GAP_PX = 12;

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * The least scroll that shows the whole of `box` between the navigation bar and the screen's
 * bottom edge, or, when it is taller than that, puts its top just under the bar. 0: in view.
 */
export function scrollToShow(box: { top: number; bottom: number }, viewportHeight: number): number {
  const top = NAV_HEIGHT_PX + EDGE_GAP_PX;
  if (box.top < top) return box.top - top;
  const below = box.bottom + EDGE_GAP_PX - viewportHeight;
  return below > 0 ? Math.min(below, box.top - top) : 0;
}

/**
 * After a call, what follows it (the rating, the transcript) comes into view, with the least
 * scroll, smoothly unless the visitor asked for reduced motion. Only when the visitor was with the
 * call (its panel on screen): one reading elsewhere on the page is not pulled back. The focus
 * stays where it is (on Start Talking, where End Call was): the next Tab reaches the rating.
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
    const by = scrollToShow(element.getBoundingClientRect(), window.innerHeight);
    if (Math.abs(by) < 1) return;
    window.scrollBy?.({ top: by, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  }, [phase, block]);
}
