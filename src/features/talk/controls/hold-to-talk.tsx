import { useEffect, useRef, type RefObject } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import type { TalkMode } from './use-hold-to-talk';

export const HOLD_MODE_LABEL = 'Hold-to-talk mode';
export const HOLD_BUTTON_LABEL = 'Hold to talk';
export const HOLD_KEY_HINT = 'Or hold Space while the panel has focus.';

/** Controls that keep Space for themselves: typing, choosing, pressing. */
function usesSpace(target: EventTarget | null): boolean {
  return (
    target instanceof Element &&
    target.closest(
      'input, textarea, select, a, [contenteditable="true"], button:not([data-hold])',
    ) !== null
  );
}

/** The mode switch: open microphone, or hold to talk. Remembered on the device. */
export function HoldModeSwitch({ mode, onMode }: { mode: TalkMode; onMode(mode: TalkMode): void }) {
  const on = mode === 'hold';
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      onClick={() => onMode(on ? 'open' : 'hold')}
      className={buttonClass('outline', 'md', on ? 'border-gold-200 text-gold-100' : '')}
    >
      <span
        aria-hidden="true"
        className={`inline-block h-4 w-7 rounded-full border border-gold-300 p-0.5 ${on ? 'bg-gold-300' : ''}`}
      >
        <span
          className={`block size-2.5 rounded-full ${on ? 'translate-x-3 bg-court-950' : 'bg-gold-300'}`}
        />
      </span>
      {HOLD_MODE_LABEL}
    </button>
  );
}

/**
 * The talk button of hold mode: press and hold (touch, mouse or pen), or hold Space while the focus
 * is in the panel. Its pressed state is announced; releasing sends the turn.
 */
export function HoldToTalkButton({
  holding,
  onHolding,
  panelRef,
}: {
  holding: boolean;
  onHolding(holding: boolean): void;
  /** Space holds while the focus is anywhere in here (not on a control that uses Space). */
  panelRef: RefObject<HTMLElement | null>;
}) {
  const hold = useRef(onHolding);
  hold.current = onHolding;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.code !== 'Space' && event.key !== ' ') return;
      const panel = panelRef.current;
      if (!panel || !(event.target instanceof Node) || !panel.contains(event.target)) return;
      if (usesSpace(event.target)) return;
      event.preventDefault();
      if (!event.repeat) hold.current(true);
    };
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.code !== 'Space' && event.key !== ' ') return;
      hold.current(false);
    };
    // A hold never outlives the visitor leaving the window.
    const release = () => hold.current(false);
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('keyup', onKeyUp);
    window.addEventListener('blur', release);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('blur', release);
    };
  }, [panelRef]);

  return (
    <button
      type="button"
      data-hold=""
      aria-pressed={holding}
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        event.currentTarget.setPointerCapture?.(event.pointerId);
        onHolding(true);
      }}
      onPointerUp={() => onHolding(false)}
      onPointerCancel={() => onHolding(false)}
      onLostPointerCapture={() => onHolding(false)}
      onContextMenu={(event) => event.preventDefault()}
      className={buttonClass(
        holding ? 'gold' : 'outline',
        'md',
        'min-w-36 touch-none [-webkit-touch-callout:none]',
      )}
    >
      {HOLD_BUTTON_LABEL}
    </button>
  );
}
