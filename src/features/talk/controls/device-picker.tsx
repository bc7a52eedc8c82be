import { useEffect, useId, useRef, useState } from 'react';
import type { SwitchDevice } from './device-switch';

export const MICROPHONE_LABEL = 'Microphone';
export const SPEAKER_LABEL = 'Speaker';

export interface DeviceChoice {
  deviceId: string;
  label: string;
}

interface DeviceLists {
  microphones: DeviceChoice[];
  speakers: DeviceChoice[];
}

const NO_DEVICES: DeviceLists = { microphones: [], speakers: [] };

function choicesOf(devices: MediaDeviceInfo[], kind: MediaDeviceKind, name: string) {
  return devices
    .filter((device) => device.kind === kind && device.deviceId !== '')
    .map((device, index) => ({
      deviceId: device.deviceId,
      label: device.label || `${name} ${index + 1}`,
    }));
}

/** The browser's microphones and speakers, kept current as devices come and go. */
export function useMediaDevices(): DeviceLists {
  const [lists, setLists] = useState<DeviceLists>(NO_DEVICES);
  useEffect(() => {
    const media = navigator.mediaDevices;
    if (!media?.enumerateDevices) return;
    let live = true;
    const refresh = () => {
      media.enumerateDevices().then(
        (devices) => {
          if (!live) return;
          setLists({
            microphones: choicesOf(devices, 'audioinput', MICROPHONE_LABEL),
            speakers: choicesOf(devices, 'audiooutput', SPEAKER_LABEL),
          });
        },
        () => undefined,
      );
    };
    refresh();
    media.addEventListener('devicechange', refresh);
    return () => {
      live = false;
      media.removeEventListener('devicechange', refresh);
    };
  }, []);
  return lists;
}

/** Whether this browser can send the page's audio to a chosen speaker. */
export function canChooseSpeaker(): boolean {
  return typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
}

export const REFUSED_DEVICE: Record<string, (inUse: string) => string> = {
  [MICROPHONE_LABEL]: (inUse) =>
    `That microphone couldn't be opened, so Pepa still hears you through ${inUse}.`,
  [SPEAKER_LABEL]: (inUse) =>
    `That speaker couldn't be used, so Pepa still plays through ${inUse}.`,
};

function DeviceSelect({
  label,
  choices,
  onChoose,
  unavailable,
}: {
  label: string;
  choices: DeviceChoice[];
  onChoose: SwitchDevice;
  unavailable: boolean;
}) {
  const id = useId();
  const noteId = useId();
  /** The device in use, as far as the call has said (null: the browser's default). */
  const [chosen, setChosen] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const first = choices[0]?.deviceId ?? '';
  const present = chosen !== null && choices.some((choice) => choice.deviceId === chosen);
  const shown = present ? (chosen ?? first) : first;
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const choose = (deviceId: string, previous: string) => {
    setChosen(deviceId);
    setRefused(null);
    void onChoose(deviceId).then((result) => {
      if (!live.current || result.ok) return;
      // The call did not take it: the picker shows what is really in use, and says why.
      const inUse = result.inUse ?? previous;
      setChosen(inUse);
      const name = choices.find((choice) => choice.deviceId === inUse)?.label ?? 'the one before';
      setRefused(REFUSED_DEVICE[label]?.(name) ?? null);
    });
  };

  // A chosen device that went away (a headset unplugged): back to the browser's default.
  useEffect(() => {
    if (chosen === null || present || first === '') return;
    setChosen(null);
    void onChoose(first);
  }, [chosen, present, first, onChoose]);
  return (
    <div className="flex min-w-0 flex-1 flex-col text-left">
      <label htmlFor={id} className="text-xs font-semibold text-mist">
        {label}
      </label>
      <select
        id={id}
        value={shown}
        // While the connection is restored there is no device to switch: the picker keeps its
        // choice and its focus, and ignores changes.
        aria-disabled={unavailable || undefined}
        aria-describedby={refused ? noteId : undefined}
        onChange={(event) => {
          if (unavailable) return;
          choose(event.target.value, shown);
        }}
        className="mt-1 min-h-11 w-full truncate rounded-full border border-court-500/70 bg-court-950/70 px-3 text-sm text-ivory aria-disabled:opacity-60"
      >
        {choices.map((choice) => (
          <option key={choice.deviceId} value={choice.deviceId}>
            {choice.label}
          </option>
        ))}
      </select>
      {refused && (
        <p id={noteId} role="alert" className="mt-1 text-xs text-gold-200">
          {refused}
        </p>
      )}
    </div>
  );
}

/**
 * The microphone (and, where the browser can route audio, the speaker) of the call in progress,
 * following devices as they are plugged in and out. Each picker shows the device the call really
 * uses: a device that cannot be opened is refused, with the reason beside it.
 */
export function DevicePicker({
  onMicrophone,
  onSpeaker,
  unavailable = false,
}: {
  onMicrophone: SwitchDevice;
  onSpeaker: SwitchDevice;
  /** The connection is being restored: the choices stay, changes wait. */
  unavailable?: boolean;
}) {
  const { microphones, speakers } = useMediaDevices();
  const showMicrophones = microphones.length > 1;
  const showSpeakers = canChooseSpeaker() && speakers.length > 1;
  if (!showMicrophones && !showSpeakers) return null;
  return (
    <div className="flex w-full flex-wrap gap-3" data-testid="device-picker">
      {showMicrophones && (
        <DeviceSelect
          label={MICROPHONE_LABEL}
          choices={microphones}
          onChoose={onMicrophone}
          unavailable={unavailable}
        />
      )}
      {showSpeakers && (
        <DeviceSelect
          label={SPEAKER_LABEL}
          choices={speakers}
          onChoose={onSpeaker}
          unavailable={unavailable}
        />
      )}
    </div>
  );
}
