/** The call object's options, constants and the shapes it reads. */
import type { CallControllerCreateWebCallData } from '../../../generated/types.gen';
import type { DailyCallFactory, DailyLikeAdvancedConfig } from './daily-types';
import type { CallObjectOverrides } from './sanitise-config';
import type { LinePlace, StartStage } from './call-events';

export const VALIDATION_MESSAGE = 'Assistant or Squad or Workflow must be provided';
export const BUSY_MESSAGE = 'A call is already in progress';
export const RECONNECT_URL_MESSAGE = 'webCallUrl is required for reconnection';
export const RECONNECT_IN_PROGRESS_MESSAGE = 'A call is in progress: stop it before reconnecting';
export const CALL_OBJECT_UNAVAILABLE_MESSAGE = 'Call object is not available';
export const NO_WEB_CALL_CREATOR_MESSAGE =
  'start() needs the createWebCall option; or create the call yourself and use startWith()';

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

/** Stages up to and including the join: a fatal Daily error then is the join failing. */
export const JOINING_STAGES: ReadonlySet<StartStage> = new Set([
  'web-call-creation',
  'call-object-creation',
  'mobile-wait',
  'join',
]);

/**
 * The body of POST /call/web, as generated from the provider's spec (a type-only import), read
 * from the operation so it holds whether or not the generator splits out a `…Writable` shape.
 */
export type CreateWebCallBody = CallControllerCreateWebCallData['body'];

/** The fields of the provider's Call that the call object reads. */
export interface WebCall {
  id: string;
  webCallUrl?: string | null;
  /** Where the provider's current spec carries the room URL too (its web-call transport). */
  transport?: unknown;
  artifactPlan?: { videoRecordingEnabled?: boolean | null } | null;
  assistant?: { voice?: { provider?: string | null } | null } | null;
}

/** What a web call's request tells the call object while it waits its turn. */
export interface LineReporter {
  /** The request is in line at this place (again, each time it changes). */
  waiting(place: LinePlace): void;
}

/**
 * Creates the web call; `signal` aborts the request when the start is stopped. A request that
 * waits in a line reports its place through `line`: the start's timeout does not run meanwhile.
 */
export type WebCallRequest<TCall> = (signal: AbortSignal, line: LineReporter) => Promise<TCall>;

/** Opens the visitor's microphone: `getUserMedia`, or what stands in for it. */
export type MicrophoneOpener = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

/**
 * How a start runs its stages. `overlapped` (the default): the call request, the microphone and
 * the phone's wait run at once from the tap, and the room's set-up does not hold back listening.
 * `sequential`: each stage after the last, as the provider's own client does (for measuring).
 */
export type StartOrder = 'overlapped' | 'sequential';

export interface CallLogger {
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
  /** Optional: what is dropped on purpose (e.g. a message from a participant who is not Pepa). */
  debug?(message: string, ...details: unknown[]): void;
}

export interface PepaCallOptions<TCall extends WebCall = WebCall> {
  /**
   * Creates the web call (POST /call/web) for the Vapi-compatible `start()`. A page that creates
   * the call itself (e.g. with a mutation) passes it to `startWith()` and leaves this out.
   */
  createWebCall?(body: CreateWebCallBody, options?: { signal?: AbortSignal }): Promise<TCall>;
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
  /**
   * Opens the microphone at the tap, so its prompt does not wait for the call request; the
   * track is handed to the call object. Default: `navigator.mediaDevices.getUserMedia` where it
   * exists; `null` leaves the microphone to the call object's join.
   */
  openMicrophone?: MicrophoneOpener | null;
  /**
   * What the browser already knows of the microphone's permission, asked before the call
   * request goes out: `denied` ends the start at once, with no request. Default: the Permissions
   * API where it exists (an engine without it, or without the `microphone` name, answers null:
   * the start goes on, and a refused microphone gives the call back).
   */
  microphonePermission?: (() => Promise<PermissionState | null>) | null;
  /** Default `overlapped`. */
  startOrder?: StartOrder;
}

/** What `startWith` is told besides the request. Every call joins with the microphone. */
export interface StartWithOptions {
  /**
   * The start ended without the call (its microphone refused, the visitor stopped, a failure)
   * after its web call was created and before it started: the web call, to give back, so its
   * place is free at once rather than held until nobody joins it.
   */
  unjoined?: (webCall: unknown) => void;
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
