/**
 * The voice call with Pepa: the orchestrator of the call library. It owns the status and the
 * verbs; each concern lives in its own module and reports back through events:
 *   start-pipeline.ts   stages, cancellation and the start timeout
 *   daily-session.ts    the Daily call object, its listeners translated into room events
 *   assistant-audio.ts  the assistant's <audio>, autoplay retry, speaker routing
 *   speech-detector.ts  levels into volume and speech-start / speech-end
 *   protocol.ts         who speaks for the assistant, signals, messages
 *   call-status.ts      the one status and its legal transitions
 */
import mitt, { type Emitter, type Handler } from 'mitt';
import { AssistantAudio } from './assistant-audio';
import type {
  CallError,
  CallEventName,
  CallEvents,
  CallState,
  ClientMessage,
  StartStage,
  StartStageStatus,
} from './call-events';
import { CallStatusMachine, isInCall, type CallStatus } from './call-status';
import { describeError } from './daily-payloads';
import { DailySession } from './daily-session';
import type { DailyCallFactory, DailyLike, DailyLikeInputDevices } from './daily-types';
import { joinFailure } from './join-failure';
import {
  CUSTOMER_ENDED,
  PLAYABLE_SIGNAL,
  readAssistantMessage,
  sayFirstMessageAfterRecording,
} from './protocol';
import { DEFAULT_ROOM_HOSTS, checkRoomUrl, roomUrlOf } from './room-url';
import { buildCallObjectOptions, sanitiseInputDevices } from './sanitise-config';
import { SpeechDetector } from './speech-detector';
import { CallStartError, webCallCreationError, type StartOutcome } from './start-error';
import { StageFailure, StartCancelled, StartPipeline } from './start-pipeline';

import {
  BUSY_MESSAGE,
  CALL_OBJECT_UNAVAILABLE_MESSAGE,
  CONNECTION_LOST_MESSAGE,
  DEFAULT_START_TIMEOUT_MS,
  ENDED_GRACE_MS,
  JOINING_STAGES,
  MOBILE_JOIN_DELAY_MS,
  NO_WEB_CALL_CREATOR_MESSAGE,
  RECONNECT_IN_PROGRESS_MESSAGE,
  RECONNECT_TIMEOUT_MS,
  RECONNECT_URL_MESSAGE,
  VALIDATION_MESSAGE,
  isMobileUserAgent,
  type CallLogger,
  type CreateWebCallBody,
  type PepaCallOptions,
  type ResourceCounts,
  type StartOptions,
  type StartWithOptions,
  type WebCall,
  type WebCallRequest,
} from './call-options';
import { CallSession } from './call-session';

export * from './call-options';

/**
 * The voice call with Pepa: joins the provider's web call's Daily room and reports everything
 * as typed events. Framework-free; the UI subscribes with `on` and calls the verbs.
 */
export class PepaCall<TCall extends WebCall = WebCall> {
  private readonly emitter: Emitter<CallEvents> = mitt<CallEvents>();
  private readonly options: PepaCallOptions<TCall>;
  private readonly userAgent: string;
  private readonly startTimeoutMs: number;
  private readonly logger: CallLogger;
  private readonly roomHosts: readonly string[];
  private readonly machine = new CallStatusMachine((state, previous) =>
    this.emit('state-change', { state, previous }),
  );
  private session: CallSession<TCall> | null = null;

  constructor(options: PepaCallOptions<TCall>) {
    this.options = options;
    this.userAgent =
      options.userAgent ?? (typeof navigator === 'undefined' ? '' : navigator.userAgent);
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.logger = options.logger ?? console;
    this.roomHosts = options.roomHosts ?? DEFAULT_ROOM_HOSTS;
  }

  get state(): CallState {
    return this.machine.state;
  }

  /** The status with its detail (the start's stage, whether a rejoin is under way). */
  get status(): CallStatus {
    return this.machine.status;
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
   * Starts a call whose web call `request` creates (exactly once; its signal aborts when the
   * start is stopped), joins its room and resolves when the assistant is listening, or with why
   * not: `failed` (a {@link CallStartError} naming the stage), `stopped` or `busy`.
   */
  startWith(
    request: WebCallRequest<TCall>,
    options: StartWithOptions = {},
  ): Promise<StartOutcome<TCall>> {
    if (this.machine.state !== 'idle') {
      this.emitProgress('validation', 'failed', Date.now(), BUSY_MESSAGE);
      return Promise.resolve({ status: 'busy' });
    }
    return this.launch('web-call-creation', options, (session) =>
      session.pipeline.run(
        'web-call-creation',
        () => request(session.controller.signal),
        webCallCreationError,
      ),
    );
  }

  /**
   * The provider SDK's `start`: an assistant, squad or workflow (each an id or an inline object),
   * with the web call created through the `createWebCall` option. Resolves to the Call once the
   * assistant is listening, or null when the start failed, was stopped, timed out, or a call was
   * already under way. Rejects only when none of assistant, squad or workflow is given.
   */
  async start(
    assistant?: string | CreateWebCallBody['assistant'] | null,
    assistantOverrides?: CreateWebCallBody['assistantOverrides'] | null,
    squad?: string | CreateWebCallBody['squad'] | null,
    workflow?: string | CreateWebCallBody['workflow'] | null,
    workflowOverrides?: CreateWebCallBody['workflowOverrides'] | null,
    options: StartOptions = {},
  ): Promise<TCall | null> {
    if (this.machine.state === 'idle' && !assistant && !squad && !workflow) {
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
    const createWebCall = this.options.createWebCall;
    if (!createWebCall) throw new Error(NO_WEB_CALL_CREATOR_MESSAGE);
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
    const outcome = await this.startWith((signal) => createWebCall(body, { signal }));
    return outcome.status === 'started' ? outcome.call : null;
  }

  /**
   * Joins an existing call's room again (useful only for calls created with
   * `roomDeleteOnUserLeaveEnabled: false`). Throws while a call is in progress or without a
   * room URL.
   */
  async reconnect(webCall: TCall): Promise<TCall | null> {
    if (this.machine.state !== 'idle') {
      this.emit('error', { type: 'reconnect-error', message: RECONNECT_IN_PROGRESS_MESSAGE });
      throw new Error(RECONNECT_IN_PROGRESS_MESSAGE);
    }
    if (!roomUrlOf(webCall)) {
      this.emit('error', { type: 'reconnect-error', message: RECONNECT_URL_MESSAGE });
      throw new Error(RECONNECT_URL_MESSAGE);
    }
    const outcome = await this.launch('call-object-creation', {}, () => Promise.resolve(webCall));
    return outcome.status === 'started' ? outcome.call : null;
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
    if (session.room && !session.teardown && this.machine.state === 'started') {
      session.room.send({ type: 'end-call' });
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
    if (session && session === this.session) session.audio.setOutputDevice(device.outputDeviceId);
    return result;
  }

  /**
   * Retries audio the browser refused to play. Call it from a click or key handler (the
   * call object also retries on the next pointer or key press by itself). Resolves to true
   * when nothing is blocked any more.
   */
  async resumeAudio(): Promise<boolean> {
    return this.session ? this.session.audio.resume() : true;
  }

  /** Counts of what the call object holds right now, for leak checks. */
  getResourceCounts(): ResourceCounts {
    const session = this.session;
    return {
      audioElements: session?.audio.elementCount ?? 0,
      timers: session?.timers.size ?? 0,
      dailyListeners: session?.room?.listenerCount ?? 0,
      gestureListeners: session?.audio.listeningForGesture ? AssistantAudio.gestureEventCount : 0,
    };
  }

  // --- Events ------------------------------------------------------------------------------

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

  // --- The start ---------------------------------------------------------------------------

  private newSession(firstStage: StartStage): CallSession<TCall> {
    const session: CallSession<TCall> = new CallSession<TCall>((self) => ({
      audio: new AssistantAudio(this.logger),
      speech: new SpeechDetector(self.timers, {
        volume: (volume) => this.emit('volume-level', { volume }),
        speechStart: () => this.emit('speech-start'),
        speechEnd: () => this.emit('speech-end'),
      }),
      pipeline: new StartPipeline(
        self.controller.signal,
        self.timers,
        {
          stage: (stage) => this.machine.to({ kind: 'starting', stage }),
          progress: (stage, status, at, detail) => this.emitProgress(stage, status, at, detail),
          optionalFailed: (error) => this.emit('error', error),
        },
        firstStage,
        Date.now(),
      ),
    }));
    this.wireAudio(session);
    return session;
  }

  private async launch(
    firstStage: StartStage,
    options: StartWithOptions,
    obtainWebCall: (session: CallSession<TCall>) => Promise<TCall>,
  ): Promise<StartOutcome<TCall>> {
    const session = this.newSession(firstStage);
    // Without the microphone the visitor types; the room is joined to listen only.
    session.microphone = options.microphone !== false;
    this.session = session;
    this.machine.to({ kind: 'starting', stage: firstStage });
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
        this.failStart(session, session.pipeline.stage, {
          type: 'start-method-error',
          message: describeError(error),
          cause: error,
        });
      }
    }
    return session.outcome.promise;
  }

  private armStartTimeout(session: CallSession<TCall>): void {
    session.pipeline.armTimeout(this.startTimeoutMs, () => {
      this.failStart(session, session.pipeline.stage, {
        type: 'start-timeout',
        timeoutMs: this.startTimeoutMs,
        message: `The assistant was not ready within ${this.startTimeoutMs} ms`,
      });
    });
  }

  private callObjectOptions(session: CallSession<TCall>): Parameters<DailyCallFactory>[0] {
    const { webCall } = session;
    return buildCallObjectOptions(
      session.microphone
        ? (this.options.callObject ?? {})
        : { ...this.options.callObject, audioSource: false },
      this.options.dailyConfig,
      webCall?.artifactPlan?.videoRecordingEnabled === true,
    );
  }

  private async connect(session: CallSession<TCall>, webCall: TCall): Promise<void> {
    const { pipeline } = session;
    // Checked before anything is loaded or joined: a hostile or drifted answer must not take the
    // visitor's microphone to a room elsewhere.
    const room = checkRoomUrl(roomUrlOf(webCall), this.roomHosts);
    if (!room.ok) {
      throw new StageFailure(pipeline.stage, {
        type: 'room-url-refused',
        reason: room.reason,
        message: `Refused to join the room URL (${room.reason}): ${room.url.slice(0, 200)}`,
      });
    }
    session.roomUrl = room.url;
    const videoRecordingEnabled = webCall.artifactPlan?.videoRecordingEnabled === true;
    const options = this.callObjectOptions(session);
    const daily = await pipeline.run(
      'call-object-creation',
      () => this.createRoom(session, options),
      (error) => ({
        type: 'daily-call-object-creation-error',
        message: describeError(error),
        cause: error,
      }),
    );

    if (isMobileUserAgent(this.userAgent)) {
      await pipeline.run(
        'mobile-wait',
        () =>
          new Promise<void>((resolve) =>
            session.timers.set('mobile-wait', MOBILE_JOIN_DELAY_MS, resolve),
          ),
        (error) => ({ type: 'start-method-error', message: describeError(error), cause: error }),
      );
    }

    await pipeline.run('join', () => daily.join(room.url), joinFailure);

    if (videoRecordingEnabled) {
      await pipeline.runOptional('video-recording-setup', 'video-recording-setup-error', () =>
        daily.startRecording(),
      );
    }
    await pipeline.runOptional('audio-observer-setup', 'audio-observer-setup-error', () =>
      daily.startLevelObservers(),
    );
    await pipeline.runOptional('audio-processing-setup', 'audio-processing-setup-error', () =>
      daily.useNoiseCancellation(),
    );
    await pipeline.run(
      'assistant-ready',
      () => session.listening.promise,
      (error) => ({ type: 'start-method-error', message: describeError(error), cause: error }),
    );
  }

  /** Creates the call object and its session; one that arrives after a stop is destroyed. */
  private async createRoom(
    session: CallSession<TCall>,
    options: Parameters<DailyCallFactory>[0],
  ): Promise<DailySession> {
    const pending = this.options.createDailyCall(options);
    let daily: DailyLike;
    try {
      daily = await session.pipeline.untilCancelled(pending);
    } catch (error) {
      if (error instanceof StartCancelled) {
        pending.then(
          (late) => this.destroyQuietly(late),
          () => undefined,
        );
      }
      throw error;
    }
    if (session.pipeline.cancelled) {
      this.destroyQuietly(daily);
      throw new StartCancelled();
    }
    return this.attachRoom(session, daily);
  }

  private destroyQuietly(daily: DailyLike): void {
    Promise.resolve()
      .then(() => daily.destroy())
      .catch((error: unknown) => this.logger.warn('Destroying the call object failed', error));
  }

  private completeStart(session: CallSession<TCall>, webCall: TCall): void {
    if (session.outcome.settled || session.pipeline.cancelled) return;
    session.pipeline.pauseTimeout();
    const timestamp = Date.now();
    this.emit('call-start-success', {
      callId: webCall.id,
      totalDurationMs: timestamp - session.pipeline.startedAt,
      timestamp,
    });
    this.machine.to({ kind: 'started' });
    this.emit('call-start');
    session.outcome.settle({ status: 'started', call: webCall });
  }

  private failStart(session: CallSession<TCall>, stage: StartStage, error: CallError): void {
    if (session.outcome.settled || session.teardown || session !== this.session) return;
    const timestamp = Date.now();
    this.emitProgress(stage, 'failed', session.pipeline.stageStartedAt, error.message);
    this.emit('error', error);
    this.emit('call-start-failed', {
      stage,
      error,
      totalDurationMs: timestamp - session.pipeline.startedAt,
      timestamp,
    });
    session.outcome.settle({ status: 'failed', error: new CallStartError(stage, error) });
    void this.close(session);
  }

  // --- The one teardown --------------------------------------------------------------------

  /**
   * Every ending goes through here: stop, end, leaving, a fatal error, a failed or timed-out
   * start. Idempotent per session.
   */
  private close(session: CallSession<TCall>): Promise<void> {
    if (session.teardown) return session.teardown;
    let done!: () => void;
    session.teardown = new Promise<void>((resolve) => {
      done = resolve;
    });
    const current = this.session === session;
    const wasInCall = current && isInCall(this.machine.status);
    session.controller.abort();
    session.outcome.settle({ status: 'stopped' });
    if (current) this.machine.to({ kind: 'ending' });

    session.timers.clearAll();
    session.audio.clear();
    const room = session.room;
    room?.detach();
    session.room = null;

    if (wasInCall) {
      this.emit('call-end');
      if (!session.endedStatusSeen) {
        session.endedStatusSeen = true;
        this.emit('message', CUSTOMER_ENDED);
      }
    }

    void (async () => {
      await room?.close();
      if (this.session === session) {
        this.session = null;
        this.machine.to({ kind: 'idle' });
      }
      done();
    })();
    return session.teardown;
  }

  // --- Ends and reconnects -----------------------------------------------------------------

  /** The call is over (the server said so, or Pepa left): close it unless the room does first. */
  private closeSoon(session: CallSession<TCall>): void {
    if (session.teardown || session.timers.has('ended-grace')) return;
    session.timers.set('ended-grace', ENDED_GRACE_MS, () => void this.close(session));
  }

  private connectionLost(session: CallSession<TCall>): void {
    if (this.machine.state !== 'started') return;
    this.machine.to({ kind: 'reconnecting', rejoining: false });
    session.timers.set('reconnect-timeout', RECONNECT_TIMEOUT_MS, () =>
      this.failReconnect(session, new Error(`Not reconnected within ${RECONNECT_TIMEOUT_MS} ms`)),
    );
  }

  private connectionBack(session: CallSession<TCall>): void {
    const status = this.machine.status;
    if (status.kind !== 'reconnecting' || status.rejoining) return;
    session.timers.clear('reconnect-timeout');
    this.machine.to({ kind: 'started' });
  }

  private isRejoining(): boolean {
    const status = this.machine.status;
    return status.kind === 'reconnecting' && status.rejoining;
  }

  /**
   * Daily gave up on the connection: join the same room again with a fresh call object (the
   * room outlives the visitor because calls are created with `roomDeleteOnUserLeaveEnabled:
   * false`). Bounded by the reconnect timeout; failing, the call ends with a reason.
   */
  private async rejoin(session: CallSession<TCall>): Promise<void> {
    if (session.teardown || this.isRejoining() || !session.roomUrl) return;
    if (this.machine.state === 'started') this.connectionLost(session);
    this.machine.to({ kind: 'reconnecting', rejoining: true });
    const previous = session.room;
    previous?.detach();
    session.room = null;
    session.assistant.clear();
    session.audio.clear();
    if (previous) this.destroyQuietly(previous.daily);
    try {
      const daily = await this.options.createDailyCall(this.callObjectOptions(session));
      if (session.teardown) {
        this.destroyQuietly(daily);
        return;
      }
      const room = this.attachRoom(session, daily);
      await room.join(session.roomUrl);
      if (session.muted) daily.setLocalAudio(false);
      await room.startLevelObservers();
      if (session.teardown) return;
      session.timers.clear('reconnect-timeout');
      this.machine.to({ kind: 'started' });
    } catch (error) {
      if (this.isRejoining()) this.machine.to({ kind: 'reconnecting', rejoining: false });
      this.failReconnect(session, error);
    }
  }

  private failReconnect(session: CallSession<TCall>, cause: unknown): void {
    if (session.teardown) return;
    this.emit('error', { type: 'reconnect-error', message: CONNECTION_LOST_MESSAGE, cause });
    void this.close(session);
  }

  private requireDaily(): DailyLike {
    const daily = this.session?.room?.daily;
    if (!daily) throw new Error(CALL_OBJECT_UNAVAILABLE_MESSAGE);
    return daily;
  }

  // --- Wiring the parts --------------------------------------------------------------------

  private wireAudio(session: CallSession<TCall>): void {
    const { audio } = session;
    audio.on('blocked', ({ participantId, message, cause }) => {
      if (session.teardown) return;
      // While the start waits on the visitor's tap, its timeout is paused: it measures the
      // service, not the visitor.
      if (this.machine.state === 'starting') session.pipeline.pauseTimeout();
      this.emit('error', { type: 'audio-playback-blocked', participantId, message, cause });
    });
    audio.on('resumed', () => {
      if (session.teardown) return;
      if (this.machine.state === 'starting') this.armStartTimeout(session);
      this.emit('audio-playback-resumed');
    });
    audio.on('playable', () => {
      if (!session.teardown) session.room?.send(PLAYABLE_SIGNAL);
    });
  }

  /** Attaches a call object's room events to this session. */
  private attachRoom(session: CallSession<TCall>, daily: DailyLike): DailySession {
    const room = new DailySession(
      daily,
      () => session === this.session && !session.teardown,
      this.logger,
    );
    session.room = room;
    const inCall = () => isInCall(this.machine.status);

    room.on('left', () => {
      if (this.machine.state === 'reconnecting') void this.rejoin(session);
      else if (inCall()) void this.close(session);
      else
        this.failStart(session, session.pipeline.stage, {
          type: 'start-method-error',
          message: 'The meeting ended before the assistant was ready',
        });
    });
    room.on('fatal-error', ({ error, cause, connectionLost }) => {
      if (!inCall()) {
        // Until the join has completed, a fatal Daily error is the join failing.
        const joining = JOINING_STAGES.has(session.pipeline.stage);
        this.failStart(
          session,
          session.pipeline.stage,
          joining ? { type: 'daily-call-join-error', message: error.message, cause } : error,
        );
        return;
      }
      if (connectionLost) {
        // The connection is gone for good: rejoin the room rather than end the call.
        void this.rejoin(session);
        return;
      }
      this.emit('error', error);
      void this.close(session);
    });
    room.on('participant-joined', (participant) => {
      session.assistant.recognise(participant, inCall(), this.onImpostor);
      const webCall = session.webCall;
      const video =
        webCall?.artifactPlan?.videoRecordingEnabled === true ||
        webCall?.assistant?.voice?.provider === 'tavus';
      room.subscribe(participant.session_id, video);
    });
    room.on('participant-updated', (summary) => this.emit('daily-participant-updated', summary));
    room.on('participant-left', (participant) => {
      // Pepa left: the call is over, whether or not the room closes.
      if (session.assistant.left(participant.session_id) && inCall()) this.closeSoon(session);
      session.audio.remove(participant.session_id);
    });
    room.on('track', ({ participant, track, kind }) => {
      if (!session.assistant.recognise(participant, inCall(), this.onImpostor)) return;
      if (kind === 'audio') session.audio.play(participant.session_id, track);
      else this.emit('video', { track, participantId: participant.session_id });
    });
    room.on('app-message', ({ data, fromId }) => {
      // Only Pepa speaks for Pepa: anyone else in the room is ignored, whatever they send.
      if (!session.assistant.speaksForAssistant(fromId)) {
        this.logger.debug?.(
          'Ignored an app message from a participant who is not the assistant',
          fromId,
        );
        return;
      }
      const signal = readAssistantMessage(data);
      if (signal.kind === 'listening') {
        session.listening.settle();
        return;
      }
      if (signal.kind === 'unreadable') {
        this.logger.warn('Ignored an app message that is not a JSON server message', data);
        return;
      }
      if (signal.ended) session.endedStatusSeen = true;
      this.emit('message', signal.message);
      if (signal.ended && inCall()) this.closeSoon(session);
    });
    room.on('remote-levels', (levels) => session.speech.levels(levels));
    room.on('local-level', (volume) => this.emit('local-volume-level', { volume }));
    room.on('recording-started', () => {
      const requestedAt = room.takeRecordingRequestTime();
      if (requestedAt !== null) room.send(sayFirstMessageAfterRecording(requestedAt, Date.now()));
    });
    room.on('recording-error', ({ message }) =>
      this.emit('error', { type: 'video-recording-setup-error', message }),
    );
    room.on('audio-processor-error', () => void this.turnOffAudioProcessor(session, room));
    room.on('camera-error', ({ info, microphoneDenied }) => {
      this.emit('camera-error', info);
      if (!microphoneDenied) return;
      if (inCall()) this.emit('error', microphoneDenied);
      else this.failStart(session, session.pipeline.stage, microphoneDenied);
    });
    room.on('network-quality', (quality) => this.emit('network-quality-change', quality));
    room.on('network-connection', (connection) => {
      this.emit('network-connection', connection);
      if (!inCall()) return;
      if (connection.event === 'interrupted') this.connectionLost(session);
      else if (connection.event === 'connected') this.connectionBack(session);
    });
    return room;
  }

  private readonly onImpostor = (sessionId: string): void => {
    this.logger.debug?.('Ignored a participant posing as the assistant', sessionId);
  };

  private async turnOffAudioProcessor(
    session: CallSession<TCall>,
    room: DailySession,
  ): Promise<void> {
    try {
      await room.turnOffAudioProcessor();
      // Re-enabled only for a visitor who is not muted: mute is the visitor's alone.
      if (session.teardown || session.muted) return;
      room.daily.setLocalAudio(true);
    } catch (error) {
      if (session.teardown) return;
      this.emit('error', {
        type: 'audio-processing-setup-error',
        message: describeError(error),
        cause: error,
      });
    }
  }
}
