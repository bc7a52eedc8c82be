/** A control as a visitor names it: its role and its accessible name, optionally in a landmark. */
export interface ControlQuery {
  role: 'button' | 'textbox' | 'link';
  name: string;
  /** A CSS selector the control is inside, e.g. '#talk'. */
  within?: string;
}

/**
 * Runs in the page (so it closes over nothing): the first visible control with that role whose
 * accessible name (aria-label, aria-labelledby, a label, or its text) is exactly `name`.
 */
export function findControl(query: ControlQuery): Element | null {
  const selectors = {
    button: 'button, [role="button"], input[type="button"], input[type="submit"]',
    textbox: 'input:not([type]), input[type="text"], textarea, [role="textbox"]',
    link: 'a[href], [role="link"]',
  };
  const scope = query.within ? document.querySelector(query.within) : document;
  if (!scope) return null;
  const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
  // The text a screen reader reads: what is hidden from it is left out.
  const spoken = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    if (node instanceof Element && node.getAttribute('aria-hidden') === 'true') return '';
    return [...node.childNodes].map(spoken).join('');
  };
  const nameOf = (element: Element) => {
    const label = element.getAttribute('aria-label');
    if (label) return squash(label);
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy) {
      return squash(
        labelledBy
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      );
    }
    if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
      const labels = element.labels ? [...element.labels] : [];
      if (labels.length > 0) return squash(labels.map((node) => node.textContent).join(' '));
      return squash(element.getAttribute('placeholder'));
    }
    return squash(spoken(element));
  };
  for (const element of scope.querySelectorAll(selectors[query.role])) {
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (nameOf(element) === query.name) return element;
  }
  return null;
}
