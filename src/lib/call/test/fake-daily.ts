import { vi } from 'vitest';
import { DailyEventHub } from '../daily-facade';
import type { DailyCallObjectOptions, DailyLike, DailyLikeParticipant } from '../daily-types';

/**
 * Stubs exactly what the call object calls on Daily's call object. Each method is a `vi.fn`
 * so a test can assert its calls or swap its behaviour; `emit` plays Daily's side.
 */
export class FakeDaily extends DailyEventHub implements DailyLike {
  destroyed = false;
  private micOn = true;

  constructor(readonly options: DailyCallObjectOptions) {
    super();
  }

  join = vi.fn(
    async (_options: { url: string; subscribeToTracksAutomatically: boolean }): Promise<unknown> =>
      undefined,
  );
  destroy = vi.fn(async (): Promise<void> => {
    this.destroyed = true;
  });
  updateParticipant = vi.fn(
    (
      _sessionId: string,
      _updates: { setSubscribedTracks: { audio: boolean; video: boolean } },
    ): unknown => undefined,
  );
  sendAppMessage = vi.fn((_data: string): unknown => undefined);
  startRecording = vi.fn(
    (_options: { width: number; height: number; layout: { preset: 'default' } }): void => undefined,
  );
  stopRecording = vi.fn((): void => undefined);
  startRemoteParticipantsAudioLevelObserver = vi.fn(
    async (_intervalMs: number): Promise<void> => undefined,
  );
  startLocalAudioLevelObserver = vi.fn(async (_intervalMs: number): Promise<void> => undefined);
  updateInputSettings = vi.fn(
    async (_settings: {
      audio: { processor: { type: 'noise-cancellation' | 'none' } };
    }): Promise<unknown> => undefined,
  );
  setLocalAudio = vi.fn((enabled: boolean): unknown => {
    this.micOn = enabled;
    return undefined;
  });
  localAudio = vi.fn((): boolean => this.micOn);
  setInputDevicesAsync = vi.fn(async (_devices: object): Promise<unknown> => undefined);
  setOutputDeviceAsync = vi.fn(
    async (_device: { outputDeviceId: string }): Promise<unknown> => undefined,
  );

  /** The app messages sent so far, JSON parsed where they are JSON. */
  sentMessages(): unknown[] {
    return this.sendAppMessage.mock.calls.map(([data]) => {
      try {
        return JSON.parse(data) as unknown;
      } catch {
        return data;
      }
    });
  }
}

export function createFakeDailyFactory() {
  const instances: FakeDaily[] = [];
  const factory = vi.fn(async (options: DailyCallObjectOptions): Promise<DailyLike> => {
    const daily = new FakeDaily(options);
    instances.push(daily);
    return daily;
  });
  return { factory, instances };
}

export const ASSISTANT: DailyLikeParticipant = {
  session_id: 'assistant-1',
  user_name: 'Vapi Speaker',
  local: false,
};

export const VISITOR: DailyLikeParticipant = {
  session_id: 'visitor-1',
  user_name: 'guest',
  local: true,
};

export interface FakeTrack {
  kind: 'audio' | 'video';
  id: string;
  readyState: 'live' | 'ended';
  enabled: boolean;
  stop(): void;
}

export function fakeTrack(kind: 'audio' | 'video' = 'audio', id = `${kind}-track`): FakeTrack {
  const track: FakeTrack = {
    kind,
    id,
    readyState: 'live',
    enabled: true,
    stop() {
      track.readyState = 'ended';
    },
  };
  return track;
}

export function asMediaStreamTrack(track: FakeTrack): MediaStreamTrack {
  return track as unknown as MediaStreamTrack;
}

/** jsdom has no MediaStream; the call object only wraps tracks in one. */
export class FakeMediaStream {
  constructor(readonly tracks: MediaStreamTrack[] = []) {}
  getTracks(): MediaStreamTrack[] {
    return this.tracks;
  }
  getAudioTracks(): MediaStreamTrack[] {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
}
