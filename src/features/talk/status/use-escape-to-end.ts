import { useEffect, useRef, useState, type RefObject } from 'react';

/** How long Escape's question waits for a second Escape before it goes away. */
export const ESCAPE_CONFIRM_MS = 5000;

/** A field's, a picker's or a dialog's Escape is theirs, never the call's. */
const OWN_ESCAPE = 'input, select, textarea, [role="dialog"], [aria-modal="true"]';

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

export interface EscapeToEndInput {
  /** A call, or a place in line, is there to end. */
  active: boolean;
  /** In line rather than in a call: a question asked about one is not an answer for the other. */
  waiting: boolean;
  /** Ends the call or leaves the line. */
  end(): void;
  /** Where the question is shown: brought into view when it is out of it. */
  questionRef: RefObject<HTMLElement | null>;
  /** Escapes from inside these are someone else's (the chat beside the line). */
  ownerSelector?: string;
}

/**
 * Escape never ends a call or leaves the line silently: the first Escape asks ("End the call?
 * Press Escape again or End Call."), said politely and shown where it can be seen, for
 * ESCAPE_CONFIRM_MS; a second Escape within that time ends. A call cannot be undone, and a place
 * given back goes to the next guest, so the panel asks first rather than offering an undo.
 * Returns whether the question is being asked.
 */
export function useEscapeToEnd({
  active,
  waiting,
  end,
  questionRef,
  ownerSelector,
}: EscapeToEndInput): boolean {
  const [asking, setAsking] = useState(false);
  const askingRef = useRef(false);
  const endRef = useRef(end);
  endRef.current = end;

  // A question about the line is no answer about the call the line became, and the reverse.
  useEffect(() => {
    askingRef.current = false;
    setAsking(false);
  }, [active, waiting]);

  useEffect(() => {
    if (!asking) return;
    const timer = setTimeout(() => {
      askingRef.current = false;
      setAsking(false);
    }, ESCAPE_CONFIRM_MS);
    return () => clearTimeout(timer);
  }, [asking]);

  // Shown where the visitor can see it: wherever they were on the page when they pressed it.
  useEffect(() => {
    const question = questionRef.current;
    if (!asking || !question) return;
    const box = question.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    question.scrollIntoView?.({
      block: 'center',
      behavior: prefersReducedMotion() ? 'auto' : 'smooth',
    });
  }, [asking, questionRef]);

  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const owners = ownerSelector ? `${OWN_ESCAPE}, ${ownerSelector}` : OWN_ESCAPE;
      if (event.target instanceof Element && event.target.closest(owners)) return;
      if (askingRef.current) {
        askingRef.current = false;
        setAsking(false);
        endRef.current();
        return;
      }
      askingRef.current = true;
      setAsking(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, ownerSelector]);

  return active && asking;
}
