import { useEffect } from 'react';

/**
 * Keeps the screen awake while `active`, where the browser offers a screen wake lock: a phone
 * that dims and locks mid-sentence would cut the visitor off from Pepa. Browsers drop the lock
 * when the page is hidden, so it is taken again when the page comes back into view. Failing to
 * get one (no support, battery saver, a permissions policy) is harmless and stays quiet.
 *
 * One request at a time: the page can be hidden and shown again while a request is pending, and
 * a second request then would leave the first one's lock held by nobody. A lock that arrives
 * after the call ended is released at once.
 */
export function useWakeLock(active: boolean): void {
  useEffect(() => {
    if (!active || typeof navigator === 'undefined' || !('wakeLock' in navigator)) return;
    let sentinel: WakeLockSentinel | null = null;
    let pending = false;
    /** The visibility changed while a request was pending: look again once it settles. */
    let recheck = false;
    let disposed = false;

    const acquire = async () => {
      if (pending) {
        recheck = true;
        return;
      }
      if (document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      pending = true;
      recheck = false;
      try {
        const taken = await navigator.wakeLock.request('screen');
        if (disposed) void taken.release();
        else sentinel = taken;
      } catch {
        // Not granted here: the call goes on without it.
      } finally {
        pending = false;
      }
      // Hidden and shown again meanwhile: the browser may have dropped the new lock already.
      if (recheck && !disposed) void acquire();
    };
    const onVisibility = () => void acquire();

    void acquire();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      disposed = true;
      document.removeEventListener('visibilitychange', onVisibility);
      if (sentinel && !sentinel.released) void sentinel.release();
      sentinel = null;
    };
  }, [active]);
}
