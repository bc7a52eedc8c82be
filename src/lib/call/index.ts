/**
 * The call library's front door: everything code outside `src/lib/call/` may use, and nothing
 * else (a lint rule refuses imports of the modules behind it). The map of the modules behind the
 * door is docs/call-library.md.
 */

// The call object and what it is given.
export { PepaCall } from './pepa-call';
export type {
  LineReporter,
  MicrophoneOpener,
  ResourceCounts,
  StartWithOptions,
  WebCall,
  WebCallRequest,
} from './call-options';
export type { DailyCallFactory, DailyLikeInputDevices } from './daily-types';
/** How long a phone's start waits before joining (it runs down beside the call request). */
export { MOBILE_JOIN_DELAY_MS } from './call-options';

// What it reports: its events, their payloads, how a start ends and why a call failed.
export type {
  CallError,
  CallEvents,
  CallState,
  ClientMessage,
  LinePlace,
  NetworkQuality,
  ServerMessage,
} from './call-events';
export { CallStartError, type CallErrorSource, type StartOutcome } from './start-error';
export { isSpeechUpdateMessage, isTranscriptMessage } from './server-message';
export { malformedAnswerProblem } from './web-call-answer';
export { inputDeviceInUse } from './device-memory';

// The room URL check, which the go-live doctor runs against the provider's answer too.
export { checkRoomUrl, roomUrlOf } from './room-url';

/** The live rooms: loads Daily's call bundle only when a call is wanted. */
export const loadDailyRooms = () =>
  import('./daily-factory').then(({ createDailyCallFactory }) => ({ createDailyCallFactory }));

/**
 * The demo's rooms: the offline room simulator, its faults and its latency model, loaded only by
 * a demo build (a live build never reaches this, and its bundler leaves the simulator out).
 */
export const loadSimulatedRooms = () =>
  Promise.all([
    import('./simulator/room-simulator'),
    import('./simulator/simulator-faults'),
    import('./simulator/options'),
    loadFieldLatency(),
  ]).then(
    ([
      { createSimulatorFactory, createSimulatorMicrophone },
      { parseSimulatorFaults },
      { fieldTimings },
      fieldLatency,
    ]) => ({
      createSimulatorFactory,
      createSimulatorMicrophone,
      parseSimulatorFaults,
      fieldTimings,
      fieldLatency,
    }),
  );

/** The demo's field latency model (docs/demo-simulator.md), loaded only when it is played. */
export const loadFieldLatency = () =>
  import('./simulator/field-latency.json').then(({ default: model }) => model);
