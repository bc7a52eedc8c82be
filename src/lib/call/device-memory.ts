/**
 * The visitor's microphone choice across call objects: a rejoin creates a fresh call object, and
 * it must open the microphone the visitor chose, not the browser's default, so that what the
 * picker shows stays what is in use.
 */
import type { DailyCallObjectOptions, DailyLikeAdvancedConfig } from './daily-types';
import { buildCallObjectOptions, type CallObjectOverrides } from './sanitise-config';
import { isRecord } from '../is-record';

/**
 * The microphone a device switch left in use, as Daily's `setInputDevicesAsync` reports it
 * (`{ mic: { deviceId } }`), or null when the answer does not say.
 */
export function inputDeviceInUse(result: unknown): string | null {
  const mic = isRecord(result) ? result.mic : undefined;
  const deviceId = isRecord(mic) ? mic.deviceId : undefined;
  return typeof deviceId === 'string' && deviceId !== '' ? deviceId : null;
}

/**
 * The call object's overrides for one session: the chosen microphone where the visitor chose one,
 * else the track the start opened, else the page's own overrides. Every call has the microphone.
 */
export function callObjectOverrides(
  overrides: CallObjectOverrides | undefined,
  session: {
    inputDeviceId: string | null;
    microphoneTrack?: MediaStreamTrack | null;
  },
): CallObjectOverrides {
  if (session.inputDeviceId) return { ...overrides, audioSource: session.inputDeviceId };
  // The track the start opened: the room sends it, so the visitor is asked once.
  const track = session.microphoneTrack;
  if (track && track.readyState === 'live') return { ...overrides, audioSource: track };
  return overrides ?? {};
}

/** What one session's call object is created with (the first join and every rejoin). */
export function callObjectOptions(
  options: { callObject?: CallObjectOverrides; dailyConfig?: DailyLikeAdvancedConfig },
  session: {
    inputDeviceId: string | null;
    microphoneTrack?: MediaStreamTrack | null;
    webCall: { artifactPlan?: { videoRecordingEnabled?: boolean | null } | null } | null;
  },
): DailyCallObjectOptions {
  return buildCallObjectOptions(
    callObjectOverrides(options.callObject, session),
    options.dailyConfig,
    session.webCall?.artifactPlan?.videoRecordingEnabled === true,
  );
}
