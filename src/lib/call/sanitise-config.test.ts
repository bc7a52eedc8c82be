import { describe, expect, it } from 'vitest';
import {
  buildCallObjectOptions,
  sanitiseDailyConfig,
  sanitiseInputDevices,
} from './sanitise-config';

describe('sanitiseDailyConfig', () => {
  it('removes alwaysIncludeMicInPermissionPrompt when it is false, and only then', () => {
    const config = { alwaysIncludeMicInPermissionPrompt: false, avoidEval: true };
    expect(sanitiseDailyConfig(config)).toEqual({ avoidEval: true });
    expect(config).toEqual({ alwaysIncludeMicInPermissionPrompt: false, avoidEval: true });
    expect(sanitiseDailyConfig({ alwaysIncludeMicInPermissionPrompt: true })).toEqual({
      alwaysIncludeMicInPermissionPrompt: true,
    });
    expect(sanitiseDailyConfig()).toEqual({});
  });
});

describe('sanitiseInputDevices', () => {
  it('drops audioSource: false and keeps everything else', () => {
    expect(
      sanitiseInputDevices({ audioSource: false, audioDeviceId: 'mic', videoSource: false }),
    ).toEqual({
      audioDeviceId: 'mic',
      videoSource: false,
    });
  });
});

describe('buildCallObjectOptions', () => {
  it('defaults audioSource to true and videoSource to the recording flag', () => {
    expect(buildCallObjectOptions({}, undefined, false)).toEqual({
      audioSource: true,
      videoSource: false,
      dailyConfig: {},
    });
    expect(buildCallObjectOptions({}, undefined, true).videoSource).toBe(true);
    expect(buildCallObjectOptions({ audioSource: 'mic-2', videoSource: false }, {}, true)).toEqual({
      audioSource: 'mic-2',
      videoSource: false,
      dailyConfig: {},
    });
  });
});
