import { vi } from 'vitest';
import {
  FakeMediaStream,
  asMediaStreamTrack,
  fakeTrack,
  type FakeTrack,
} from '../../test/fake-daily';
import type { SimulatorAudio } from '../simulator-audio';

/** A stand-in for the Web Audio voice: a fake track and a microphone level the test sets. */
export function createFakeAudio() {
  const voiceTrack = fakeTrack('audio', 'pepa-voice');
  let level = 0;
  const audio = {
    assistantTrack: asMediaStreamTrack(voiceTrack),
    speak: vi.fn((_durationMs: number) => undefined),
    hush: vi.fn(() => undefined),
    listenTo: vi.fn((_microphone: MediaStream) => undefined),
    microphoneLevel: () => level,
    close: vi.fn(() => voiceTrack.stop()),
  } satisfies SimulatorAudio;
  return {
    audio,
    voiceTrack,
    factory: vi.fn(() => audio),
    setMicrophoneLevel(next: number) {
      level = next;
    },
  };
}

/** A getUserMedia that hands out one fake microphone track per call and remembers them. */
export function createFakeGetUserMedia() {
  const tracks: FakeTrack[] = [];
  const getUserMedia = vi.fn(async (_constraints: MediaStreamConstraints) => {
    const track = fakeTrack('audio', `mic-${tracks.length + 1}`);
    tracks.push(track);
    return new FakeMediaStream([asMediaStreamTrack(track)]) as unknown as MediaStream;
  });
  return { getUserMedia, tracks };
}
