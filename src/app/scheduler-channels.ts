/**
 * A page restored from the back/forward cache must be live. React's scheduler runs its work in
 * turns, each started by a message on a `MessageChannel` it makes when it loads; it marks its loop
 * as running until a turn finds no more work, and posts no new message while the mark is set.
 * Firefox drops a message still in flight when the page enters the cache, so a page left while
 * React had work (a toast leaving, a status changing) comes back with the mark set and no message
 * to clear it: it draws, but nothing it does shows any more.
 *
 * So the channels made while React loads are recorded (this module is imported before React and
 * restores the browser's `MessageChannel` once React has loaded), and a page restored from the cache
 * posts one message on each of those whose receiving end listens. A turn that finds no work
 * clears the mark and ends; a stalled loop runs again. An extra turn when nothing was lost costs
 * nothing, so the message is posted on every restore rather than after a guess that the page
 * looks stalled.
 */
const recorded: MessageChannel[] = [];
const Native = typeof MessageChannel === 'function' ? MessageChannel : undefined;

if (Native) {
  window.MessageChannel = class RecordedChannel extends Native {
    constructor() {
      super();
      recorded.push(this);
    }
  };
}

/**
 * Stops recording (the browser's own `MessageChannel` again) and, from now on, restarts the
 * recorded channels' turns whenever the page is restored from the back/forward cache.
 */
export function keepSchedulerAliveAcrossRestores() {
  if (!Native) return;
  window.MessageChannel = Native;
  const listening = recorded.filter((channel) => channel.port1.onmessage !== null);
  recorded.length = 0;
  if (listening.length === 0) return;
  addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    for (const channel of listening) channel.port2.postMessage(null);
  });
}
