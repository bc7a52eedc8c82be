import mitt, { type Emitter, type Handler } from 'mitt';
import type { CreateWebCallDto } from '../../api/vapi';
import {
  AUDIO_LEVEL_INTERVAL_MS,
  SPEECH_END_DELAY_MS,
  isSpeakingLevel,
  sumLevels,
  volumeFromLevel,
} from './audio-level';
import type {
  CallError,
  CallEventName,
  CallEvents,
  CallState,
  ClientMessage,
  StartStage,
  StartStageStatus,
} from './call-events';
import {
  describeError,
  isAssistantParticipant,
  isMicrophoneDenied,
  isPermissionDeniedError,
  toCameraErrorInfo,
  toDailyError,
  toNetworkConnection,
  toNetworkQuality,
  toParticipantSummary,
  toWebCallError,
} from './daily-payloads';
import type {
  DailyCallFactory,
  DailyLike,
  DailyLikeAdvancedConfig,
  DailyLikeEventName,
  DailyLikeHandler,
  DailyLikeInputDevices,
  DailyLikeParticipant,
} from './daily-types';
import {
  buildCallObjectOptions,
  sanitiseInputDevices,
  type CallObjectOverrides,
} from './sanitise-config';
import {
  LISTENING_SIGNAL,
  PLAYABLE_SIGNAL,
  isEndedStatus,
  parseServerMessage,
} from './server-message';
import { DEFAULT_ROOM_HOSTS, checkRoomUrl, roomUrlOf } from './room-url';

export const VALIDATION_MESSAGE = 'Assistant or Squad or Workflow must be provided';
export const RECONNECT_URL_MESSAGE = 'webCallUrl is required for reconnection';
export const RECONNECT_IN_PROGRESS_MESSAGE = 'A call is in progress: stop it before reconnecting';
export const CALL_OBJECT_UNAVAILABLE_MESSAGE = 'Call object is not available';

export const DEFAULT_START_TIMEOUT_MS = 20_000;
/**
 * After the server's `ended` status, or the assistant leaving, the room is given this long to
 * close by itself (the last words still play) before the call is closed from this side.
 */
export const ENDED_GRACE_MS = 1500;
/** A dropped connection that is not back within this long ends the call. */
export const RECONNECT_TIMEOUT_MS = 15_000;
export const CONNECTION_LOST_MESSAGE = 'The connection to the call was lost';
/** Mobile browsers need a moment for the permission prompt to settle before joining. */
export const MOBILE_JOIN_DELAY_MS = 1000;
const MOBILE_USER_AGENT = /android|iphone|ipad|ipod|iemobile|blackberry|bada/i;

const RECORDING_OPTIONS = { width: 1280, height: 720, layout: { preset: 'default' } } as const;
const NOISE_CANCELLATION = { audio: { processor: { type: 'noise-cancellation' } } } as const;
const NO_AUDIO_PROCESSOR = { audio: { processor: { type: 'none' } } } as const;
const GESTURE_EVENTS = ['pointerdown', 'keydown'] as const;

/** The body of POST /call/web, as generated from the provider's spec (a type-only import). */
export type CreateWebCallBody = CreateWebCallDto;

/** The fields of the provider's Call that the call object reads. */
export interface WebCall {
  id: string;
  webCallUrl?: string | null;
  /** Where the provider's current spec carries the room URL too (any of its transports). */
  transport?: unknown;
  artifactPlan?: { videoRecordingEnabled?: boolean | null } | null;
  assistant?: { voice?: { provider?: string | null } | null } | null;
}

export interface CallLogger {
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
  /** Optional: what is dropped on purpose (e.g. a message from a participant who is not Pepa). */
  debug?(message: string, ...details: unknown[]): void;
}

export interface PepaCallOptions<TCall extends WebCall = WebCall> {
  /** Creates the web call (POST /call/web). Rejects with `kind`/`status` on HTTP or network failure. */
  createWebCall(body: CreateWebCallBody, options?: { signal?: AbortSignal }): Promise<TCall>;
  /** Creates the Daily call object: the real one, the offline simulator or a test fake. */
  createDailyCall: DailyCallFactory;
  /** Defaults to `navigator.userAgent`. */
  userAgent?: string;
  /** How long a start may take until the assistant says `listening`. Default 20 000 ms. */
  startTimeoutMs?: number;
  dailyConfig?: DailyLikeAdvancedConfig;
  callObject?: CallObjectOverrides;
  /** Defaults to `console`. */
  logger?: CallLogger;
  /** Hosts a room URL may be on (exact, or `*.domain` for its subdomains). Default: Daily's. */
  roomHosts?: readonly string[];
}

export interface StartOptions {
  roomDeleteOnUserLeaveEnabled?: boolean;
}

/** What a soak test can watch: none of these may grow across calls. */
export interface ResourceCounts {
  audioElements: number;
  timers: number;
  dailyListeners: number;
  gestureListeners: number;
}

export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_USER_AGENT.test(userAgent);
}

/** Thrown inside a start when stop, a failure or the timeout has already dealt with it. */
class StartCancelled extends Error {}

class StageFailure extends Error {
  constructor(
    readonly stage: StartStage,
    readonly callError: CallError,
  ) {
    super(callError.message);
  }
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function attempt<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error);
  }
}

const ignore = (): void => undefined;

/** Everything one start owns. A new start gets a new session, so nothing carries over. */
class Session<TCall extends WebCall> {
  readonly controller = new AbortController();
  readonly outcome = deferred<TCall | null>();
  readonly listening = deferred<void>();
  readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly audioElements = new Map<string, HTMLAudioElement>();
  readonly blockedAudio = new Set<string>();
  stage: StartStage;
  stageStartedAt: number;
  webCall: TCall | null = null;
  daily: DailyLike | null = null;
  joined = false;
  detachDaily: (() => void) | null = null;
  dailyListenerCount = 0;
  gestureListener: (() => void) | null = null;
  settled = false;
  started = false;
  speaking = false;
  endedStatusSeen = false;
  recording = false;
  recordingRequestedAt: number | null = null;
  outputDeviceId: string | null = null;
  closing: Promise<void> | null = null;
  /** The room this call joined (checked), for a rejoin. */
  roomUrl: string | null = null;
  /** Session ids of the assistant's participants: the only senders whose messages count. */
  readonly assistantIds = new Set<string>();
  /** The visitor muted the microphone: nothing turns it back on but the visitor. */
  muted = false;
  /** A rejoin after a lost connection is under way. */
  rejoining = false;

  constructor(
    readonly startedAt: number,
    firstStage: StartStage,
  ) {
    this.stage = firstStage;
    this.stageStartedAt = startedAt;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  settle(value: TCall | null): void {
    if (this.settled) return;
    this.settled = true;
    this.outcome.resolve(value);
  }

  setTimer(name: string, delayMs: number, run: () => void): void {
    this.clearTimer(name);
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name);
        run();
      }, delayMs),
    );
  }

  clearTimer(name: string): void {
    const timer = this.timers.get(name);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(name);
  }
}

/**
 * The voice call with Pepa: creates the provider's web call, joins its Daily room and reports
 * everything as typed events. Framework-free; the UI subscribes with `on` and calls the verbs.
 */
export class PepaCall<TCall extends WebCall = WebCall> {
  private readonly emitter: Emitter<CallEvents> = mitt<CallEvents>();
  private readonly createWebCall: PepaCallOptions<TCall>['createWebCall'];
  private readonly createDailyCall: DailyCallFactory;
  private readonly userAgent: string;
  private readonly startTimeoutMs: number;
  private readonly dailyConfig: DailyLikeAdvancedConfig | undefined;
  private readonly callObject: CallObjectOverrides;
  private readonly logger: CallLogger;
  private readonly roomHosts: readonly string[];
  private currentState: CallState = 'idle';
  private session: Session<TCall> | null = null;

  constructor(options: PepaCallOptions<TCall>) {
    this.createWebCall = (body, requestOptions) => options.createWebCall(body, requestOptions);
    this.createDailyCall = options.createDailyCall;
    this.userAgent =
      options.userAgent ?? (typeof navigator === 'undefined' ? '' : navigator.userAgent);
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.dailyConfig = options.dailyConfig;
    this.callObject = options.callObject ?? {};
    this.logger = options.logger ?? console;
    this.roomHosts = options.roomHosts ?? DEFAULT_ROOM_HOSTS;
  }

  get state(): CallState {
    return this.currentState;
  }

  /**
   * Subscribes to an event; returns the unsubscribe function. A listener that throws is logged
   * and does not stop the call or the other listeners.
   */
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

  /** Like `on`, for the next event only. */
  once<K extends CallEventName>(type: K, handler: Handler<CallEvents[K]>): () => void {
    const unsubscribe = this.on(type, (payload) => {
      unsubscribe();
      handler(payload);
    });
    return unsubscribe;
  }

  /**
   * Starts a call with an assistant, squad or workflow (each an id or an inline object).
   * Resolves to the Call once the assistant is listening, or null when the start failed, was
   * stopped, timed out, or a call was already under way. Rejects only when none of assistant,
   * squad or workflow is given.
   */
  async start(
    assistant?: string | CreateWebCallDto['assistant'] | null,
    assistantOverrides?: CreateWebCallDto['assistantOverrides'] | null,
    squad?: string | CreateWebCallDto['squad'] | null,
    workflow?: string | CreateWebCallDto['workflow'] | null,
    workflowOverrides?: CreateWebCallDto['workflowOverrides'] | null,
    options: StartOptions = {},
  ): Promise<TCall | null> {
    if (this.currentState !== 'idle') {
      this.emitProgress('validation', 'failed', Date.now(), 'A call is already in progress');
      return null;
    }
    if (!assistant && !squad && !workflow) {
      const now = Date.now();
      const error: CallError = { type: 'validation-error', message: VALIDATION_MESSAGE };
      this.emitProgress('validation', 'failed', now, VALIDATION_MESSAGE);
      this.emit('error', error);
      this.emit('call-start-failed', {
        stage: 'validation',
        error,
        totalDurationMs: 0,
        timestamp: now,
      });
      throw new Error(VALIDATION_MESSAGE);
    }
    const body: CreateWebCallBody = {
      ...(typeof assistant === 'string' ? { assistantId: assistant } : {}),
      ...(assistant && typeof assistant === 'object' ? { assistant } : {}),
      ...(assistantOverrides ? { assistantOverrides } : {}),
      ...(typeof squad === 'string' ? { squadId: squad } : {}),
      ...(squad && typeof squad === 'object' ? { squad } : {}),
      ...(typeof workflow === 'string' ? { workflowId: workflow } : {}),
      ...(workflow && typeof workflow === 'object' ? { workflow } : {}),
      ...(workflowOverrides ? { workflowOverrides } : {}),
      ...(options.roomDeleteOnUserLeaveEnabled === undefined
        ? {}
        : { roomDeleteOnUserLeaveEnabled: options.roomDeleteOnUserLeaveEnabled }),
    };
    return this.launch('web-call-creation', (session) =>
      this.runStage(
        session,
        'web-call-creation',
        () => this.createWebCall(body, { signal: session.controller.signal }),
        toWebCallError,
      ),
    );
  }

  /**
   * Joins an existing call's room again (useful only for calls created with
   * `roomDeleteOnUserLeaveEnabled: false`). Throws while a call is in progress or without a
   * `webCallUrl`.
   */
  async reconnect(webCall: TCall): Promise<TCall | null> {
    if (this.currentState !== 'idle') {
      this.emit('error', { type: 'reconnect-error', message: RECONNECT_IN_PROGRESS_MESSAGE });
      throw new Error(RECONNECT_IN_PROGRESS_MESSAGE);
    }
    if (!roomUrlOf(webCall)) {
      this.emit('error', { type: 'reconnect-error', message: RECONNECT_URL_MESSAGE });
      throw new Error(RECONNECT_URL_MESSAGE);
    }
    return this.launch('call-object-creation', () => Promise.resolve(webCall));
  }

  /** Leaves the call, or cancels a start in flight. Safe to call any number of times. */
  stop(): Promise<void> {
    const session = this.session;
    return session ? this.close(session) : Promise.resolve();
  }

  /** Asks the assistant to end the call (`end-call`), then stops. Safe to call twice. */
  end(): Promise<void> {
    const session = this.session;
    if (!session) return Promise.resolve();
    if (session.daily && !session.closing && this.currentState === 'started') {
      this.sendOnSession(session, { type: 'end-call' });
    }
    return this.close(session);
  }

  /** Sends a message to the assistant. Throws without a call object. */
  send(message: ClientMessage): void {
    this.requireDaily().sendAppMessage(JSON.stringify(message));
  }

  /** Makes the assistant say `message`. */
  say(
    message: string,
    endCallAfterSpoken?: boolean,
    interruptionsEnabled = false,
    interruptAssistantEnabled = false,
  ): void {
    this.send({
      type: 'say',
      message,
      endCallAfterSpoken,
      interruptionsEnabled,
      interruptAssistantEnabled,
    });
  }

  /** Mutes or unmutes the microphone. The track is kept, so unmuting is instant. */
  setMuted(muted: boolean): void {
    this.requireDaily().setLocalAudio(!muted);
    if (this.session) this.session.muted = muted;
  }

  isMuted(): boolean {
    return !this.requireDaily().localAudio();
  }

  async setInputDevicesAsync(devices: DailyLikeInputDevices): Promise<unknown> {
    return this.requireDaily().setInputDevicesAsync(sanitiseInputDevices(devices));
  }

  /** Switches the speaker for Daily and for the assistant's audio element. */
  async setOutputDeviceAsync(device: { outputDeviceId: string }): Promise<unknown> {
    const daily = this.requireDaily();
    const session = this.session;
    const result = await daily.setOutputDeviceAsync(device);
    if (session && session === this.session) {
      session.outputDeviceId = device.outputDeviceId;
      for (const audio of session.audioElements.values()) {
        this.routeToOutputDevice(audio, device.outputDeviceId);
      }
    }
    return result;
  }

  /**
   * Retries audio the browser refused to play. Call it from a click or key handler (the
   * call object also retries on the next pointer or key press by itself). Resolves to true
   * when nothing is blocked any more.
   */
  async resumeAudio(): Promise<boolean> {
    const session = this.session;
    if (!session) return true;
    const attempts = [...session.blockedAudio].map((participantId) => {
      const audio = session.audioElements.get(participantId);
      return audio ? this.playAudio(session, participantId, audio) : Promise.resolve(true);
    });
    const results = await Promise.all(attempts);
    return results.every(Boolean);
  }

  /** Counts of what the call object holds right now, for leak checks. */
  getResourceCounts(): ResourceCounts {
    const session = this.session;
    return {
      audioElements: session?.audioElements.size ?? 0,
      timers: session?.timers.size ?? 0,
      dailyListeners: session?.dailyListenerCount ?? 0,
      gestureListeners: session?.gestureListener ? GESTURE_EVENTS.length : 0,
    };
  }

  // ---------------------------------------------------------------------------------------

  private setState(next: CallState): void {
    const previous = this.currentState;
    if (next === previous) return;
    this.currentState = next;
    this.emit('state-change', { state: next, previous });
  }

  private emit<K extends CallEventName>(
    type: K,
    ...payload: undefined extends CallEvents[K] ? [] : [CallEvents[K]]
  ): void {
    this.emitter.emit(type, payload[0] as CallEvents[K]);
  }

  private emitProgress(
    stage: StartStage,
    status: StartStageStatus,
    stageStartedAt: number,
    detail?: string,
  ): void {
    const timestamp = Date.now();
    this.emit('call-start-progress', {
      stage,
      status,
      timestamp,
      ...(status === 'started' ? {} : { durationMs: timestamp - stageStartedAt }),
      ...(detail === undefined ? {} : { detail }),
    });
  }

  private async launch(
    firstStage: StartStage,
    obtainWebCall: (session: Session<TCall>) => Promise<TCall>,
  ): Promise<TCall | null> {
    const session = new Session<TCall>(Date.now(), firstStage);
    this.session = session;
    this.setState('starting');
    this.armStartTimeout(session);
    try {
      const webCall = await obtainWebCall(session);
      session.webCall = webCall;
      await this.connect(session, webCall);
      this.completeStart(session, webCall);
    } catch (error) {
      if (error instanceof StageFailure) {
        this.failStart(session, error.stage, error.callError);
      } else if (!(error instanceof StartCancelled)) {
        this.failStart(session, session.stage, {
          type: 'start-method-error',
          message: describeError(error),
          cause: error,
        });
      }
    }
    return session.outcome.promise;
  }

  private armStartTimeout(session: Session<TCall>): void {
    session.setTimer('start-timeout', this.startTimeoutMs, () => {
      this.failStart(session, session.stage, {
        type: 'start-timeout',
        timeoutMs: this.startTimeoutMs,
        message: `The assistant was not ready within ${this.startTimeoutMs} ms`,
      });
    });
  }

  private async connect(session: Session<TCall>, webCall: TCall): Promise<void> {
    // Checked before anything is loaded or joined: a hostile or drifted answer must not take the
    // visitor's microphone to a room elsewhere.
    const room = checkRoomUrl(roomUrlOf(webCall), this.roomHosts);
    if (!room.ok) {
      throw new StageFailure(session.stage, {
        type: 'room-url-refused',
        reason: room.reason,
        message: `Refused to join the room URL (${room.reason}): ${room.url.slice(0, 200)}`,
      });
    }
    session.roomUrl = room.url;
    const videoRecordingEnabled = webCall.artifactPlan?.videoRecordingEnabled === true;
    const options = buildCallObjectOptions(
      this.callObject,
      this.dailyConfig,
      videoRecordingEnabled,
    );
    const daily = await this.runStage(
      session,
      'call-object-creation',
      () => this.createDailyObject(session, options),
      (error) => ({
        type: 'daily-call-object-creation-error',
        message: describeError(error),
        cause: error,
      }),
    );

    if (isMobileUserAgent(this.userAgent)) {
      await this.runStage(
        session,
        'mobile-wait',
        () =>
          new Promise<void>((resolve) =>
            session.setTimer('mobile-wait', MOBILE_JOIN_DELAY_MS, resolve),
          ),
        (error) => ({ type: 'start-method-error', message: describeError(error), cause: error }),
      );
    }

    await this.runStage(
      session,
      'join',
      () => daily.join({ url: room.url, subscribeToTracksAutomatically: false }),
      (error): CallError =>
        isPermissionDeniedError(error)
          ? { type: 'microphone-permission-denied', message: describeError(error), cause: error }
          : { type: 'daily-call-join-error', message: describeError(error), cause: error },
    );
    session.joined = true;

    if (videoRecordingEnabled) {
      await this.runOptionalStage(
        session,
        'video-recording-setup',
        'video-recording-setup-error',
        () => {
          session.recordingRequestedAt = Date.now();
          daily.startRecording(RECORDING_OPTIONS);
          session.recording = true;
        },
      );
    }
    await this.runOptionalStage(
      session,
      'audio-observer-setup',
      'audio-observer-setup-error',
      async () => {
        await daily.startRemoteParticipantsAudioLevelObserver(AUDIO_LEVEL_INTERVAL_MS);
        await daily.startLocalAudioLevelObserver(AUDIO_LEVEL_INTERVAL_MS);
      },
    );
    await this.runOptionalStage(
      session,
      'audio-processing-setup',
      'audio-processing-setup-error',
      () => daily.updateInputSettings(NOISE_CANCELLATION),
    );
    await this.runStage(
      session,
      'assistant-ready',
      () => session.listening.promise,
      (error) => ({ type: 'start-method-error', message: describeError(error), cause: error }),
    );
  }

  /** Runs one stage of a start, reporting it; a failure ends the start. */
  private async runStage<T>(
    session: Session<TCall>,
    stage: StartStage,
    work: () => T | Promise<T>,
    toError: (error: unknown) => CallError,
  ): Promise<T> {
    if (session.aborted) throw new StartCancelled();
    session.stage = stage;
    session.stageStartedAt = Date.now();
    this.emitProgress(stage, 'started', session.stageStartedAt);
    let result: T;
    try {
      result = await this.untilCancelled(session, attempt(work));
    } catch (error) {
      if (error instanceof StartCancelled) throw error;
      throw new StageFailure(stage, toError(error));
    }
    this.emitProgress(stage, 'completed', session.stageStartedAt);
    return result;
  }

  /** Runs a stage the call can do without: a failure is reported and the start carries on. */
  private async runOptionalStage(
    session: Session<TCall>,
    stage: StartStage,
    errorType:
      'video-recording-setup-error' | 'audio-observer-setup-error' | 'audio-processing-setup-error',
    work: () => unknown,
  ): Promise<void> {
    try {
      await this.runStage(session, stage, work, (error) => ({
        type: errorType,
        message: describeError(error),
        cause: error,
      }));
    } catch (error) {
      if (!(error instanceof StageFailure)) throw error;
      this.emitProgress(stage, 'failed', session.stageStartedAt, error.message);
      this.emit('error', error.callError);
    }
  }

  /** Rejects with StartCancelled as soon as the session is aborted, whatever `promise` does. */
  private untilCancelled<T>(session: Session<TCall>, promise: Promise<T>): Promise<T> {
    const signal = session.controller.signal;
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

  private async createDailyObject(
    session: Session<TCall>,
    options: Parameters<DailyCallFactory>[0],
  ): Promise<DailyLike> {
    const pending = this.createDailyCall(options);
    let daily: DailyLike;
    try {
      daily = await this.untilCancelled(session, pending);
    } catch (error) {
      // A call object that arrives after the start was cancelled is nobody's: destroy it.
      if (error instanceof StartCancelled) {
        pending.then((late) => this.destroyQuietly(late), ignore);
      }
      throw error;
    }
    if (session.aborted) {
      this.destroyQuietly(daily);
      throw new StartCancelled();
    }
    session.daily = daily;
    this.attachDailyListeners(session, daily);
    return daily;
  }

  private destroyQuietly(daily: DailyLike): void {
    attempt(() => daily.destroy()).catch((error: unknown) =>
      this.logger.warn('Destroying the call object failed', error),
    );
  }

  private completeStart(session: Session<TCall>, webCall: TCall): void {
    if (session.settled || session.aborted) return;
    session.clearTimer('start-timeout');
    session.started = true;
    const timestamp = Date.now();
    this.emit('call-start-success', {
      callId: webCall.id,
      totalDurationMs: timestamp - session.startedAt,
      timestamp,
    });
    this.setState('started');
    this.emit('call-start');
    session.settle(webCall);
  }

  private failStart(session: Session<TCall>, stage: StartStage, error: CallError): void {
    if (session.settled || session.closing || session !== this.session) return;
    const timestamp = Date.now();
    this.emitProgress(stage, 'failed', session.stageStartedAt, error.message);
    this.emit('error', error);
    this.emit('call-start-failed', {
      stage,
      error,
      totalDurationMs: timestamp - session.startedAt,
      timestamp,
    });
    void this.close(session);
  }

  /**
   * The one teardown. Every ending goes through here: stop, end, leaving, a fatal error, a
   * failed or timed-out start. Idempotent per session.
   */
  private close(session: Session<TCall>): Promise<void> {
    if (session.closing) return session.closing;
    const done = deferred<void>();
    session.closing = done.promise;
    session.controller.abort();
    session.settle(null);
    if (this.session === session) this.setState('ending');

    for (const timer of session.timers.values()) clearTimeout(timer);
    session.timers.clear();
    this.stopListeningForGesture(session);
    for (const audio of session.audioElements.values()) this.disposeAudio(audio);
    session.audioElements.clear();
    session.blockedAudio.clear();
    session.detachDaily?.();
    session.detachDaily = null;
    session.dailyListenerCount = 0;
    const daily = session.daily;
    session.daily = null;

    if (session.started) {
      this.emit('call-end');
      if (!session.endedStatusSeen) {
        session.endedStatusSeen = true;
        this.emit('message', {
          type: 'status-update',
          status: 'ended',
          endedReason: 'customer-ended-call',
        });
      }
    }

    void (async () => {
      if (daily) {
        if (session.recording) {
          try {
            daily.stopRecording();
          } catch (error) {
            this.logger.warn('Stopping the recording failed', error);
          }
        }
        try {
          await daily.destroy();
        } catch (error) {
          this.logger.warn('Destroying the call object failed', error);
        }
      }
      if (this.session === session) {
        this.session = null;
        this.setState('idle');
      }
      done.resolve();
    })();
    return done.promise;
  }

  /**
   * Whether a participant is the assistant. Its name marks a candidate, but once the call has
   * started no newcomer becomes the assistant while one is known: anyone can pick a name.
   */
  private recogniseAssistant(session: Session<TCall>, participant: DailyLikeParticipant): boolean {
    const id = participant.session_id;
    if (session.assistantIds.has(id)) return true;
    if (!isAssistantParticipant(participant)) return false;
    if (session.started && session.assistantIds.size > 0) {
      this.logger.debug?.('Ignored a participant posing as the assistant', id);
      return false;
    }
    session.assistantIds.add(id);
    return true;
  }

  // --- Ends and reconnects ---------------------------------------------------------------

  /** The call is over (the server said so, or Pepa left): close it unless the room does first. */
  private closeSoon(session: Session<TCall>): void {
    if (session.closing || session.timers.has('ended-grace')) return;
    session.setTimer('ended-grace', ENDED_GRACE_MS, () => void this.close(session));
  }

  private connectionLost(session: Session<TCall>): void {
    if (this.currentState !== 'started') return;
    this.setState('reconnecting');
    session.setTimer('reconnect-timeout', RECONNECT_TIMEOUT_MS, () =>
      this.failReconnect(session, new Error(`Not reconnected within ${RECONNECT_TIMEOUT_MS} ms`)),
    );
  }

  private connectionBack(session: Session<TCall>): void {
    if (this.currentState !== 'reconnecting' || session.rejoining) return;
    session.clearTimer('reconnect-timeout');
    this.setState('started');
  }

  /**
   * Daily gave up on the connection: join the same room again with a fresh call object (the
   * room outlives the visitor because calls are created with `roomDeleteOnUserLeaveEnabled:
   * false`). Bounded by the reconnect timeout; failing, the call ends with a reason.
   */
  private async rejoin(session: Session<TCall>): Promise<void> {
    if (session.closing || session.rejoining || !session.roomUrl) return;
    session.rejoining = true;
    if (this.currentState === 'started') this.connectionLost(session);
    const previous = session.daily;
    session.detachDaily?.();
    session.detachDaily = null;
    session.dailyListenerCount = 0;
    session.daily = null;
    session.assistantIds.clear();
    for (const audio of session.audioElements.values()) this.disposeAudio(audio);
    session.audioElements.clear();
    session.blockedAudio.clear();
    this.stopListeningForGesture(session);
    if (previous) this.destroyQuietly(previous);
    try {
      const videoRecordingEnabled = session.webCall?.artifactPlan?.videoRecordingEnabled === true;
      const options = buildCallObjectOptions(
        this.callObject,
        this.dailyConfig,
        videoRecordingEnabled,
      );
      const daily = await this.createDailyCall(options);
      if (session.closing) {
        this.destroyQuietly(daily);
        return;
      }
      session.daily = daily;
      this.attachDailyListeners(session, daily);
      await daily.join({ url: session.roomUrl, subscribeToTracksAutomatically: false });
      if (session.muted) daily.setLocalAudio(false);
      await daily.startRemoteParticipantsAudioLevelObserver(AUDIO_LEVEL_INTERVAL_MS);
      await daily.startLocalAudioLevelObserver(AUDIO_LEVEL_INTERVAL_MS);
      if (session.closing) return;
      session.clearTimer('reconnect-timeout');
      this.setState('started');
    } catch (error) {
      this.failReconnect(session, error);
    } finally {
      session.rejoining = false;
    }
  }

  private failReconnect(session: Session<TCall>, cause: unknown): void {
    if (session.closing) return;
    this.emit('error', { type: 'reconnect-error', message: CONNECTION_LOST_MESSAGE, cause });
    void this.close(session);
  }

  private requireDaily(): DailyLike {
    const daily = this.session?.daily;
    if (!daily) throw new Error(CALL_OBJECT_UNAVAILABLE_MESSAGE);
    return daily;
  }

  private sendOnSession(session: Session<TCall>, message: ClientMessage | string): void {
    const daily = session.daily;
    if (!daily) return;
    try {
      daily.sendAppMessage(typeof message === 'string' ? message : JSON.stringify(message));
    } catch (error) {
      this.logger.warn('Sending an app message failed', error);
    }
  }

  // --- Daily events ----------------------------------------------------------------------

  /** Every Daily listener is attached here, before joining, and detached by `close`. */
  private attachDailyListeners(session: Session<TCall>, daily: DailyLike): void {
    const detachers: Array<() => void> = [];
    const listen = <E extends DailyLikeEventName>(event: E, handler: DailyLikeHandler<E>): void => {
      const guarded: DailyLikeHandler<E> = (payload) => {
        if (session !== this.session || session.closing) return;
        handler(payload);
      };
      daily.on(event, guarded);
      detachers.push(() => daily.off(event, guarded));
    };

    listen('left-meeting', () => {
      if (this.currentState === 'reconnecting') void this.rejoin(session);
      else if (session.started) void this.close(session);
      else
        this.failStart(session, session.stage, {
          type: 'start-method-error',
          message: 'The meeting ended before the assistant was ready',
        });
    });
    listen('error', (payload) => {
      const error = toDailyError(payload);
      if (!session.started) {
        // Until the join has completed, a fatal Daily error is the join failing.
        const joining = !session.joined;
        this.failStart(
          session,
          session.stage,
          joining
            ? { type: 'daily-call-join-error', message: error.message, cause: payload.error }
            : error,
        );
        return;
      }
      if (error.type === 'daily-error' && error.dailyErrorType === 'connection-error') {
        // The connection is gone for good: rejoin the room rather than end the call.
        void this.rejoin(session);
        return;
      }
      this.emit('error', error);
      void this.close(session);
    });
    listen('participant-joined', ({ participant }) => {
      if (participant.local) return;
      this.recogniseAssistant(session, participant);
      const webCall = session.webCall;
      const video =
        webCall?.artifactPlan?.videoRecordingEnabled === true ||
        webCall?.assistant?.voice?.provider === 'tavus';
      try {
        daily.updateParticipant(participant.session_id, {
          setSubscribedTracks: { audio: true, video },
        });
      } catch (error) {
        this.logger.warn('Subscribing to a participant failed', error);
      }
    });
    listen('participant-updated', ({ participant }) => {
      this.emit('daily-participant-updated', toParticipantSummary(participant));
    });
    listen('participant-left', ({ participant }) => {
      if (session.assistantIds.delete(participant.session_id) && session.assistantIds.size === 0) {
        // Pepa left: the call is over, whether or not the room closes.
        if (session.started) this.closeSoon(session);
      }
      const audio = session.audioElements.get(participant.session_id);
      if (!audio) return;
      this.disposeAudio(audio);
      session.audioElements.delete(participant.session_id);
      session.blockedAudio.delete(participant.session_id);
      if (session.blockedAudio.size === 0) this.stopListeningForGesture(session);
    });
    listen('track-started', ({ participant, track, type }) => {
      if (!participant || !this.recogniseAssistant(session, participant)) return;
      if (type === 'audio') this.playAssistantAudio(session, participant.session_id, track);
      else if (type === 'video')
        this.emit('video', { track, participantId: participant.session_id });
    });
    listen('app-message', ({ data, fromId }) => {
      // Only Pepa speaks for Pepa: anyone else in the room is ignored, whatever they send.
      if (!session.assistantIds.has(fromId)) {
        this.logger.debug?.(
          'Ignored an app message from a participant who is not the assistant',
          fromId,
        );
        return;
      }
      if (data === LISTENING_SIGNAL) {
        session.listening.resolve();
        return;
      }
      const message = parseServerMessage(data);
      if (!message) {
        this.logger.warn('Ignored an app message that is not a JSON server message', data);
        return;
      }
      if (isEndedStatus(message)) session.endedStatusSeen = true;
      this.emit('message', message);
      if (isEndedStatus(message) && session.started) this.closeSoon(session);
    });
    listen('remote-participants-audio-level', ({ participantsAudioLevel }) => {
      this.onRemoteLevels(session, participantsAudioLevel);
    });
    listen('local-audio-level', ({ audioLevel }) => {
      this.emit('local-volume-level', { volume: audioLevel });
    });
    listen('recording-started', () => {
      const requestedAt = session.recordingRequestedAt;
      if (requestedAt === null) return;
      session.recordingRequestedAt = null;
      this.sendOnSession(session, {
        type: 'control',
        control: 'say-first-message',
        videoRecordingStartDelaySeconds: (Date.now() - requestedAt) / 1000,
      });
    });
    listen('recording-error', ({ errorMsg }) => {
      this.emit('error', { type: 'video-recording-setup-error', message: errorMsg });
    });
    listen('nonfatal-error', ({ type }) => {
      if (type === 'audio-processor-error') void this.turnOffAudioProcessor(session, daily);
    });
    listen('camera-error', (payload) => {
      this.emit('camera-error', toCameraErrorInfo(payload));
      if (!isMicrophoneDenied(payload)) return;
      const error: CallError = {
        type: 'microphone-permission-denied',
        message: payload.error?.msg ?? payload.errorMsg.errorMsg,
        blockedBy: payload.error?.blockedBy,
      };
      if (session.started) this.emit('error', error);
      else this.failStart(session, session.stage, error);
    });
    listen('network-quality-change', (payload) => {
      this.emit('network-quality-change', toNetworkQuality(payload));
    });
    listen('network-connection', (payload) => {
      const connection = toNetworkConnection(payload);
      this.emit('network-connection', connection);
      if (!session.started) return;
      if (connection.event === 'interrupted') this.connectionLost(session);
      else if (connection.event === 'connected') this.connectionBack(session);
    });

    session.dailyListenerCount = detachers.length;
    session.detachDaily = () => {
      for (const detach of detachers) detach();
    };
  }

  private onRemoteLevels(session: Session<TCall>, levels: Record<string, number>): void {
    const sum = sumLevels(levels);
    this.emit('volume-level', { volume: volumeFromLevel(sum) });
    if (!isSpeakingLevel(sum)) return;
    if (!session.speaking) {
      session.speaking = true;
      this.emit('speech-start');
    }
    session.setTimer('speech-end', SPEECH_END_DELAY_MS, () => {
      session.speaking = false;
      this.emit('speech-end');
    });
  }

  private async turnOffAudioProcessor(session: Session<TCall>, daily: DailyLike): Promise<void> {
    try {
      await daily.updateInputSettings(NO_AUDIO_PROCESSOR);
      // Re-enabled only for a visitor who is not muted: mute is the visitor's alone.
      if (session.closing || session.muted) return;
      daily.setLocalAudio(true);
    } catch (error) {
      if (session.closing) return;
      this.emit('error', {
        type: 'audio-processing-setup-error',
        message: describeError(error),
        cause: error,
      });
    }
  }

  // --- Assistant audio -------------------------------------------------------------------

  private playAssistantAudio(
    session: Session<TCall>,
    participantId: string,
    track: MediaStreamTrack,
  ): void {
    const previous = session.audioElements.get(participantId);
    if (previous) this.disposeAudio(previous);
    const audio = document.createElement('audio');
    audio.autoplay = true;
    audio.dataset.participantId = participantId;
    audio.srcObject = new MediaStream([track]);
    if (session.outputDeviceId) this.routeToOutputDevice(audio, session.outputDeviceId);
    document.body.appendChild(audio);
    session.audioElements.set(participantId, audio);
    void this.playAudio(session, participantId, audio);
  }

  /**
   * Plays one audio element. On success the assistant is told `playable`; a refusal is
   * reported once and retried on the next gesture. While the start waits on the visitor's
   * tap, its timeout is paused: it measures the service, not the visitor.
   */
  private async playAudio(
    session: Session<TCall>,
    participantId: string,
    audio: HTMLAudioElement,
  ): Promise<boolean> {
    const isCurrent = (): boolean =>
      !session.closing && session.audioElements.get(participantId) === audio;
    try {
      // `play()` is called synchronously so that a gesture handler still counts as a gesture.
      await audio.play();
    } catch (error) {
      if (!isCurrent()) return false;
      if (!session.blockedAudio.has(participantId)) {
        session.blockedAudio.add(participantId);
        if (!session.started) session.clearTimer('start-timeout');
        this.emit('error', {
          type: 'audio-playback-blocked',
          participantId,
          message: describeError(error),
          cause: error,
        });
        this.listenForGesture(session);
      }
      return false;
    }
    if (!isCurrent()) return false;
    if (session.blockedAudio.delete(participantId)) {
      if (session.blockedAudio.size === 0) this.stopListeningForGesture(session);
      if (!session.started) this.armStartTimeout(session);
      this.emit('audio-playback-resumed');
    }
    this.sendOnSession(session, PLAYABLE_SIGNAL);
    return true;
  }

  private listenForGesture(session: Session<TCall>): void {
    if (session.gestureListener) return;
    const onGesture = (): void => {
      void this.resumeAudio();
    };
    for (const type of GESTURE_EVENTS) window.addEventListener(type, onGesture, true);
    session.gestureListener = onGesture;
  }

  private stopListeningForGesture(session: Session<TCall>): void {
    const onGesture = session.gestureListener;
    if (!onGesture) return;
    for (const type of GESTURE_EVENTS) window.removeEventListener(type, onGesture, true);
    session.gestureListener = null;
  }

  private disposeAudio(audio: HTMLAudioElement): void {
    // Detaching the stream stops playback; the remote track itself belongs to Daily.
    audio.srcObject = null;
    audio.remove();
  }

  private routeToOutputDevice(audio: HTMLAudioElement, deviceId: string): void {
    if (typeof audio.setSinkId !== 'function') return;
    audio.setSinkId(deviceId).catch((error: unknown) => {
      this.logger.warn('Routing audio to the chosen speaker failed', error);
    });
  }
}
