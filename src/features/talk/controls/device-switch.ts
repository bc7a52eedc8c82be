import { inputDeviceInUse } from '../../../lib/call';
import type { VoiceCall } from '../voice/use-voice-call';

/**
 * How a device switch ended: `ok`, or refused, with the device the call still uses where the
 * call says (null: the one it had).
 */
export type DeviceSwitch = { ok: true } | { ok: false; inUse: string | null };

/** Switches the call to a device; resolves with what is really in use afterwards. */
export type SwitchDevice = (deviceId: string) => Promise<DeviceSwitch>;

/**
 * Switches the call's microphone and says what is in use afterwards: refused when the switch
 * failed, or when the room reports another microphone than the one asked for (a device that
 * could not be opened leaves the old one in use).
 */
export async function switchMicrophone(
  call: Pick<VoiceCall, 'setInputDevicesAsync'>,
  deviceId: string,
): Promise<DeviceSwitch> {
  try {
    const inUse = inputDeviceInUse(await call.setInputDevicesAsync({ audioDeviceId: deviceId }));
    return inUse === null || inUse === deviceId ? { ok: true } : { ok: false, inUse };
  } catch {
    return { ok: false, inUse: null };
  }
}

/** Switches the speaker Pepa plays through; refused when the browser would not route to it. */
export async function switchSpeaker(
  call: Pick<VoiceCall, 'setOutputDeviceAsync'>,
  deviceId: string,
): Promise<DeviceSwitch> {
  try {
    await call.setOutputDeviceAsync({ outputDeviceId: deviceId });
    return { ok: true };
  } catch {
    return { ok: false, inUse: null };
  }
}
