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

/** How long after a link is followed its scroll may still end and be corrected. */
const LANDING_MS = 3000;

/**
 * A smooth scroll's target is fixed when it starts: if the page above the target grows on the
 * way (an image, a section drawn), the scroll ends short of it. When the link's scroll ends with
 * its target off its place, the page goes there at once. Returns what stops the watch.
 */
function landAgain(target: EventTarget | null): () => void {
  const href = target instanceof Element ? target.closest('a[href]')?.getAttribute('href') : null;
  const id = href?.slice(1);
  if (!id || typeof window.onscrollend === 'undefined') return () => {};
  const land = () => {
    stop();
    const element = document.getElementById(decodeURIComponent(id));
    if (!element) return;
    const style = getComputedStyle(document.documentElement);
    const want =
      (parseFloat(style.scrollPaddingTop) || 0) +
      (parseFloat(getComputedStyle(element).scrollMarginTop) || 0);
    if (Math.abs(element.getBoundingClientRect().top - want) > 2) {
      element.scrollIntoView({ block: 'start', behavior: 'instant' });
    }
  };
  const timer = setTimeout(() => stop(), LANDING_MS);
  const stop = () => {
    clearTimeout(timer);
    window.removeEventListener('scrollend', land);
  };
  window.addEventListener('scrollend', land);
  return stop;
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
    let stopLanding = () => {};
    const onClick = (event: MouseEvent) => {
      if (!isInPageLink(event.target)) return;
      stopLanding();
      stopLanding = landAgain(event.target);
      if (root.classList.contains(DRAW_ALL_SECTIONS_CLASS)) return;
      root.classList.add(DRAW_ALL_SECTIONS_CLASS);
    };
    document.addEventListener('click', onClick, true);
    return () => {
      stopLanding();
      document.removeEventListener('click', onClick, true);
    };
  }, []);
}
