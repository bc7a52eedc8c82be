/**
 * A call whose connection drops: 'reconnecting' while Daily recovers by itself; when Daily gives
 * up, the same room is joined again with a fresh call object (calls are created with
 * `roomDeleteOnUserLeaveEnabled: false`, so the room outlives the visitor). Bounded by the
 * reconnect timeout; failing, the call ends with a reason.
 */
import type { CallEventName, CallEvents } from './call-events';
import {
  CONNECTION_LOST_MESSAGE,
  ENDED_GRACE_MS,
  RECONNECT_TIMEOUT_MS,
  type WebCall,
} from './call-options';
import type { CallSession } from './call-session';
import type { CallStatusMachine } from './call-status';
import { destroyQuietly, rejoinRoom, type JoinHost } from './room-join';

/** What the reconnection needs from the call object. */
export interface ReconnectionHost<TCall extends WebCall> extends JoinHost<TCall> {
  readonly machine: CallStatusMachine;
  emit<K extends CallEventName>(type: K, payload: CallEvents[K]): void;
  close(session: CallSession<TCall>): Promise<void>;
}

export class Reconnection<TCall extends WebCall> {
  constructor(private readonly host: ReconnectionHost<TCall>) {}

  /** The call is over (the server said so, or Pepa left): close it unless the room does first. */
  closeSoon(session: CallSession<TCall>): void {
    if (session.teardown || session.timers.has('ended-grace')) return;
    session.timers.set('ended-grace', ENDED_GRACE_MS, () => void this.host.close(session));
  }

  connectionLost(session: CallSession<TCall>): void {
    const { machine } = this.host;
    if (machine.state !== 'started') return;
    machine.to({ kind: 'reconnecting', rejoining: false });
    session.timers.set('reconnect-timeout', RECONNECT_TIMEOUT_MS, () =>
      this.fail(session, new Error(`Not reconnected within ${RECONNECT_TIMEOUT_MS} ms`)),
    );
  }

  connectionBack(session: CallSession<TCall>): void {
    const { machine } = this.host;
    const status = machine.status;
    if (status.kind !== 'reconnecting' || status.rejoining) return;
    session.timers.clear('reconnect-timeout');
    machine.to({ kind: 'started' });
  }

  private isRejoining(): boolean {
    const status = this.host.machine.status;
    return status.kind === 'reconnecting' && status.rejoining;
  }

  /** Daily gave up on the connection: join the same room again with a fresh call object. */
  async rejoin(session: CallSession<TCall>): Promise<void> {
    const { machine, logger } = this.host;
    if (session.teardown || this.isRejoining() || !session.roomUrl) return;
    if (machine.state === 'started') this.connectionLost(session);
    machine.to({ kind: 'reconnecting', rejoining: true });
    const previous = session.room;
    previous?.detach();
    session.room = null;
    session.assistant.clear();
    session.audio.clear();
    if (previous) destroyQuietly(previous.daily, logger);
    try {
      if (!(await rejoinRoom(this.host, session, session.roomUrl))) return;
      session.timers.clear('reconnect-timeout');
      machine.to({ kind: 'started' });
    } catch (error) {
      if (this.isRejoining()) machine.to({ kind: 'reconnecting', rejoining: false });
      this.fail(session, error);
    }
  }

  private fail(session: CallSession<TCall>, cause: unknown): void {
    if (session.teardown) return;
    this.host.emit('error', { type: 'reconnect-error', message: CONNECTION_LOST_MESSAGE, cause });
    void this.host.close(session);
  }
}
