import mitt, { type Emitter } from 'mitt';
import { AUDIO_LEVEL_INTERVAL_MS } from './audio-level';
import type {
  CallError,
  CameraErrorInfo,
  ClientMessage,
  NetworkConnection,
  NetworkQuality,
  ParticipantSummary,
} from './call-events';
import {
  isMicrophoneDenied,
  toCameraErrorInfo,
  toDailyError,
  toNetworkConnection,
  toNetworkQuality,
  toParticipantSummary,
} from './daily-payloads';
import type {
  DailyLike,
  DailyLikeEventName,
  DailyLikeHandler,
  DailyLikeParticipant,
} from './daily-types';
import { encodeClientMessage } from './protocol';

const RECORDING_OPTIONS = { width: 1280, height: 720, layout: { preset: 'default' } } as const;
const NOISE_CANCELLATION = { audio: { processor: { type: 'noise-cancellation' } } } as const;
const NO_AUDIO_PROCESSOR = { audio: { processor: { type: 'none' } } } as const;

/** Daily's events, translated into what the call means by them. */
export type RoomEvents = {
  /** The visitor left the meeting (by stopping, or because the room closed). */
  left: undefined;
  /** A fatal error; `connectionLost` when it is the network giving up, not the room refusing. */
  'fatal-error': { error: CallError; cause: unknown; connectionLost: boolean };
  'participant-joined': DailyLikeParticipant;
  'participant-updated': ParticipantSummary;
  'participant-left': DailyLikeParticipant;
  track: { participant: DailyLikeParticipant; track: MediaStreamTrack; kind: 'audio' | 'video' };
  'app-message': { data: unknown; fromId: string };
  'remote-levels': Record<string, number>;
  'local-level': number;
  'recording-started': undefined;
  'recording-error': { message: string };
  'audio-processor-error': undefined;
  /** A camera or microphone problem; `microphoneDenied` when the microphone was refused. */
  'camera-error': { info: CameraErrorInfo; microphoneDenied: CallError | null };
  'network-quality': NetworkQuality;
  'network-connection': NetworkConnection;
};

interface Logger {
  warn(message: string, ...details: unknown[]): void;
}

/**
 * One Daily call object as the call sees it: every Daily listener is attached here (before
 * joining) and translated into {@link RoomEvents}; `detach` removes them all. Events stop as
 * soon as `isLive` says the call no longer listens. The verbs the call uses live here too.
 */
export class DailySession {
  private readonly events: Emitter<RoomEvents> = mitt<RoomEvents>();
  private readonly detachers: Array<() => void> = [];
  private recording = false;
  private recordingRequestedAt: number | null = null;
  private joinedRoom = false;

  constructor(
    readonly daily: DailyLike,
    private readonly isLive: () => boolean,
    private readonly logger: Logger,
  ) {
    this.attach();
  }

  on<K extends keyof RoomEvents>(type: K, handler: (payload: RoomEvents[K]) => void): void {
    this.events.on(type, handler);
  }

  /** How many Daily listeners are attached (for leak checks). */
  get listenerCount(): number {
    return this.detachers.length;
  }

  detach(): void {
    for (const detach of this.detachers.splice(0)) detach();
    this.events.all.clear();
  }

  /** Joins `url`, with the provider's meeting token when it gave one. */
  async join(url: string, token: string | null = null): Promise<unknown> {
    const result = await this.daily.join({
      url,
      // Daily refuses a `token` key without a value: only present when there is one.
      ...(token ? { token } : {}),
      subscribeToTracksAutomatically: false,
    });
    this.joinedRoom = true;
    return result;
  }

  /**
   * The visitor is in the room: from here the provider's side of the call runs, so a hang-up
   * must tell it (`end-call`), whether or not the assistant has said `listening` yet.
   */
  get joined(): boolean {
    return this.joinedRoom;
  }

  /** Both level observers, on a call object whose input processor stays as it is (a rejoin). */
  async startLevelObservers(): Promise<void> {
    await this.startRemoteLevelObserver();
    await this.daily.startLocalAudioLevelObserver(AUDIO_LEVEL_INTERVAL_MS);
  }

  /** The assistant's level, at once. */
  startRemoteLevelObserver(): Promise<void> {
    return this.daily.startRemoteParticipantsAudioLevelObserver(AUDIO_LEVEL_INTERVAL_MS);
  }

  /**
   * The microphone's level: started only once noise cancellation has settled (worked or not),
   * since changing the input processor replaces the microphone track, and Daily stops a local
   * level observer that is running (or still loading) then, which would silence the visitor's
   * level for the call.
   */
  startLocalLevelObserver(): Promise<void> {
    return this.daily.startLocalAudioLevelObserver(AUDIO_LEVEL_INTERVAL_MS);
  }

  useNoiseCancellation(): Promise<unknown> {
    return this.daily.updateInputSettings(NOISE_CANCELLATION);
  }

  turnOffAudioProcessor(): Promise<unknown> {
    return this.daily.updateInputSettings(NO_AUDIO_PROCESSOR);
  }

  startRecording(): void {
    this.recordingRequestedAt = Date.now();
    this.daily.startRecording(RECORDING_OPTIONS);
    this.recording = true;
  }

  /**
   * The meeting token starts the recording as the room is joined: asked for now (before the join,
   * since the recording can start while the join is still under way), and stopped on leaving.
   */
  recordWithToken(): void {
    this.recordingRequestedAt = Date.now();
    this.recording = true;
  }

  /** When the recording was asked for, once: the first-message delay is measured from it. */
  takeRecordingRequestTime(): number | null {
    const requestedAt = this.recordingRequestedAt;
    this.recordingRequestedAt = null;
    return requestedAt;
  }

  subscribe(participantId: string, video: boolean): void {
    try {
      this.daily.updateParticipant(participantId, { setSubscribedTracks: { audio: true, video } });
    } catch (error) {
      this.logger.warn('Subscribing to a participant failed', error);
    }
  }

  send(message: ClientMessage | string): void {
    try {
      this.daily.sendAppMessage(encodeClientMessage(message));
    } catch (error) {
      this.logger.warn('Sending an app message failed', error);
    }
  }

  /** Stops any recording and destroys the call object; failures are only logged. */
  async close(): Promise<void> {
    if (this.recording) {
      try {
        this.daily.stopRecording();
      } catch (error) {
        this.logger.warn('Stopping the recording failed', error);
      }
    }
    try {
      await this.daily.destroy();
    } catch (error) {
      this.logger.warn('Destroying the call object failed', error);
    }
  }

  private attach(): void {
    const listen = <E extends DailyLikeEventName>(event: E, handler: DailyLikeHandler<E>): void => {
      const guarded: DailyLikeHandler<E> = (payload) => {
        if (this.isLive()) handler(payload);
      };
      this.daily.on(event, guarded);
      this.detachers.push(() => this.daily.off(event, guarded));
    };
    const emit = this.events.emit.bind(this.events) as Emitter<RoomEvents>['emit'];

    listen('left-meeting', () => emit('left', undefined));
    listen('error', (payload) => {
      const error = toDailyError(payload);
      emit('fatal-error', {
        error,
        cause: payload.error,
        connectionLost: error.type === 'daily-error' && error.dailyErrorType === 'connection-error',
      });
    });
    listen('participant-joined', ({ participant }) => {
      if (!participant.local) emit('participant-joined', participant);
    });
    listen('participant-updated', ({ participant }) =>
      emit('participant-updated', toParticipantSummary(participant)),
    );
    listen('participant-left', ({ participant }) => emit('participant-left', participant));
    listen('track-started', ({ participant, track, type }) => {
      if (participant && (type === 'audio' || type === 'video')) {
        emit('track', { participant, track, kind: type });
      }
    });
    listen('app-message', ({ data, fromId }) => emit('app-message', { data, fromId }));
    listen('remote-participants-audio-level', ({ participantsAudioLevel }) =>
      emit('remote-levels', participantsAudioLevel),
    );
    listen('local-audio-level', ({ audioLevel }) => emit('local-level', audioLevel));
    listen('recording-started', () => emit('recording-started', undefined));
    listen('recording-error', ({ errorMsg }) => emit('recording-error', { message: errorMsg }));
    listen('nonfatal-error', ({ type }) => {
      if (type === 'audio-processor-error') emit('audio-processor-error', undefined);
    });
    listen('camera-error', (payload) => {
      const microphoneDenied: CallError | null = isMicrophoneDenied(payload)
        ? {
            type: 'microphone-permission-denied',
            message: payload.error?.msg ?? payload.errorMsg.errorMsg,
            blockedBy: payload.error?.blockedBy,
          }
        : null;
      emit('camera-error', { info: toCameraErrorInfo(payload), microphoneDenied });
    });
    listen('network-quality-change', (payload) =>
      emit('network-quality', toNetworkQuality(payload)),
    );
    listen('network-connection', (payload) =>
      emit('network-connection', toNetworkConnection(payload)),
    );
  }
}
