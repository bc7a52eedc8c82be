/**
 * The voice chat's toasts: the spec's four, word for word, in one style (the court's colours),
 * placed where they cover nothing the visitor needs (the status, a control, the docked bar) and
 * drawn under any dialog.
 */
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { Toaster, toast, useSonner } from 'sonner';
import type { VoiceNotifications } from '../voice/use-voice-call';

/** The spec's toasts, word for word. */
export const TOASTS = {
  connected: { title: 'Connected', description: "You're now talking to Pepa!" },
  ended: { title: 'Call ended', description: 'Thanks for chatting with Pepa!' },
  error: { title: 'Error', description: 'Something went wrong with the voice call' },
  startFailed: {
    title: 'Failed to connect',
    description: 'Please check your microphone permissions',
  },
} as const;

/** The fixed navigation bar (4rem) and the gap kept under it. */
const TOP_OFFSET_PX = 64 + 12;
/** The gap kept above the screen's bottom edge, or above the docked bar. */
const BOTTOM_GAP_PX = 16;
/** The room one toast (title and description) takes, with the stack's peek. */
export const TOAST_BAND_PX = 110;
/** Under this width the page is a phone's: a toast spans the screen. */
const PHONE_MAX_WIDTH_PX = 640;
/**
 * Above the docked bar (z-40), under the navigation bar (z-50) and under every dialog's backdrop
 * (the share dialog's is z-60): a toast never covers a dialog.
 */
export const TOAST_Z_INDEX = 45;

/** One toast's own height (title and description), with a little room around it. */
const TOAST_HEIGHT_PX = 76;

/**
 * What a toast must never cover: the status, the controls, the docked bar. The captions may be
 * covered for a moment (they are kept whole in the transcript) when nothing else is free.
 */
const NEEDED =
  '[data-phase], button, input, textarea, select, a[href], [role="switch"], [data-call-dock]';

export type ToastPosition = 'top-center' | 'bottom-center';

export interface ToastPlacement {
  position: ToastPosition;
  /** Pixels from the top edge: under the navigation bar, or lower, in a gap between controls. */
  topPx: number;
  /** Pixels from the bottom edge: clear of the docked bar when it shows. */
  bottomPx: number;
}

export const DEFAULT_PLACEMENT: ToastPlacement = {
  position: 'top-center',
  topPx: TOP_OFFSET_PX,
  bottomPx: BOTTOM_GAP_PX,
};

/** The free gaps at least one toast tall between `top` and `bottom`, top first. */
function gaps(needed: readonly Box[], top: number, bottom: number): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  let from = top;
  for (const box of [...needed].sort((a, b) => a.top - b.top)) {
    if (box.top - from >= TOAST_HEIGHT_PX) found.push([from, box.top]);
    from = Math.max(from, box.bottom);
  }
  if (bottom - from >= TOAST_HEIGHT_PX) found.push([from, bottom]);
  return found;
}

interface Box {
  top: number;
  bottom: number;
  /** The status line: never covered while anything else can be. */
  status?: boolean;
}

function overlap(box: Box, top: number, bottom: number): number {
  return Math.max(0, Math.min(box.bottom, bottom) - Math.max(box.top, top));
}

/**
 * Where a toast covers nothing the visitor needs: the top band (under the navigation bar) or the
 * bottom one (above the screen's edge, or the docked bar), a phone's at the bottom first (away
 * from the status, under the thumb) and a desktop's at the top; when both hold a control (a
 * phone's call: the status at the top, the field at the bottom), a gap between the controls
 * (over the captions); failing all, the edge that covers least, where covering the status counts
 * far more than anything else.
 */
export function placeToast(
  viewport: { width: number; height: number },
  needed: readonly Box[],
  dockHeightPx = 0,
  keep?: ToastPosition,
): ToastPlacement {
  const bottomPx = BOTTOM_GAP_PX + dockHeightPx;
  const bands: Record<ToastPosition, [number, number]> = {
    'top-center': [TOP_OFFSET_PX, TOP_OFFSET_PX + TOAST_BAND_PX],
    'bottom-center': [viewport.height - bottomPx - TOAST_BAND_PX, viewport.height - bottomPx],
  };
  const cost = (position: ToastPosition) => {
    const [top, bottom] = bands[position];
    return needed.reduce((sum, box) => sum + overlap(box, top, bottom) * (box.status ? 100 : 1), 0);
  };
  const phone = viewport.width < PHONE_MAX_WIDTH_PX;
  const first: ToastPosition = phone ? 'bottom-center' : 'top-center';
  const second: ToastPosition = phone ? 'top-center' : 'bottom-center';
  const at = (position: ToastPosition): ToastPlacement => ({
    position,
    topPx: TOP_OFFSET_PX,
    bottomPx,
  });
  // A toast on screen stays on its edge while that edge is clear: it does not jump for preference.
  if (keep && cost(keep) === 0) return at(keep);
  if (cost(first) === 0) return at(first);
  if (cost(second) === 0) return at(second);
  const free = gaps(needed, TOP_OFFSET_PX, viewport.height - bottomPx);
  const gap = phone ? free.at(-1) : free[0];
  if (gap) return { position: 'top-center', topPx: Math.round(gap[0]), bottomPx };
  return at(cost(second) < cost(first) ? second : first);
}

/**
 * Measures what is on screen now (the Talk section's status and controls, the docked bar) and
 * places the next toast away from it. Called when a toast is about to show: the visitor may have
 * scrolled, and the bar may have come or gone.
 */
export function toastPlacementNow(section: Element | null, keep?: ToastPosition): ToastPlacement {
  const height = window.innerHeight;
  const dock = document.querySelector('[data-call-dock]');
  const dockBox = dock?.getBoundingClientRect();
  const dockHeightPx = dockBox && dockBox.height > 0 ? height - dockBox.top : 0;
  const boxes: Box[] = [];
  for (const element of section?.querySelectorAll(NEEDED) ?? []) {
    const box = element.getBoundingClientRect();
    if (box.height === 0 || box.bottom <= 0 || box.top >= height) continue;
    boxes.push({ top: box.top, bottom: box.bottom, status: element.hasAttribute('data-phase') });
  }
  return placeToast({ width: window.innerWidth, height }, boxes, dockHeightPx, keep);
}

/** 'Connected' is old news once the call ends (endConnectedToast): it goes with the call. */
const CONNECTED_TOAST_ID = 'pepa-connected';
const CONNECTED_TOAST_CLASS = 'pepa-connected-toast';

/** The frames without movement that count as the page at rest; the most frames waited. */
const SETTLED_FRAMES = 3;
const MOST_FRAMES = 90;

/**
 * Runs `then` once the page has stopped scrolling (its scroll position unchanged for a few
 * frames, read each frame: this works where the `scrollend` event does not), or after about
 * 1.5 s of a visitor who keeps scrolling. Returns a cancel.
 */
export function afterScrollSettles(then: () => void): () => void {
  let frame = 0;
  let still = 0;
  let frames = 0;
  let last = window.scrollY;
  const tick = () => {
    frames += 1;
    still = window.scrollY === last ? still + 1 : 0;
    last = window.scrollY;
    if (still >= SETTLED_FRAMES || frames >= MOST_FRAMES) then();
    else frame = requestAnimationFrame(tick);
  };
  frame = requestAnimationFrame(tick);
  return () => cancelAnimationFrame(frame);
}

/** 'Connected' waiting for the connect scroll to settle, if it is. */
let pendingConnected: (() => void) | null = null;

/**
 * Takes 'Connected' away as the call ends, before what follows the call (the rating, the
 * transcript) is drawn, so it covers none of it. One not shown yet is not shown: the call it
 * announced is over, and 'Call ended' says so.
 */
export function endConnectedToast(): void {
  pendingConnected?.();
  pendingConnected = null;
  // The library dismisses a frame later; by then the rating may be drawn under it: hidden now.
  for (const element of document.querySelectorAll<HTMLElement>(`.${CONNECTED_TOAST_CLASS}`)) {
    element.style.transition = 'none';
    element.style.opacity = '0';
    element.style.pointerEvents = 'none';
  }
  toast.dismiss(CONNECTED_TOAST_ID);
}

/**
 * The spec's call toasts, each placed when it shows (`place` measures and says where); while they
 * show, useToastsKeptClear keeps them clear as the page scrolls. 'Connected' shows once the
 * call's connect scroll (the status under the navigation bar) has settled, so it is placed where
 * the status and controls end up, not where they were.
 */
export function notificationsFor(place: () => ToastPosition): VoiceNotifications {
  return {
    onConnected: () => {
      pendingConnected?.();
      // A frame first: the connect scroll starts in the effect after the connected state draws.
      pendingConnected = afterScrollSettles(() => {
        pendingConnected = null;
        toast.success(TOASTS.connected.title, {
          id: CONNECTED_TOAST_ID,
          className: CONNECTED_TOAST_CLASS,
          description: TOASTS.connected.description,
          position: place(),
        });
      });
    },
    onEnded: () => {
      pendingConnected?.();
      pendingConnected = null;
      toast.dismiss(CONNECTED_TOAST_ID);
      toast(TOASTS.ended.title, { description: TOASTS.ended.description, position: place() });
    },
    onCallError: () => {
      toast.error(TOASTS.error.title, { description: TOASTS.error.description, position: place() });
    },
  };
}

/**
 * While a toast shows, keeps it clear as the page moves under it: a toast is placed when it shows,
 * but the page may scroll after (the call's connect scroll, the chat coming into view, the
 * visitor) or change size, and what it covered not then it may cover now. On each scroll or resize,
 * once a frame, `measure` says where toasts go now; `apply` moves the toaster there and any toast
 * on screen elsewhere follows. No listener while no toast shows.
 */
export function useToastsKeptClear(
  measure: (keep?: ToastPosition) => ToastPlacement,
  apply: (placement: ToastPlacement) => void,
): void {
  const showing = useSonner().toasts.length > 0;
  const latest = useRef({ measure, apply });
  latest.current = { measure, apply };
  useEffect(() => {
    if (!showing) return;
    let frame = 0;
    const remeasure = () => {
      frame = 0;
      const next = latest.current.measure();
      latest.current.apply(next);
      for (const shown of toast.getToasts()) {
        if (!('title' in shown)) continue;
        if (shown.position !== 'top-center' && shown.position !== 'bottom-center') continue;
        // Moved only when its own edge now covers something.
        const to = latest.current.measure(shown.position).position;
        if (to === shown.position) continue;
        const again =
          shown.type === 'success' ? toast.success : shown.type === 'error' ? toast.error : toast;
        again(shown.title, { id: shown.id, position: to });
      }
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(remeasure);
    };
    // The page may have moved between the toast's placing and now.
    schedule();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
    };
  }, [showing]);
}

/** Every toast alike: the court's dark green, a gold edge, ivory words; only the icon differs. */
const TOAST_STYLE = {
  background: 'var(--color-court-950)',
  border: '1px solid color-mix(in srgb, var(--color-gold-400) 55%, transparent)',
  color: 'var(--color-ivory)',
  fontFamily: 'inherit',
} as const;

/**
 * The toaster, in <body> so no ancestor's stacking or clipping can hide a toast, under the
 * dialogs' backdrops, placed where `placement` says.
 */
export function CourtToaster({ placement }: { placement: ToastPlacement }) {
  const offset = { top: `${placement.topPx}px`, bottom: `${placement.bottomPx}px` };
  return createPortal(
    <Toaster
      position={placement.position}
      offset={offset}
      mobileOffset={offset}
      theme="dark"
      closeButton
      style={{ zIndex: TOAST_Z_INDEX }}
      toastOptions={{
        style: TOAST_STYLE,
        classNames: { description: '!text-mist', title: '!font-semibold !text-gold-100' },
      }}
    />,
    document.body,
  );
}
