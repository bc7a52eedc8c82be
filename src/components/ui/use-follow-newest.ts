import { useLayoutEffect, useRef } from 'react';

/**
 * Keeps a scrolling panel pinned to its newest entry unless the visitor scrolled up to read: the
 * voice transcript's and the text chat's. `dependency` changes as entries arrive.
 */
export function useFollowNewest(dependency: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  useLayoutEffect(() => {
    const panel = ref.current;
    if (panel && pinned.current) panel.scrollTop = panel.scrollHeight;
  }, [dependency]);
  const onScroll = () => {
    const panel = ref.current;
    if (!panel) return;
    pinned.current = panel.scrollHeight - panel.scrollTop - panel.clientHeight < 24;
  };
  return { ref, onScroll };
}
