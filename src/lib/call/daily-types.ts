/**
 * The part of Daily's call object that the call object uses, and nothing more. Daily's own
 * call object, the offline simulator and the test fake all fit it.
 */

export interface DailyLikeParticipant {
  session_id: string;
  user_name: string;
  local: boolean;
  tracks?: {
    audio?: { state?: string };
    video?: { state?: string };
  };
}

export interface DailyLikeAdvancedConfig {
  avoidEval?: boolean;
  alwaysIncludeMicInPermissionPrompt?: boolean;
  [setting: string]: unknown;
}

/** Payloads of the Daily events the call object listens to, narrowed to the fields it reads. */
export interface DailyLikeEvents {
  'left-meeting': { action: string };
  'participant-joined': { participant: DailyLikeParticipant };
  'participant-updated': { participant: DailyLikeParticipant };
  'participant-left': { participant: DailyLikeParticipant };
  'track-started': {
    participant: DailyLikeParticipant | null;
    track: MediaStreamTrack;
    type: string;
  };
  'app-message': { data: unknown; fromId: string };
  'remote-participants-audio-level': { participantsAudioLevel: Record<string, number> };
  'local-audio-level': { audioLevel: number };
  'recording-started': { action: string };
  'recording-error': { errorMsg: string };
  error: { errorMsg: string; error?: { type?: string; msg?: string } };
  'nonfatal-error': { type: string; errorMsg: string };
  'camera-error': {
    errorMsg: { errorMsg: string; audioOk?: boolean };
    error?: {
      type?: string;
      msg?: string;
      blockedBy?: 'user' | 'browser';
      blockedMedia?: string[];
    };
  };
  'network-quality-change': { networkState?: string; networkStateReasons?: string[] };
  'network-connection': { type: string; event: string };
}

export type DailyLikeEventName = keyof DailyLikeEvents;

export type DailyLikeHandler<E extends DailyLikeEventName> = (payload: DailyLikeEvents[E]) => void;

export interface DailyLikeInputDevices {
  audioDeviceId?: string | false | null;
  audioSource?: MediaStreamTrack | false;
  videoDeviceId?: string | false | null;
  videoSource?: MediaStreamTrack | false;
}

export interface DailyLike {
  join(options: {
    url: string;
    token?: string;
    subscribeToTracksAutomatically: boolean;
  }): Promise<unknown>;
  destroy(): Promise<void>;
  on<E extends DailyLikeEventName>(event: E, handler: DailyLikeHandler<E>): unknown;
  off<E extends DailyLikeEventName>(event: E, handler: DailyLikeHandler<E>): unknown;
  updateParticipant(
    sessionId: string,
    updates: { setSubscribedTracks: { audio: boolean; video: boolean } },
  ): unknown;
  sendAppMessage(data: string): unknown;
  startRecording(options: { width: number; height: number; layout: { preset: 'default' } }): void;
  stopRecording(): void;
  startRemoteParticipantsAudioLevelObserver(intervalMs: number): Promise<void>;
  startLocalAudioLevelObserver(intervalMs: number): Promise<void>;
  updateInputSettings(settings: {
    audio: { processor: { type: 'noise-cancellation' | 'none' } };
  }): Promise<unknown>;
  setLocalAudio(enabled: boolean): unknown;
  localAudio(): boolean;
  setInputDevicesAsync(devices: DailyLikeInputDevices): Promise<unknown>;
  setOutputDeviceAsync(device: { outputDeviceId: string }): Promise<unknown>;
}

export interface DailyCallObjectOptions {
  audioSource: string | MediaStreamTrack | boolean;
  videoSource: string | MediaStreamTrack | boolean;
  dailyConfig: DailyLikeAdvancedConfig;
}

/** Creates the Daily-like call object for one call. */
export type DailyCallFactory = (options: DailyCallObjectOptions) => Promise<DailyLike>;
