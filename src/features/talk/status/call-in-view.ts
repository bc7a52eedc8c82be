import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Whether the call's view is where a press puts it: its status just below the toasts' lane (the
 * page's scroll padding, the navigation bar, plus the status's scroll margin, the lane). Below it,
 * the call's room (the button, the captions' box of steady height, the field) fills the screen
 * downwards; anywhere else, the field may end below the screen's edge once the call connects.
 */
export function callViewInPlace(status: Element): boolean {
  const laneEnd =
    (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0) +
    (parseFloat(getComputedStyle(status).scrollMarginTop) || 0);
  return Math.abs(status.getBoundingClientRect().top - laneEnd) < 1;
}

/**
 * Brings the call's view into view once, at the visitor's press: when the panel takes the call's
 * room (`room` turns true, the layout of a call drawn in this same commit, the section's intro
 * hidden by the same commit's style), the status comes to just below the toasts' lane. Never on
 * mount (a panel that opens in a call replaces one that already did this), and never again until
 * the room is left: the page is not followed as the call fills, the visitor scrolls, or the window
 * changes.
 */
export function useCallViewInViewOnPress(
  room: boolean,
  status: RefObject<HTMLElement | null>,
): void {
  const previous = useRef(room);
  useLayoutEffect(() => {
    const was = previous.current;
    previous.current = room;
    const element = status.current;
    if (!room || was || !element || callViewInPlace(element)) return;
    element.scrollIntoView?.({ block: 'start', behavior: 'instant' });
  }, [room, status]);
}
