/**
 * The call object's events: a mitt emitter whose listeners cannot break the call (one that
 * throws is logged), and the start's progress and failure reports in the shape the UI reads.
 */
import mitt, { type Emitter, type Handler } from 'mitt';
import type {
  CallError,
  CallEventName,
  CallEvents,
  StartStage,
  StartStageStatus,
} from './call-events';
import type { CallLogger } from './call-options';

export class CallEmitter {
  private readonly emitter: Emitter<CallEvents> = mitt<CallEvents>();

  constructor(private readonly logger: CallLogger) {}

  on<K extends CallEventName>(type: K, handler: Handler<CallEvents[K]>): () => void {
    const safe: Handler<CallEvents[K]> = (payload) => {
      try {
        handler(payload);
      } catch (error) {
        this.logger.error(`A "${type}" listener threw`, error);
      }
    };
    this.emitter.on(type, safe);
    return () => this.emitter.off(type, safe);
  }

  once<K extends CallEventName>(type: K, handler: Handler<CallEvents[K]>): () => void {
    const unsubscribe = this.on(type, (payload) => {
      unsubscribe();
      handler(payload);
    });
    return unsubscribe;
  }

  emit<K extends CallEventName>(
    type: K,
    ...payload: undefined extends CallEvents[K] ? [] : [CallEvents[K]]
  ): void {
    this.emitter.emit(type, payload[0] as CallEvents[K]);
  }

  /** For modules that pass the payload along whatever its type. */
  readonly send = <K extends CallEventName>(type: K, payload: CallEvents[K]): void =>
    this.emitter.emit(type, payload);

  progress(stage: StartStage, status: StartStageStatus, stageStartedAt: number, detail?: string) {
    const timestamp = Date.now();
    this.emit('call-start-progress', {
      stage,
      status,
      timestamp,
      ...(status === 'started' ? {} : { durationMs: timestamp - stageStartedAt }),
      ...(detail === undefined ? {} : { detail }),
    });
  }

  /** A start failed in `stage`: its progress, the error, and `call-start-failed`. */
  startFailed(stage: StartStage, error: CallError, startedAt: number, stageStartedAt: number) {
    const timestamp = Date.now();
    this.progress(stage, 'failed', stageStartedAt, error.message);
    this.emit('error', error);
    this.emit('call-start-failed', {
      stage,
      error,
      totalDurationMs: timestamp - startedAt,
      timestamp,
    });
  }
}
