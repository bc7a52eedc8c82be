import { AssistantAudio } from './assistant-audio';
import type { CallEventName, CallEvents, StartStage } from './call-events';
import type { CallLogger } from './call-options';
import type { WebCall } from './call-options';
import type { DailySession } from './daily-session';
import { AssistantRecogniser } from './protocol';
import { SpeechDetector } from './speech-detector';
import type { StartOutcome } from './start-error';
import { StartPipeline, type StartReporter } from './start-pipeline';
import { CallTimers } from './timers';

/** A promise settled once, by whoever comes first. */
export class Once<T> {
  readonly promise: Promise<T>;
  private resolveWith!: (value: T) => void;
  private done = false;

  constructor() {
    this.promise = new Promise<T>((resolve) => {
      this.resolveWith = resolve;
    });
  }

  get settled(): boolean {
    return this.done;
  }

  settle(value: T): void {
    if (this.done) return;
    this.done = true;
    this.resolveWith(value);
  }
}

/** Everything one start owns. A new start gets a new session, so nothing carries over. */
export class CallSession<TCall extends WebCall> {
  readonly controller = new AbortController();
  readonly outcome = new Once<StartOutcome<TCall>>();
  readonly listening = new Once<void>();
  readonly timers = new CallTimers();
  readonly assistant = new AssistantRecogniser();
  readonly audio: AssistantAudio;
  readonly speech: SpeechDetector;
  readonly pipeline: StartPipeline;
  webCall: TCall | null = null;
  room: DailySession | null = null;
  /** The room this call joined (checked), for a rejoin. */
  roomUrl: string | null = null;
  /** The server's `ended` status arrived, so the page need not say it. */
  endedStatusSeen = false;
  /** The visitor muted the microphone: nothing turns it back on but the visitor. */
  muted = false;
  /**
   * The microphone track the start opened and the room sends; this session stops it in its
   * teardown (the call object does not own it).
   */
  microphoneTrack: MediaStreamTrack | null = null;
  /** The microphone the visitor chose and the room confirmed, reopened by a rejoin. */
  inputDeviceId: string | null = null;
  /** The one teardown, once begun. */
  teardown: Promise<void> | null = null;

  constructor(
    build: (session: CallSession<TCall>) => {
      audio: AssistantAudio;
      speech: SpeechDetector;
      pipeline: StartPipeline;
    },
  ) {
    const parts = build(this);
    this.audio = parts.audio;
    this.speech = parts.speech;
    this.pipeline = parts.pipeline;
  }
}

/** A new start's session: its audio, its speech detection and its stages, reporting to the call. */
export function openSession<TCall extends WebCall>(
  firstStage: StartStage,
  call: {
    logger: CallLogger;
    emit<K extends CallEventName>(type: K, payload: CallEvents[K]): void;
    stage: StartReporter['stage'];
    progress: StartReporter['progress'];
  },
): CallSession<TCall> {
  return new CallSession<TCall>((self) => ({
    audio: new AssistantAudio(call.logger),
    speech: new SpeechDetector(self.timers, {
      volume: (volume) => call.emit('volume-level', { volume }),
      speechStart: () => call.emit('speech-start', undefined),
      speechEnd: () => call.emit('speech-end', undefined),
    }),
    pipeline: new StartPipeline(
      self.controller.signal,
      self.timers,
      {
        stage: call.stage,
        progress: call.progress,
        optionalFailed: (error) => call.emit('error', error),
      },
      firstStage,
      Date.now(),
    ),
  }));
}
