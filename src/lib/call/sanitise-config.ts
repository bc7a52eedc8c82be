import type {
  DailyCallObjectOptions,
  DailyLikeAdvancedConfig,
  DailyLikeInputDevices,
} from './daily-types';

/**
 * Drops `alwaysIncludeMicInPermissionPrompt: false`, which breaks the permission prompt in
 * recent Chrome versions. Returns a copy; the input is left alone.
 */
export function sanitiseDailyConfig(config: DailyLikeAdvancedConfig = {}): DailyLikeAdvancedConfig {
  const copy = { ...config };
  if (copy.alwaysIncludeMicInPermissionPrompt === false) {
    delete copy.alwaysIncludeMicInPermissionPrompt;
  }
  return copy;
}

/** Drops `audioSource: false` from a device change, which would stop the microphone for good. */
export function sanitiseInputDevices(devices: DailyLikeInputDevices): DailyLikeInputDevices {
  const copy = { ...devices };
  if (copy.audioSource === false) {
    delete copy.audioSource;
  }
  return copy;
}

export interface CallObjectOverrides {
  audioSource?: string | MediaStreamTrack | boolean;
  videoSource?: string | MediaStreamTrack | boolean;
}

/**
 * Options for the Daily call object of one call: the microphone on unless told otherwise,
 * the camera only when the provider records video, and the sanitised Daily config.
 */
export function buildCallObjectOptions(
  overrides: CallObjectOverrides,
  dailyConfig: DailyLikeAdvancedConfig | undefined,
  videoRecordingEnabled: boolean,
): DailyCallObjectOptions {
  return {
    audioSource: overrides.audioSource ?? true,
    videoSource: overrides.videoSource ?? videoRecordingEnabled,
    dailyConfig: sanitiseDailyConfig(dailyConfig),
  };
}
