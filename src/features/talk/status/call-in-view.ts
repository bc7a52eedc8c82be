import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Whether the call's view needs bringing into view: the status sits above the toasts' lane (or
 * under the navigation bar), or the main button is below the screen's edge. The lane's end is
 * where the status's scroll margin puts it (under the page's scroll padding, the navigation bar).
 */
export function callViewOutOfView(status: Element, button: Element | null): boolean {
  const laneEnd =
    (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0) +
    (parseFloat(getComputedStyle(status).scrollMarginTop) || 0);
  if (status.getBoundingClientRect().top < laneEnd - 1) return true;
  return button !== null && button.getBoundingClientRect().bottom > window.innerHeight;
}

/**
 * Brings the call's view into view once, at the visitor's press: when the panel takes the call's
 * room (`room` turns true, the layout of a call drawn in this same commit), the status comes to
 * just below the toasts' lane if it is above it or the button is off screen. Never on mount (a
 * panel that opens in a call replaces one that already did this), and never again until the room
 * is left: the page is not followed as the call fills, the visitor scrolls, or the window changes.
 */
export function useCallViewInViewOnPress(
  room: boolean,
  status: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
): void {
  const previous = useRef(room);
  useLayoutEffect(() => {
    const was = previous.current;
    previous.current = room;
    const element = status.current;
    if (!room || was || !element) return;
    if (!callViewOutOfView(element, button.current)) return;
    element.scrollIntoView?.({ block: 'start', behavior: 'instant' });
  }, [room, status, button]);
}
