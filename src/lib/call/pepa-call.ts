/**
 * The voice call with Pepa: the orchestrator of the call library. It owns the status and the
 * verbs; each concern lives in its own module and reports back through events. The map of the
 * modules is docs/call-library.md.
 */
import type { Handler } from 'mitt';
import { CallEmitter } from './call-emitter';
import { AssistantAudio } from './assistant-audio';
import type {
  CallError,
  CallEventName,
  CallEvents,
  CallState,
  ClientMessage,
  LinePlace,
  StartStage,
} from './call-events';
import { CallStatusMachine, isInCall, type CallStatus } from './call-status';
import { describeError } from './daily-payloads';
import type { DailyLike, DailyLikeInputDevices } from './daily-types';
import { joinRoom } from './room-join';
import { Reconnection, type ReconnectionHost } from './reconnection';
import { DEFAULT_ROOM_HOSTS, roomUrlOf } from './room-url';
import { attachRoom, wireAudio, type RoomHost } from './room-wiring';
import { sanitiseInputDevices } from './sanitise-config';
import { hasCallTarget, webCallBodyFrom } from './sdk-start';
import { CallStartError, webCallCreationError, type StartOutcome } from './start-error';
import { StageFailure, StartCancelled } from './start-pipeline';

import {
  BUSY_MESSAGE,
  CALL_OBJECT_UNAVAILABLE_MESSAGE,
  DEFAULT_START_TIMEOUT_MS,
  NO_WEB_CALL_CREATOR_MESSAGE,
  RECONNECT_IN_PROGRESS_MESSAGE,
  RECONNECT_URL_MESSAGE,
  VALIDATION_MESSAGE,
  type CallLogger,
  type CreateWebCallBody,
  type MicrophoneOpener,
  type PepaCallOptions,
  type StartOrder,
  type ResourceCounts,
  type StartOptions,
  type StartWithOptions,
  type WebCall,
  type WebCallRequest,
} from './call-options';
import { openSession, type CallSession } from './call-session';
import { closeSession, type TeardownHost } from './call-teardown';
import { inputDeviceInUse } from './device-memory';
import { checkWebCallAnswer } from './web-call-answer';
import {
  beginEarlyStart,
  defaultMicrophoneOpener,
  defaultMicrophonePermission,
  deniedByPermission,
} from './early-start';
import { joinFailure } from './join-failure';

export * from './call-options';

/**
 * The voice call with Pepa: joins the provider's web call's Daily room and reports everything
 * as typed events. Framework-free; the UI subscribes with `on` and calls the verbs.
 */
export class PepaCall<TCall extends WebCall = WebCall> {
  private readonly options: PepaCallOptions<TCall>;
  private readonly userAgent: string;
  private readonly startTimeoutMs: number;
  private readonly logger: CallLogger;
  private readonly roomHosts: readonly string[];
  private readonly startOrder: StartOrder;
  private readonly openMicrophone: MicrophoneOpener | null;
  private readonly microphonePermission: (() => Promise<PermissionState | null>) | null;
  /** How the room modules reach back into the call: its verbs, its status and its events. */
  private readonly host: ReconnectionHost<TCall> & RoomHost<TCall>;
  private readonly reconnection: Reconnection<TCall>;
  private readonly events: CallEmitter;
  private readonly machine = new CallStatusMachine((state, previous) =>
    this.events.emit('state-change', { state, previous }),
  );
  private session: CallSession<TCall> | null = null;
  private readonly teardownHost: TeardownHost<TCall>;

  constructor(options: PepaCallOptions<TCall>) {
    this.options = options;
    this.userAgent =
      options.userAgent ?? (typeof navigator === 'undefined' ? '' : navigator.userAgent);
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.logger = options.logger ?? console;
    this.events = new CallEmitter(this.logger);
    this.roomHosts = options.roomHosts ?? DEFAULT_ROOM_HOSTS;
    this.startOrder = options.startOrder ?? 'overlapped';
    this.openMicrophone =
      options.openMicrophone === undefined ? defaultMicrophoneOpener() : options.openMicrophone;
    this.microphonePermission =
      options.microphonePermission === undefined
        ? defaultMicrophonePermission()
        : options.microphonePermission;
    this.host = {
      machine: this.machine,
      options: this.options,
      roomHosts: this.roomHosts,
      userAgent: this.userAgent,
      logger: this.logger,
      attachRoom: (session, daily) => attachRoom(this.host, session, daily),
      isCurrent: (session) => session === this.session && !session.teardown,
      state: () => this.machine.state,
      inCall: () => isInCall(this.machine.status),
      emit: this.events.send,
      failStart: (session, stage, error) => this.failStart(session, stage, error),
      close: (session) => this.close(session),
      closeSoon: (session) => this.reconnection.closeSoon(session),
      rejoin: (session) => this.reconnection.rejoin(session),
      connectionLost: (session) => this.reconnection.connectionLost(session),
      connectionBack: (session) => this.reconnection.connectionBack(session),
    };
    this.reconnection = new Reconnection(this.host);
    this.teardownHost = {
      machine: this.machine,
      events: this.events,
      isCurrent: (session) => this.session === session,
      release: (session) => {
        if (this.session !== session) return;
        this.session = null;
        this.machine.to({ kind: 'idle' });
      },
    };
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
    return this.events.on(type, handler);
  }

  /** Like `on`, for the next event only. */
  once<K extends CallEventName>(type: K, handler: Handler<CallEvents[K]>): () => void {
    return this.events.once(type, handler);
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
      this.events.progress('validation', 'failed', Date.now(), BUSY_MESSAGE);
      return Promise.resolve({ status: 'busy' });
    }
    return this.launch('web-call-creation', options, (session) =>
      session.pipeline.run(
        'web-call-creation',
        () =>
          request(session.controller.signal, {
            waiting: (place) => this.queued(session, place),
          }).then(checkWebCallAnswer),
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
    const args = { assistant, assistantOverrides, squad, workflow, workflowOverrides, options };
    if (this.machine.state === 'idle' && !hasCallTarget(args)) {
      const now = Date.now();
      const error: CallError = { type: 'validation-error', message: VALIDATION_MESSAGE };
      this.events.startFailed('validation', error, now, now);
      throw new Error(VALIDATION_MESSAGE);
    }
    const createWebCall = this.options.createWebCall;
    if (!createWebCall) throw new Error(NO_WEB_CALL_CREATOR_MESSAGE);
    const body: CreateWebCallBody = webCallBodyFrom(args);
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
      this.events.emit('error', {
        type: 'reconnect-error',
        message: RECONNECT_IN_PROGRESS_MESSAGE,
      });
      throw new Error(RECONNECT_IN_PROGRESS_MESSAGE);
    }
    if (!roomUrlOf(webCall)) {
      this.events.emit('error', { type: 'reconnect-error', message: RECONNECT_URL_MESSAGE });
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

  /**
   * Asks the assistant to end the call (`end-call`), then stops. Safe to call twice. Once the
   * room is joined the provider's call runs (and bills) even before the assistant is listening,
   * and a call kept for a rejoin outlives the visitor leaving the room: so it is told then too.
   */
  end(): Promise<void> {
    const session = this.session;
    if (!session) return Promise.resolve();
    if (session.room?.joined && !session.teardown) session.room.send({ type: 'end-call' });
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

  /** Switches the microphone; the one the room confirms is the one a rejoin opens. */
  async setInputDevicesAsync(devices: DailyLikeInputDevices): Promise<unknown> {
    const session = this.session;
    const result = await this.requireDaily().setInputDevicesAsync(sanitiseInputDevices(devices));
    const chosen = inputDeviceInUse(result);
    if (session && chosen) {
      session.inputDeviceId = chosen;
      // The room opened the chosen microphone itself: the one the start opened is let go.
      session.microphoneTrack?.stop();
      session.microphoneTrack = null;
    }
    return result;
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

  // --- The start ---------------------------------------------------------------------------

  private newSession(firstStage: StartStage): CallSession<TCall> {
    const session = openSession<TCall>(firstStage, {
      logger: this.logger,
      emit: this.events.send,
      stage: (stage) => this.machine.to({ kind: 'starting', stage }),
      progress: (stage, status, at, detail) => this.events.progress(stage, status, at, detail),
    });
    wireAudio(session, {
      starting: () => this.machine.state === 'starting',
      armStartTimeout: () => this.armStartTimeout(session),
      emit: this.events.send,
    });
    return session;
  }

  private async launch(
    firstStage: StartStage,
    options: StartWithOptions,
    obtainWebCall: (session: CallSession<TCall>) => Promise<TCall>,
  ): Promise<StartOutcome<TCall>> {
    const session = this.newSession(firstStage);
    this.session = session;
    this.machine.to({ kind: 'starting', stage: firstStage });
    this.armStartTimeout(session);
    // Overlapped: the microphone and the phone's wait begin now, beside the call request; a
    // refused microphone ends the start at once (and so aborts the request).
    const early =
      this.startOrder === 'overlapped'
        ? beginEarlyStart(session, {
            userAgent: this.userAgent,
            openMicrophone: this.openMicrophone,
            onMicrophoneError: (error) => this.failStart(session, 'join', joinFailure(error)),
          })
        : null;
    // A web call created for a start that did not start is given back (nobody will join it).
    void session.outcome.promise.then((outcome) => {
      if (outcome.status !== 'started' && session.webCall) options.unjoined?.(session.webCall);
    });
    try {
      // Known refused: no request, no place. A microphone refused meanwhile: nothing is asked.
      if (this.microphonePermission) {
        if ((await this.microphonePermission()) === 'denied') {
          this.failStart(session, 'join', joinFailure(deniedByPermission()));
        }
        if (session.pipeline.cancelled || session.outcome.settled) return session.outcome.promise;
      }
      const webCall = await obtainWebCall(session);
      session.webCall = webCall;
      if (session.pipeline.stage === 'queued') {
        // Out of the line: the start's timeout measures the service again.
        this.machine.to({ kind: 'starting', stage: 'web-call-creation' });
        this.events.emit('line-update', null);
        this.armStartTimeout(session);
      }
      await joinRoom(this.host, session, webCall, early);
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

  /** The web call's request waits in line: its place is told, and the timeout waits too. */
  private queued(session: CallSession<TCall>, place: LinePlace): void {
    if (session !== this.session || session.teardown || session.outcome.settled) return;
    if (session.pipeline.stage !== 'queued') {
      session.pipeline.stage = 'queued';
      session.pipeline.pauseTimeout();
      this.machine.to({ kind: 'starting', stage: 'queued' });
    }
    this.events.emit('line-update', place);
  }

  private completeStart(session: CallSession<TCall>, webCall: TCall): void {
    if (session.outcome.settled || session.pipeline.cancelled) return;
    session.pipeline.pauseTimeout();
    const timestamp = Date.now();
    this.events.emit('call-start-success', {
      callId: webCall.id,
      totalDurationMs: timestamp - session.pipeline.startedAt,
      timestamp,
    });
    this.machine.to({ kind: 'started' });
    this.events.emit('call-start');
    session.outcome.settle({ status: 'started', call: webCall });
  }

  private failStart(session: CallSession<TCall>, stage: StartStage, error: CallError): void {
    if (session.outcome.settled || session.teardown || session !== this.session) return;
    const { startedAt, stageStartedAt } = session.pipeline;
    this.events.startFailed(stage, error, startedAt, stageStartedAt);
    session.outcome.settle({ status: 'failed', error: new CallStartError(stage, error) });
    void this.close(session);
  }

  // --- The one teardown (call-teardown.ts) ---------------------------------------------------

  private close(session: CallSession<TCall>): Promise<void> {
    return closeSession(this.teardownHost, session);
  }

  private requireDaily(): DailyLike {
    const daily = this.session?.room?.daily;
    if (!daily) throw new Error(CALL_OBJECT_UNAVAILABLE_MESSAGE);
    return daily;
  }
}
