import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

function isGone(element: HTMLElement): boolean {
  return (
    !element.isConnected ||
    (element instanceof HTMLButtonElement && element.disabled) ||
    element.closest('[hidden], [inert]') !== null
  );
}

/**
 * Keeps the keyboard focus from falling to the page when the call changes the panel under it: a
 * control that held the focus goes away (the field when Pepa ends the call, 'Write to Pepa'
 * once the chat opens, 'Tap to hear Pepa' once she plays), and the focus moves once,
 * to `home()`. A visitor who moved the focus elsewhere themselves is left where they went.
 */
export function useFocusRescue(
  container: RefObject<HTMLElement | null>,
  home: () => HTMLElement | null,
): void {
  const lastFocused = useRef<HTMLElement | null>(null);
  const homeRef = useRef(home);
  homeRef.current = home;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const onFocusIn = (event: FocusEvent) => {
      lastFocused.current = event.target instanceof HTMLElement ? event.target : null;
    };
    const onFocusOut = (event: FocusEvent) => {
      const left = event.target;
      if (event.relatedTarget instanceof Node && element.contains(event.relatedTarget)) return;
      // Once this task's focus changes have settled: moved away on purpose (the control is still
      // there), so it is the visitor's focus to keep, not ours to bring back.
      queueMicrotask(() => {
        if (left instanceof HTMLElement && !isGone(left) && lastFocused.current === left) {
          lastFocused.current = null;
        }
      });
    };
    element.addEventListener('focusin', onFocusIn);
    element.addEventListener('focusout', onFocusOut);
    return () => {
      element.removeEventListener('focusin', onFocusIn);
      element.removeEventListener('focusout', onFocusOut);
    };
  }, [container]);

  // After every render: the control holding the focus may just have gone.
  useLayoutEffect(() => {
    const lost = lastFocused.current;
    if (!lost || !isGone(lost)) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== lost) return;
    lastFocused.current = null;
    homeRef.current()?.focus();
  });
}
