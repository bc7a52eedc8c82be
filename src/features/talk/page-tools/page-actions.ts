/**
 * What the page does when Pepa shows a section: a scroll (smooth unless the visitor asked for
 * reduced motion), a brief highlight, and the focus moved there unless the visitor is typing or
 * has a dialog open.
 */
import type { PageSection } from './page-tools';

/** How long a shown section stays highlighted. */
export const HIGHLIGHT_MS = 2400;

/** The attribute the stylesheet draws the highlight from. */
export const HIGHLIGHT_ATTRIBUTE = 'data-pepa-shown';

/**
 * Whether the visitor is writing somewhere: a draft in a text field, a text area or an editable
 * element. An empty field that only holds the focus (where it rests after Send) is not writing.
 */
export function isTyping(active: Element | null): boolean {
  if (!active) return false;
  if (active instanceof HTMLTextAreaElement) return active.value !== '';
  if (active instanceof HTMLInputElement) {
    const text = ![
      'button',
      'checkbox',
      'radio',
      'submit',
      'reset',
      'range',
      'color',
      'file',
    ].includes(active.type);
    return text && active.value !== '';
  }
  return active instanceof HTMLElement && active.isContentEditable && active.textContent !== '';
}

/**
 * A modal dialog is open (the share dialog): the focus belongs inside it until the visitor closes
 * it, and the section behind it is seen once they do.
 */
function dialogOpen(doc: Document): boolean {
  return doc.querySelector('[aria-modal="true"]') !== null;
}

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * Shows section `id`. Returns a function that ends the highlight now (for a call that ends, or a
 * component that goes away); the highlight also ends by itself after {@link HIGHLIGHT_MS}.
 * Returns null when the page has no such section.
 */
export function showSection(id: PageSection, doc: Document = document): (() => void) | null {
  const section = doc.getElementById(id);
  if (!section) return null;
  section.scrollIntoView({
    behavior: prefersReducedMotion() ? 'auto' : 'smooth',
    block: 'start',
  });
  section.setAttribute(HIGHLIGHT_ATTRIBUTE, '');
  if (!isTyping(doc.activeElement) && !dialogOpen(doc)) {
    // Focusable by script only, so it reads as the place the visitor is now, without a tab stop.
    if (!section.hasAttribute('tabindex')) section.setAttribute('tabindex', '-1');
    section.focus({ preventScroll: true });
  }
  const timer = window.setTimeout(() => section.removeAttribute(HIGHLIGHT_ATTRIBUTE), HIGHLIGHT_MS);
  return () => {
    window.clearTimeout(timer);
    section.removeAttribute(HIGHLIGHT_ATTRIBUTE);
  };
}
