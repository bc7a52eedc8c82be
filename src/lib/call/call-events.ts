/**
 * The call object's vocabulary: its state, the one event map it emits on, and every payload.
 * Types only, so a component can import them without pulling in the call object itself.
 */

/**
 * Life cycle of the call object. Changes only through the call object's private state setter.
 * `reconnecting`: the connection dropped during a call and is being restored.
 */
export type CallState = 'idle' | 'starting' | 'started' | 'reconnecting' | 'ending';

/** Stages of a start, in the order they run. `validation` only ever reports `failed`. */
export type StartStage =
  | 'validation'
  | 'web-call-creation'
  /** The web call's request is waiting its turn in a line (the site's gate). */
  | 'queued'
  | 'call-object-creation'
  | 'mobile-wait'
  | 'join'
  | 'video-recording-setup'
  | 'audio-observer-setup'
  | 'audio-processing-setup'
  | 'assistant-ready';

export type StartStageStatus = 'started' | 'completed' | 'failed';

export interface StartProgress {
  stage: StartStage;
  status: StartStageStatus;
  /** Milliseconds since the epoch when the status was reached. */
  timestamp: number;
  /** Time spent in the stage; present on `completed` and `failed`. */
  durationMs?: number;
  /** A short human-readable note, e.g. why validation failed. */
  detail?: string;
}

export interface StartSuccess {
  callId: string;
  totalDurationMs: number;
  timestamp: number;
}

export interface StartFailure {
  stage: StartStage;
  error: CallError;
  totalDurationMs: number;
  timestamp: number;
}

interface ErrorBase {
  /** Readable description, fit for logs; the UI picks its own wording from `type`. */
  message: string;
  /** Whatever was thrown underneath, when something was. */
  cause?: unknown;
}

/** Every error the call object reports, told apart by `type`. */
export type CallError =
  | (ErrorBase & { type: 'validation-error' })
  | (ErrorBase & {
      /**
       * POST /call/web failed: `http` carries the status, `network` means no response,
       * `malformed` an answer that is not a Call with a room.
       */
      type: 'web-call-creation-error';
      kind: 'http' | 'network' | 'malformed' | 'unknown';
      status?: number;
      body?: unknown;
      /** How long the provider asked to wait before trying again (its `Retry-After`). */
      retryAfterMs?: number;
      /** The site's gate says why it refused, in its own words (its problem `code`). */
      code?: string;
      /**
       * With the gate's `court-closed`: when it opens again; with `court-resting`: when Pepa is
       * back (ISO 8601). A `court-full` answer says when to come back in `retryAfterMs` instead.
       */
      reopensAt?: string;
    })
  | (ErrorBase & {
      /** The provider's answer named a room the page does not join (wrong scheme or host). */
      type: 'room-url-refused';
      reason: 'missing' | 'malformed' | 'not-https' | 'host-not-allowed';
    })
  | (ErrorBase & { type: 'daily-call-object-creation-error' })
  | (ErrorBase & { type: 'daily-call-join-error' })
  | (ErrorBase & {
      /** The browser or the visitor refused the microphone: show how to re-enable it. */
      type: 'microphone-permission-denied';
      blockedBy?: 'user' | 'browser';
    })
  | (ErrorBase & {
      /** The machine has no microphone to open (none connected, or none the browser can use). */
      type: 'microphone-missing';
    })
  | (ErrorBase & { type: 'video-recording-setup-error' })
  | (ErrorBase & { type: 'audio-observer-setup-error' })
  | (ErrorBase & { type: 'audio-processing-setup-error' })
  | (ErrorBase & { type: 'start-method-error' })
  | (ErrorBase & {
      /** The assistant never said `listening` within the start timeout. */
      type: 'start-timeout';
      timeoutMs: number;
    })
  | (ErrorBase & {
      /** The browser refused to play the assistant's audio: offer a control to resume it. */
      type: 'audio-playback-blocked';
      participantId: string;
    })
  | (ErrorBase & {
      /** A fatal error raised by Daily during the call, e.g. `ejected` or `exp-room`. */
      type: 'daily-error';
      dailyErrorType: string;
    })
  | (ErrorBase & { type: 'reconnect-error' });

export type CallErrorType = CallError['type'];

/** A message from the provider's server, parsed from a JSON app message. */
export interface ServerMessage {
  type: string;
  [field: string]: unknown;
}

export interface TranscriptMessage extends ServerMessage {
  type: 'transcript';
  role: 'user' | 'assistant';
  transcriptType: 'partial' | 'final';
  transcript: string;
}

export interface SpeechUpdateMessage extends ServerMessage {
  type: 'speech-update';
  status: 'started' | 'stopped';
  role: 'user' | 'assistant';
}

export interface StatusUpdateMessage extends ServerMessage {
  type: 'status-update';
  status: string;
  endedReason?: string;
}

/** Messages the page sends to the provider (serialised as JSON app messages). */
export type ClientMessage =
  | {
      type: 'say';
      message: string;
      endCallAfterSpoken?: boolean;
      interruptionsEnabled: boolean;
      interruptAssistantEnabled: boolean;
    }
  | { type: 'end-call' }
  | {
      type: 'control';
      control: 'mute-assistant' | 'unmute-assistant' | 'say-first-message';
      videoRecordingStartDelaySeconds?: number;
    }
  | {
      type: 'add-message';
      message: { role: string; content: string };
      triggerResponseEnabled?: boolean;
    };

export interface ParticipantSummary {
  sessionId: string;
  userName: string;
  local: boolean;
  audioState?: string;
  videoState?: string;
}

export interface CameraErrorInfo {
  /** Daily's camera error type, e.g. `permissions`, `not-found`, `mic-in-use`. */
  errorType: string;
  message: string;
  blockedMedia?: string[];
}

export interface NetworkQuality {
  state: 'good' | 'warning' | 'bad' | 'unknown';
  reasons: string[];
}

export interface NetworkConnection {
  connectionType: string;
  /** e.g. `interrupted`, `connected`. */
  event: string;
}

/** The one event map of the call object: one payload object, or nothing, per event. */
/** A place in the line for a call: 1 is next. */
export interface LinePlace {
  position: number;
  estimatedWaitSeconds: number;
}

export type CallEvents = {
  /** The start is waiting in line, sent each time the place changes; null once it is admitted. */
  'line-update': LinePlace | null;
  'state-change': { state: CallState; previous: CallState };
  /** The assistant is ready (`listening` arrived): the visitor is connected. */
  'call-start': undefined;
  /** A started call is over, whichever way it ended. Always paired with an earlier call-start. */
  'call-end': undefined;
  'speech-start': undefined;
  'speech-end': undefined;
  /** Assistant loudness, 0..1. */
  'volume-level': { volume: number };
  /** Visitor's microphone level as Daily reports it, 0..1. */
  'local-volume-level': { volume: number };
  message: ServerMessage;
  error: CallError;
  'call-start-progress': StartProgress;
  'call-start-success': StartSuccess;
  'call-start-failed': StartFailure;
  /** Remote video (recording or avatar voices). */
  video: { track: MediaStreamTrack; participantId: string };
  'camera-error': CameraErrorInfo;
  'network-quality-change': NetworkQuality;
  'network-connection': NetworkConnection;
  'daily-participant-updated': ParticipantSummary;
  /** Audio that was blocked by the browser is playing now. */
  'audio-playback-resumed': undefined;
};

export type CallEventName = keyof CallEvents;

/**
 * Every event name at run time, beside the map: harnesses and bridges subscribe to all of them
 * from here. The `satisfies` check fails the build when the map gains a name this list lacks.
 */
export const CALL_EVENT_NAMES = [
  'state-change',
  'call-start',
  'call-end',
  'speech-start',
  'speech-end',
  'volume-level',
  'local-volume-level',
  'message',
  'error',
  'call-start-progress',
  'call-start-success',
  'call-start-failed',
  'video',
  'camera-error',
  'network-quality-change',
  'network-connection',
  'daily-participant-updated',
  'audio-playback-resumed',
  'line-update',
] as const satisfies readonly CallEventName[];

type MissingEventNames = Exclude<CallEventName, (typeof CALL_EVENT_NAMES)[number]>;
/** Compile-time proof that `CALL_EVENT_NAMES` lists every event of `CallEvents`. */
export const ALL_EVENT_NAMES_LISTED: MissingEventNames extends never ? true : MissingEventNames =
  true;
