/**
 * The call view's toasts: the spec's four, word for word, in one lane under the navigation bar
 * that the Talk panel leaves free (court-toaster.tsx draws it). A toast is never moved once it
 * shows, and each event shows exactly one: a toast is keyed by its event and the start it belongs
 * to, and a key already shown is not shown again. One toast is on screen at a time, so none is
 * pushed about by the next: 'Connected' is old news once anything else happens and goes at once;
 * any other toast is let finish before the next one shows.
 */
import { toast } from 'sonner';

/** The spec's toasts, word for word. */
export const TOASTS = {
  connected: { title: 'Connected', description: "You're now talking to Pepa!" },
  ended: { title: 'Call ended', description: 'Thanks for chatting with Pepa!' },
  error: { title: 'Error', description: 'Something went wrong with the voice call' },
  startFailed: {
    title: 'Failed to connect',
    description: 'Please check your microphone permissions',
  },
} as const;

export type ToastKind = keyof typeof TOASTS;

/** What the lane needs of a toast library: show one (told when it is gone), take one away. */
export interface Toasts {
  show(kind: ToastKind, id: string, onGone: () => void): void;
  dismiss(id: string): void;
}

/** The spec's toasts through sonner: 'Connected' a success, 'Error' destructive. */
export const sonnerToasts: Toasts = {
  show(kind, id, onGone) {
    const { title, description } = TOASTS[kind];
    const options = { id, description, onDismiss: onGone, onAutoClose: onGone };
    if (kind === 'connected') toast.success(title, options);
    else if (kind === 'error' || kind === 'startFailed') toast.error(title, options);
    else toast(title, options);
  },
  dismiss: (id) => void toast.dismiss(id),
};

export interface ToastLane {
  /**
   * Shows `kind`'s toast for `occasion` (the serial of the start it belongs to), unless that
   * toast was shown already: an event heard twice is shown once.
   */
  show(kind: ToastKind, occasion: number): void;
  /**
   * The visitor has done what `kind`'s toast asked of them (after a refused microphone, turned to
   * the chat): it goes at once if it shows, and never shows if it waits.
   */
  withdraw(kind: ToastKind): void;
}

/** Each lane's ids are its own, so a lane never updates a toast another lane showed. */
let lanes = 0;

/** A lane of toasts, one on screen at a time, each event's toast shown once. */
export function createToastLane(toasts: Toasts = sonnerToasts): ToastLane {
  lanes += 1;
  const lane = lanes;
  const shownKeys = new Set<string>();
  const waiting: Array<{ kind: ToastKind; id: string }> = [];
  let current: { kind: ToastKind; id: string } | null = null;

  const present = (next: { kind: ToastKind; id: string }) => {
    current = next;
    toasts.show(next.kind, next.id, () => {
      // Told once it is gone (closed, timed out or taken away): the next one may show.
      if (current?.id !== next.id) return;
      current = null;
      const following = waiting.shift();
      if (following) present(following);
    });
  };

  return {
    show(kind, occasion) {
      const key = `${kind}-${occasion}`;
      if (shownKeys.has(key)) return;
      shownKeys.add(key);
      const next = { kind, id: `pepa-toast-${lane}-${key}` };
      if (kind !== 'connected') {
        // A 'Connected' still waiting announces a call that something newer has overtaken.
        for (let index = waiting.length - 1; index >= 0; index -= 1) {
          if (waiting[index]?.kind === 'connected') waiting.splice(index, 1);
        }
      }
      if (current === null) {
        present(next);
        return;
      }
      waiting.push(next);
      // 'Connected' gives way at once; the next toast shows once it has gone.
      if (current.kind === 'connected' && kind !== 'connected') toasts.dismiss(current.id);
    },
    withdraw(kind) {
      for (let index = waiting.length - 1; index >= 0; index -= 1) {
        if (waiting[index]?.kind === kind) waiting.splice(index, 1);
      }
      if (current?.kind === kind) toasts.dismiss(current.id);
    },
  };
}
