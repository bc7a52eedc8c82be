import type { CallState, StartStage } from './call-events';

/**
 * The call object's one status. It replaces the flags a start, a call and a teardown used to keep
 * side by side: what is true of the call is read from here, and it changes only through
 * {@link CallStatusMachine.to}, which refuses any transition not in {@link LEGAL_TRANSITIONS}.
 */
export type CallStatus =
  | { kind: 'idle' }
  | { kind: 'starting'; stage: StartStage }
  | { kind: 'started' }
  /** The connection dropped during a call; `rejoining` once a fresh call object is joining. */
  | { kind: 'reconnecting'; rejoining: boolean }
  | { kind: 'ending' };

/** Which status kinds may follow each kind. A start moves through its stages as `starting`. */
export const LEGAL_TRANSITIONS: Readonly<Record<CallState, readonly CallState[]>> = {
  idle: ['starting'],
  starting: ['starting', 'started', 'ending'],
  started: ['reconnecting', 'ending'],
  reconnecting: ['reconnecting', 'started', 'ending'],
  ending: ['idle'],
};

export const IDLE: CallStatus = { kind: 'idle' };

export function canTransition(from: CallStatus, to: CallStatus): boolean {
  return LEGAL_TRANSITIONS[from.kind].includes(to.kind);
}

/** A call that has started and not yet begun to end: a blip does not end it. */
export function isInCall(status: CallStatus): boolean {
  return status.kind === 'started' || status.kind === 'reconnecting';
}

export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
  constructor(
    readonly from: CallStatus,
    readonly to: CallStatus,
  ) {
    super(`A call cannot go from "${from.kind}" to "${to.kind}"`);
  }
}

/**
 * Holds the status and tells `onChange` when its kind changes (a new stage is a change of status
 * but not of the public `CallState`).
 */
export class CallStatusMachine {
  private current: CallStatus = IDLE;

  constructor(private readonly onChange: (state: CallState, previous: CallState) => void) {}

  get status(): CallStatus {
    return this.current;
  }

  get state(): CallState {
    return this.current.kind;
  }

  /** Moves to `next`; throws {@link IllegalTransitionError} for a transition the table lacks. */
  to(next: CallStatus): void {
    const previous = this.current;
    if (!canTransition(previous, next)) throw new IllegalTransitionError(previous, next);
    this.current = next;
    if (next.kind !== previous.kind) this.onChange(next.kind, previous.kind);
  }
}
