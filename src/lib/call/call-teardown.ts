/**
 * The one teardown: every ending of a start or a call (stop, end, leaving, a fatal error, a
 * failed or timed-out start) goes through `closeSession`, once per session.
 */
import type { CallEmitter } from './call-emitter';
import type { CallSession } from './call-session';
import { isInCall, type CallStatusMachine } from './call-status';
import type { WebCall } from './call-options';
import { CUSTOMER_ENDED } from './protocol';

/** What the teardown needs of the call object. */
export interface TeardownHost<TCall extends WebCall> {
  machine: CallStatusMachine;
  events: CallEmitter;
  /** Whether `session` is the call object's current one. */
  isCurrent(session: CallSession<TCall>): boolean;
  /** Forgets `session` (its room now closed) and goes idle, if it is still the current one. */
  release(session: CallSession<TCall>): void;
}

/** Ends `session`: idempotent, resolves once its room is closed. */
export function closeSession<TCall extends WebCall>(
  host: TeardownHost<TCall>,
  session: CallSession<TCall>,
): Promise<void> {
  if (session.teardown) return session.teardown;
  let done!: () => void;
  session.teardown = new Promise<void>((resolve) => {
    done = resolve;
  });
  const current = host.isCurrent(session);
  const wasInCall = current && isInCall(host.machine.status);
  session.controller.abort();
  session.outcome.settle({ status: 'stopped' });
  if (current) host.machine.to({ kind: 'ending' });

  session.timers.clearAll();
  session.audio.clear();
  // The microphone the start opened is this session's to release, whatever the room did.
  session.microphoneTrack?.stop();
  session.microphoneTrack = null;
  const room = session.room;
  room?.detach();
  session.room = null;

  if (wasInCall) {
    host.events.emit('call-end');
    if (!session.endedStatusSeen) {
      session.endedStatusSeen = true;
      host.events.emit('message', CUSTOMER_ENDED);
    }
  }

  void (async () => {
    await room?.close();
    host.release(session);
    done();
  })();
  return session.teardown;
}
