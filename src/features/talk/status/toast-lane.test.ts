import { describe, expect, it } from 'vitest';
import { createToastLane, type ToastKind, type Toasts } from './toast-lane';

/** A toast library that records what it is asked, and lets the test close what shows. */
function recordingToasts() {
  const log: string[] = [];
  const open = new Map<string, () => void>();
  const toasts: Toasts = {
    show(kind, id, onGone) {
      log.push(`show ${kind}`);
      open.set(id, onGone);
    },
    dismiss(id) {
      log.push(`dismiss ${id.split('-').at(-2) ?? ''}`);
    },
  };
  /** The toast of this kind on screen closes (timed out, closed, or taken away). */
  const close = (kind: ToastKind) => {
    const entry = [...open].find(([id]) => id.includes(`-${kind}-`));
    if (!entry) throw new Error(`no ${kind} toast is open`);
    open.delete(entry[0]);
    entry[1]();
  };
  return { toasts, log, close };
}

describe('the toast lane', () => {
  it('shows each event of a start once, however often it is heard', () => {
    const { toasts, log, close } = recordingToasts();
    const lane = createToastLane(toasts);
    lane.show('connected', 1);
    lane.show('connected', 1);
    close('connected');
    lane.show('connected', 1);
    lane.show('ended', 1);
    lane.show('ended', 1);
    close('ended');
    lane.show('ended', 1);
    expect(log).toEqual(['show connected', 'show ended']);
  });

  it('shows the same event again for the next start', () => {
    const { toasts, log, close } = recordingToasts();
    const lane = createToastLane(toasts);
    lane.show('startFailed', 1);
    close('startFailed');
    lane.show('startFailed', 2);
    expect(log).toEqual(['show startFailed', 'show startFailed']);
  });

  it("takes 'Connected' away at once when the call ends, and shows 'Call ended' once it has gone", () => {
    const { toasts, log, close } = recordingToasts();
    const lane = createToastLane(toasts);
    lane.show('connected', 1);
    lane.show('ended', 1);
    expect(log).toEqual(['show connected', 'dismiss connected']);
    close('connected');
    expect(log).toEqual(['show connected', 'dismiss connected', 'show ended']);
  });

  it("lets 'Error' be read before 'Call ended' shows: one toast at a time, none moved", () => {
    const { toasts, log, close } = recordingToasts();
    const lane = createToastLane(toasts);
    lane.show('error', 1);
    lane.show('ended', 1);
    expect(log).toEqual(['show error']);
    close('error');
    expect(log).toEqual(['show error', 'show ended']);
  });

  it("drops a waiting 'Connected' that something newer overtook", () => {
    const { toasts, log, close } = recordingToasts();
    const lane = createToastLane(toasts);
    lane.show('startFailed', 1);
    lane.show('connected', 2);
    lane.show('ended', 2);
    close('startFailed');
    expect(log).toEqual(['show startFailed', 'show ended']);
  });

  it('keeps its ids apart from another lane’s', () => {
    const ids: string[] = [];
    const toasts: Toasts = { show: (_kind, id) => void ids.push(id), dismiss: () => undefined };
    createToastLane(toasts).show('connected', 1);
    createToastLane(toasts).show('connected', 1);
    expect(new Set(ids).size).toBe(2);
  });

  it('withdraws a toast the visitor has acted on: gone at once if it shows, never shown if it waits', () => {
    const { toasts, log, close } = recordingToasts();
    const lane = createToastLane(toasts);
    lane.show('startFailed', 1);
    lane.withdraw('startFailed');
    expect(log).toEqual(['show startFailed', 'dismiss startFailed']);
    close('startFailed');
    lane.show('error', 2);
    lane.show('startFailed', 3);
    lane.withdraw('startFailed');
    close('error');
    expect(log).toEqual(['show startFailed', 'dismiss startFailed', 'show error']);
  });
});
