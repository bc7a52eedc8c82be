import type { CallError, StartStage, StartStageStatus } from './call-events';
import { describeError } from './daily-payloads';
import type { CallTimers } from './timers';

/** Thrown inside a start when stop, a failure or the timeout has already dealt with it. */
export class StartCancelled extends Error {}

/** A stage failed: the start ends with this stage and error. */
export class StageFailure extends Error {
  constructor(
    readonly stage: StartStage,
    readonly callError: CallError,
  ) {
    super(callError.message);
  }
}

export type OptionalStageError =
  'video-recording-setup-error' | 'audio-observer-setup-error' | 'audio-processing-setup-error';

/** What the pipeline tells the call object as it goes. */
export interface StartReporter {
  /** A stage begins (the call object records it in its status). */
  stage(stage: StartStage): void;
  progress(
    stage: StartStage,
    status: StartStageStatus,
    stageStartedAt: number,
    detail?: string,
  ): void;
  /** An optional stage failed; the start carries on. */
  optionalFailed(error: CallError): void;
}

function attempt<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

const ignore = (): void => undefined;

const START_TIMEOUT = 'start-timeout';

/**
 * One start's stages: each is reported as it starts and completes or fails, any of them is
 * abandoned the moment the start is cancelled (`signal`), and the whole start is bounded by a
 * timeout that can be paused while the visitor, not the service, is what it waits on.
 */
export class StartPipeline {
  stage: StartStage;
  stageStartedAt: number;

  constructor(
    private readonly signal: AbortSignal,
    private readonly timers: CallTimers,
    private readonly reporter: StartReporter,
    firstStage: StartStage,
    readonly startedAt: number,
  ) {
    this.stage = firstStage;
    this.stageStartedAt = startedAt;
  }

  get cancelled(): boolean {
    return this.signal.aborted;
  }

  /** Starts (or restarts) the start timeout. */
  armTimeout(timeoutMs: number, onTimeout: () => void): void {
    this.timers.set(START_TIMEOUT, timeoutMs, onTimeout);
  }

  /** Pauses the start timeout, e.g. while the start waits on the visitor's tap. */
  pauseTimeout(): void {
    this.timers.clear(START_TIMEOUT);
  }

  /** Runs one stage, reporting it; a failure ends the start with a {@link StageFailure}. */
  async run<T>(
    stage: StartStage,
    work: () => T | Promise<T>,
    toError: (error: unknown) => CallError,
  ): Promise<T> {
    if (this.cancelled) throw new StartCancelled();
    this.stage = stage;
    this.stageStartedAt = Date.now();
    this.reporter.stage(stage);
    this.reporter.progress(stage, 'started', this.stageStartedAt);
    let result: T;
    try {
      result = await this.untilCancelled(attempt(work));
    } catch (error) {
      if (error instanceof StartCancelled) throw error;
      throw new StageFailure(stage, toError(error));
    }
    this.reporter.progress(stage, 'completed', this.stageStartedAt);
    return result;
  }

  /** Runs a stage the call can do without: a failure is reported and the start carries on. */
  async runOptional(
    stage: StartStage,
    errorType: OptionalStageError,
    work: () => unknown,
  ): Promise<void> {
    try {
      await this.run(stage, work, (error) => ({
        type: errorType,
        message: describeError(error),
        cause: error,
      }));
    } catch (error) {
      if (!(error instanceof StageFailure)) throw error;
      this.reporter.progress(stage, 'failed', this.stageStartedAt, error.message);
      this.reporter.optionalFailed(error.callError);
    }
  }

  /**
   * Runs a stage the call can do without beside the start, not in its line: it is reported as
   * it starts and ends, but the start's current stage stays what it is, and a failure is only
   * reported. Resolves when it is over, never rejects; a cancelled start ends it quietly.
   */
  async runAside(
    stage: StartStage,
    errorType: OptionalStageError,
    work: () => unknown,
  ): Promise<void> {
    if (this.cancelled) return;
    const startedAt = Date.now();
    this.reporter.progress(stage, 'started', startedAt);
    try {
      await this.untilCancelled(attempt(work));
    } catch (error) {
      if (error instanceof StartCancelled || this.cancelled) return;
      const message = describeError(error);
      this.reporter.progress(stage, 'failed', startedAt, message);
      this.reporter.optionalFailed({ type: errorType, message, cause: error });
      return;
    }
    this.reporter.progress(stage, 'completed', startedAt);
  }

  /** Rejects with StartCancelled as soon as the start is cancelled, whatever `promise` does. */
  untilCancelled<T>(promise: Promise<T>): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) {
      promise.catch(ignore);
      return Promise.reject(new StartCancelled());
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(new StartCancelled());
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          if (signal.aborted) reject(new StartCancelled());
          else resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(signal.aborted ? new StartCancelled() : error);
        },
      );
    });
  }
}
