import { useEffect, useId, useState } from 'react';

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

function DeviceSelect({
  label,
  choices,
  onChoose,
}: {
  label: string;
  choices: DeviceChoice[];
  onChoose(deviceId: string): void;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const first = choices[0]?.deviceId ?? '';
  const present = chosen !== null && choices.some((choice) => choice.deviceId === chosen);
  // A chosen device that went away (a headset unplugged): back to the browser's default.
  useEffect(() => {
    if (chosen === null || present || first === '') return;
    setChosen(null);
    onChoose(first);
  }, [chosen, present, first, onChoose]);
  return (
    <div className="flex min-w-0 flex-1 flex-col text-left">
      <label htmlFor={id} className="text-xs font-semibold text-mist">
        {label}
      </label>
      <select
        id={id}
        value={present ? (chosen ?? first) : first}
        onChange={(event) => {
          setChosen(event.target.value);
          onChoose(event.target.value);
        }}
        className="mt-1 min-h-11 w-full truncate rounded-full border border-court-500/70 bg-court-950/70 px-3 text-sm text-ivory"
      >
        {choices.map((choice) => (
          <option key={choice.deviceId} value={choice.deviceId}>
            {choice.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The microphone (and, where the browser can route audio, the speaker) of the call in progress,
 * following devices as they are plugged in and out.
 */
export function DevicePicker({
  microphone,
  onMicrophone,
  onSpeaker,
}: {
  /** The call uses the microphone (not a typed-only call). */
  microphone: boolean;
  onMicrophone(deviceId: string): void;
  onSpeaker(deviceId: string): void;
}) {
  const { microphones, speakers } = useMediaDevices();
  const showMicrophones = microphone && microphones.length > 1;
  const showSpeakers = canChooseSpeaker() && speakers.length > 1;
  if (!showMicrophones && !showSpeakers) return null;
  return (
    <div className="flex w-full flex-wrap gap-3" data-testid="device-picker">
      {showMicrophones && (
        <DeviceSelect label={MICROPHONE_LABEL} choices={microphones} onChoose={onMicrophone} />
      )}
      {showSpeakers && (
        <DeviceSelect label={SPEAKER_LABEL} choices={speakers} onChoose={onSpeaker} />
      )}
    </div>
  );
}
