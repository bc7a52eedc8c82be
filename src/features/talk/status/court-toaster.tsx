import { createPortal } from 'react-dom';
import { Toaster } from 'sonner';

/**
 * Where the lane starts: under the fixed navigation bar (styles.css, `--toast-lane-top`). The
 * Talk panel keeps what it brings into view below the lane's end (`--toast-lane-end`).
 */
const LANE_OFFSET = { top: 'var(--toast-lane-top)', left: '16px', right: '16px' };

/**
 * Over the page and the docked bar, under the navigation bar's menu and every dialog's backdrop
 * (the share dialog's is z-60): a toast never covers a dialog.
 */
export const TOAST_Z_INDEX = 45;

/**
 * The toasts' one lane (toast-lane.ts shows them): top centre, under the navigation bar, at one
 * place for the whole visit. Nothing measures the page to place a toast or moves one that shows.
 * In <body>, so no ancestor's stacking or clipping can hide it.
 */
export function CourtToaster() {
  return createPortal(
    <Toaster
      position="top-center"
      // A toast that goes fades in its place (styles.css).
      className="pepa-toast-lane"
      offset={LANE_OFFSET}
      mobileOffset={LANE_OFFSET}
      // One toast at a time (the lane lets the next show once the last has gone); should two
      // ever be there, only the newest is seen, never a stack that shifts.
      visibleToasts={1}
      theme="dark"
      richColors
      closeButton
      style={{ zIndex: TOAST_Z_INDEX }}
    />,
    document.body,
  );
}
