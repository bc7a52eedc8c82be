import type { DailyCall, DailyEventObject } from '@daily-co/daily-js';
import type {
  DailyCallFactory,
  DailyLike,
  DailyLikeEventName,
  DailyLikeEvents,
} from './daily-types';

/** Compile-time proof that each Daily payload carries the fields `DailyLikeEvents` reads. */
type MismatchedPayloads = {
  [E in DailyLikeEventName]: DailyEventObject<E> extends DailyLikeEvents[E] ? never : E;
}[DailyLikeEventName];
const payloadsFit: [MismatchedPayloads] extends [never] ? true : MismatchedPayloads = true;
void payloadsFit;

function toDailyLike(call: DailyCall): DailyLike {
  return {
    join: (options) => call.join(options),
    destroy: () => call.destroy(),
    // Handlers are passed through untouched so that `off` finds the same function; the check
    // above is what makes the narrowing cast sound.
    on: (event, handler) => call.on(event, handler as (payload: DailyEventObject) => void),
    off: (event, handler) => call.off(event, handler as (payload: DailyEventObject) => void),
    updateParticipant: (sessionId, updates) => call.updateParticipant(sessionId, updates),
    sendAppMessage: (data) => call.sendAppMessage(data),
    startRecording: (options) => call.startRecording(options),
    stopRecording: () => call.stopRecording(),
    startRemoteParticipantsAudioLevelObserver: (intervalMs) =>
      call.startRemoteParticipantsAudioLevelObserver(intervalMs),
    startLocalAudioLevelObserver: (intervalMs) => call.startLocalAudioLevelObserver(intervalMs),
    updateInputSettings: (settings) => call.updateInputSettings(settings),
    setLocalAudio: (enabled) => call.setLocalAudio(enabled),
    localAudio: () => call.localAudio(),
    setInputDevicesAsync: (devices) => call.setInputDevicesAsync(devices),
    setOutputDeviceAsync: (device) => call.setOutputDeviceAsync(device),
  };
}

/**
 * The real factory: loads `@daily-co/daily-js` on first use (never in the initial bundle) and
 * creates a call object with `avoidEval`, so the page's CSP needs no `'unsafe-eval'`.
 * This is the only module that imports Daily.
 */
export function createDailyCallFactory(): DailyCallFactory {
  return async ({ audioSource, videoSource, dailyConfig }) => {
    const { default: Daily } = await import('@daily-co/daily-js');
    const call = Daily.createCallObject({
      audioSource,
      videoSource,
      dailyConfig: { ...dailyConfig, avoidEval: true },
    });
    return toDailyLike(call);
  };
}
