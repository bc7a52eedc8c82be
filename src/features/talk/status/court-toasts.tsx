/**
 * The voice chat's toasts: the spec's four, word for word, in one style (the court's colours),
 * placed where they cover nothing the visitor needs (the status, a control, the docked bar) and
 * drawn under any dialog.
 */
import { createPortal } from 'react-dom';
import { Toaster, toast } from 'sonner';
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

/** What a toast must never cover: the status, the controls, the captions, the docked bar. */
const NEEDED =
  '[data-phase], button, input, textarea, select, a[href], [role="switch"], [role="log"], [data-call-dock]';

export type ToastPosition = 'top-center' | 'bottom-center';

export interface ToastPlacement {
  position: ToastPosition;
  /** Pixels from the bottom edge: clear of the docked bar when it shows. */
  bottomPx: number;
}

export const DEFAULT_PLACEMENT: ToastPlacement = {
  position: 'top-center',
  bottomPx: BOTTOM_GAP_PX,
};

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
 * Where a toast covers least of what the visitor needs: the top band (under the navigation bar)
 * or the bottom one (above the screen's edge, or the docked bar). Covering the status line counts
 * far more than covering anything else; with nothing covered either way, a phone's toast goes to
 * the bottom (under the thumb, away from the status) and a desktop's to the top.
 */
export function placeToast(
  viewport: { width: number; height: number },
  needed: readonly Box[],
  dockHeightPx = 0,
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
  return { position: cost(second) < cost(first) ? second : first, bottomPx };
}

/**
 * Measures what is on screen now (the Talk section's status and controls, the docked bar) and
 * places the next toast away from it. Called when a toast is about to show: the visitor may have
 * scrolled, and the bar may have come or gone.
 */
export function toastPlacementNow(section: Element | null): ToastPlacement {
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
  return placeToast({ width: window.innerWidth, height }, boxes, dockHeightPx);
}

export function notificationsFor(place: () => void): VoiceNotifications {
  return {
    onConnected: () => {
      place();
      toast.success(TOASTS.connected.title, { description: TOASTS.connected.description });
    },
    onEnded: () => {
      place();
      toast(TOASTS.ended.title, { description: TOASTS.ended.description });
    },
    onCallError: () => {
      place();
      toast.error(TOASTS.error.title, { description: TOASTS.error.description });
    },
  };
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
  const offset = { top: `${TOP_OFFSET_PX}px`, bottom: `${placement.bottomPx}px` };
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
