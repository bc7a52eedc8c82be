import { useEffect, type RefObject } from 'react';

/** The fixed navigation bar's height (styles.css's scroll-padding-top). */
const NAV_HEIGHT_PX = 64;
/** Room left between what is brought into view and the viewport's edges. */
const EDGE_GAP_PX = 12;
/**
 * How long after opening the chat follows its own layout: the panel grows as its code, Pepa's
 * first line and the section around it settle, and a scroll made at the first render would land
 * short of the field.
 */
export const CHAT_SETTLE_MS = 1000;

interface Edges {
  top: number;
  bottom: number;
}

/**
 * How far to scroll (positive: the page moves up) so that `top` sits under the navigation bar and
 * `bottom` above the viewport's bottom edge, moving as little as it can; when both cannot fit,
 * `bottom` (the field) wins. Nothing moves when both are in view already.
 */
export function scrollToFit(top: number, bottom: number, viewportHeight: number): number {
  const least = bottom + EDGE_GAP_PX - viewportHeight;
  const most = top - NAV_HEIGHT_PX - EDGE_GAP_PX;
  return Math.max(least, Math.min(0, most));
}

const viewportHeight = () => window.visualViewport?.height ?? window.innerHeight;

const room = () => viewportHeight() - NAV_HEIGHT_PX - 2 * EDGE_GAP_PX;

const edges = (element: Element | null | undefined): Edges | null => {
  if (!element) return null;
  const box = element.getBoundingClientRect();
  return { top: box.top, bottom: box.bottom };
};

/**
 * Brings the chat into view with its field: the first of `tops` that fits with the field on one
 * screen goes under the navigation bar (the section's status, else the panel's heading, else the
 * conversation), or, when none fits, the field goes above the bottom edge.
 */
export function placeChat(tops: readonly (Element | null | undefined)[], field: Element): void {
  const bottom = edges(field.closest('form') ?? field);
  if (!bottom) return;
  const top = tops
    .map(edges)
    .find((edge): edge is Edges => edge !== null && bottom.bottom - edge.top <= room());
  const by = scrollToFit(top?.top ?? Number.POSITIVE_INFINITY, bottom.bottom, viewportHeight());
  if (Math.abs(by) < 1) return;
  // Instant: a smooth scroll's target is fixed when it starts, and the panel may grow meanwhile.
  window.scrollBy({ top: by, behavior: 'instant' });
}

/** The section's status line ('Pepa is with other guests.' and the place in line under it). */
const sectionStatus = (panel: HTMLElement) =>
  panel.parentElement?.closest('section')?.querySelector('[data-phase]');

/**
 * Follows the panel's size (and its section's) while `active`: each change is placed once the
 * frame's layout is done.
 */
function useResizePlacing(
  panelRef: RefObject<HTMLElement | null>,
  active: boolean,
  place: (panel: HTMLElement) => void,
  forMs?: number,
): void {
  useEffect(() => {
    const panel = panelRef.current;
    if (!panel || !active) return;
    let following = true;
    let frame = 0;
    const schedule = () => {
      if (following && frame === 0) {
        frame = requestAnimationFrame(() => {
          frame = 0;
          if (following) place(panel);
        });
      }
    };
    const stop = () => {
      following = false;
    };
    const timer = forMs === undefined ? undefined : setTimeout(stop, forMs);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(schedule);
    observer?.observe(panel);
    const section = panel.parentElement?.closest('section');
    if (section) observer?.observe(section);
    // The visitor's own scroll ends an opening's following at once.
    const yielded = forMs === undefined ? [] : (['wheel', 'touchmove'] as const);
    for (const type of yielded) window.addEventListener(type, stop, { passive: true });
    schedule();
    return () => {
      following = false;
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      observer?.disconnect();
      for (const type of yielded) window.removeEventListener(type, stop);
    };
    // `place` is read when a change comes, not a reason to start over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [panelRef, active, forMs]);
}

/**
 * Keeps the chat in view as its layout settles: for `CHAT_SETTLE_MS` after it opens by the
 * visitor's press (`opening`; the visitor's own scroll ends it sooner), and, while `keepStatus`
 * (the visitor waits in line), each time the panel's size changes with the focus in its field, so
 * the place in line and the field stay on one screen.
 */
export function useChatInView(
  panelRef: RefObject<HTMLElement | null>,
  fieldRef: RefObject<HTMLElement | null>,
  opening: boolean,
  keepStatus: boolean,
): void {
  useResizePlacing(
    panelRef,
    opening,
    (panel) => {
      const field = fieldRef.current;
      if (field)
        placeChat([sectionStatus(panel), panel, panel.querySelector('[role="log"]')], field);
    },
    CHAT_SETTLE_MS,
  );
  useResizePlacing(panelRef, keepStatus, (panel) => {
    const field = fieldRef.current;
    if (field && document.activeElement === field) placeChat([sectionStatus(panel)], field);
  });
}
