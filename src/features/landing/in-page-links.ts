import { useEffect } from 'react';

/**
 * On <html>: every section is drawn, however far from the viewport. The sections below the Talk
 * section are drawn only as they come near view (`render-near-view`), with a placeholder height
 * until then; a scroll to an anchor past them is computed with the placeholders and lands short
 * once they are drawn on the way. Drawing them all before the scroll starts gives it the real
 * heights.
 */
export const DRAW_ALL_SECTIONS_CLASS = 'draw-all-sections';

function isInPageLink(target: EventTarget | null): boolean {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  return link !== null && (link.getAttribute('href') ?? '').startsWith('#');
}

/**
 * Makes in-page links (the nav, the footer, the privacy link) land where they point: on the
 * first one followed, every section is drawn before the browser scrolls (the click is seen in
 * the capture phase, before the link's own navigation). Drawn once, the sections keep their
 * heights, so later scrolls land too.
 */
export function useInPageLinksLand(): void {
  useEffect(() => {
    const root = document.documentElement;
    const onClick = (event: MouseEvent) => {
      if (!isInPageLink(event.target) || root.classList.contains(DRAW_ALL_SECTIONS_CLASS)) return;
      root.classList.add(DRAW_ALL_SECTIONS_CLASS);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);
}
