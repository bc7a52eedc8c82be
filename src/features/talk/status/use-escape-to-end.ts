import { useEffect, useRef, useState } from 'react';

/** How long Escape's question waits for a second Escape before it goes away. */
export const ESCAPE_QUESTION_MS = 5000;

/** A field's, a picker's or a dialog's Escape is theirs, never the call's. */
const OWN_ESCAPE = 'input, select, textarea, dialog, [role="dialog"], [aria-modal="true"]';

export interface EscapeToEndInput {
  /** A call, or a place in line, is there to end. */
  active: boolean;
  /** In line rather than in a call: a question asked about one is no answer about the other. */
  waiting: boolean;
  /** Ends the call or leaves the line. */
  end(): void;
  /** Escapes from inside these are someone else's (e.g. the chat beside the line). */
  ownerSelector?: string;
}

/**
 * Escape never ends a call or gives up a place in line silently: the first Escape asks, for
 * ESCAPE_QUESTION_MS, and a second Escape within that time ends (End Call, or Leave the line,
 * answers yes as well). A call cannot be resumed and a place given back goes to the next guest,
 * so the panel asks first rather than offering an undo. An Escape that something else handled
 * (the menu closing) or that belongs to a field or dialog is left alone. Returns whether the
 * question is being asked; the panel says it (panel-texts.ts) where it is announced.
 */
export function useEscapeToEnd({ active, waiting, end, ownerSelector }: EscapeToEndInput): boolean {
  const [asking, setAsking] = useState(false);
  // Read by the key listener, which must see a question asked by the press just before it.
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
    }, ESCAPE_QUESTION_MS);
    return () => clearTimeout(timer);
  }, [asking]);

  useEffect(() => {
    if (!active) return;
    const owners = ownerSelector ? `${OWN_ESCAPE}, ${ownerSelector}` : OWN_ESCAPE;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (event.target instanceof Element && event.target.closest(owners)) return;
      const ending = askingRef.current;
      askingRef.current = !ending;
      setAsking(!ending);
      if (ending) endRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, ownerSelector]);

  return active && asking;
}
