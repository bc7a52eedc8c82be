import { expect, vi } from 'vitest';
import { CALL_EVENT_NAMES, type CallEventName, type CallEvents } from '../call-events';
import { PepaCall, type PepaCallOptions, type WebCall } from '../pepa-call';
import {
  ASSISTANT,
  type FakeDaily,
  asMediaStreamTrack,
  createFakeDailyFactory,
  fakeTrack,
} from './fake-daily';

export const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
export const START_TIME = 1_750_000_000_000;

export const WEB_CALL: WebCall = {
  id: 'call-1',
  webCallUrl: 'https://pepa.daily.co/room-1',
  artifactPlan: { videoRecordingEnabled: false },
  assistant: { voice: { provider: 'vapi' } },
};

/** One recorded event: `state:x`, `progress:stage:status`, a bare name, or `[name, payload]`. */
export type Recorded = string | [string, unknown];

function record<K extends CallEventName>(type: K, payload: CallEvents[K]): Recorded {
  if (type === 'state-change') return `state:${(payload as CallEvents['state-change']).state}`;
  if (type === 'call-start-progress') {
    const progress = payload as CallEvents['call-start-progress'];
    return `progress:${progress.stage}:${progress.status}`;
  }
  return payload === undefined ? type : [type, payload];
}

/** Resolves pending promise callbacks without moving fake time. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 30; i += 1) await Promise.resolve();
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

let active: Harness | null = null;

export type Harness = ReturnType<typeof createHarness>;

export function createHarness(overrides: Partial<PepaCallOptions> = {}) {
  const { factory, instances } = createFakeDailyFactory();
  const createWebCall = vi.fn(
    async (_body: object, _options?: { signal?: AbortSignal }): Promise<WebCall> => WEB_CALL,
  );
  const logger = { warn: vi.fn(), error: vi.fn() };
  const call = new PepaCall({
    createWebCall,
    createDailyCall: factory,
    userAgent: DESKTOP_UA,
    logger,
    ...overrides,
  });
  const events: Recorded[] = [];
  const payloads: Array<[CallEventName, unknown]> = [];
  for (const name of CALL_EVENT_NAMES) {
    call.on(name, (payload) => {
      events.push(record(name, payload));
      payloads.push([name, payload]);
    });
  }
  const makeDaily = factory.getMockImplementation()!;
  /** Lets a test shape the next call object before the call object receives it. */
  const configureNextDaily = (configure: (daily: FakeDaily) => void): void => {
    factory.mockImplementationOnce(async (options) => {
      const daily = (await makeDaily(options)) as FakeDaily;
      configure(daily);
      return daily;
    });
  };
  const daily = (index = 0): FakeDaily => {
    const instance = instances[index];
    if (!instance) throw new Error(`No Daily call object #${index}`);
    return instance;
  };
  const harness = {
    call,
    createWebCall,
    factory,
    instances,
    logger,
    events,
    payloads,
    daily,
    configureNextDaily,
    /** Plays the room's side up to the assistant saying `listening`. */
    async connect<T = WebCall | null>(
      start: () => Promise<T> = () => call.start('assistant-1') as Promise<T>,
    ) {
      const result = start();
      await flush();
      const room = instances[instances.length - 1];
      if (!room) throw new Error('No Daily call object was created');
      room.emit('participant-joined', { participant: ASSISTANT });
      room.emit('track-started', {
        participant: ASSISTANT,
        track: asMediaStreamTrack(fakeTrack('audio')),
        type: 'audio',
      });
      await flush();
      room.emit('app-message', { data: 'listening', fromId: ASSISTANT.session_id });
      await flush();
      return result;
    },
    clearEvents() {
      events.length = 0;
      payloads.length = 0;
    },
  };
  active = harness;
  return harness;
}

/**
 * Everything a test must leave behind: nothing. Measures first, then clears up whatever a
 * failing test left, so one failure does not cascade into the next tests.
 */
export async function expectNothingLeft(): Promise<void> {
  const harness = active;
  active = null;
  const timers = vi.getTimerCount();
  const audioElements = document.querySelectorAll('audio').length;
  const counts = harness?.call.getResourceCounts();
  const state = harness?.call.state;
  const instances = (harness?.instances ?? []).map((instance) => ({
    listeners: instance.listenerCount(),
    destroyed: instance.destroyed,
  }));
  await harness?.call.stop();
  document.querySelectorAll('audio').forEach((audio) => audio.remove());
  vi.clearAllTimers();

  expect(timers).toBe(0);
  expect(audioElements).toBe(0);
  if (!harness) return;
  expect(counts).toEqual({ audioElements: 0, timers: 0, dailyListeners: 0, gestureListeners: 0 });
  expect(state).toBe('idle');
  for (const instance of instances) expect(instance).toEqual({ listeners: 0, destroyed: true });
}

/** The start sequence of events up to and including call-start, for a desktop call. */
export const HAPPY_START: Recorded[] = [
  'state:starting',
  'progress:web-call-creation:started',
  'progress:web-call-creation:completed',
  'progress:call-object-creation:started',
  'progress:call-object-creation:completed',
  'progress:join:started',
  'progress:join:completed',
  // The room's set-up runs beside the wait for the assistant: Pepa's level observer, noise
  // cancellation, then the microphone's level observer once noise cancellation has settled.
  'progress:audio-observer-setup:started',
  'progress:assistant-ready:started',
  'progress:audio-observer-setup:completed',
  'progress:audio-processing-setup:started',
  'progress:audio-processing-setup:completed',
  'progress:audio-observer-setup:started',
  'progress:audio-observer-setup:completed',
  'progress:assistant-ready:completed',
  ['call-start-success', { callId: 'call-1', totalDurationMs: 0, timestamp: START_TIME }],
  'state:started',
  'call-start',
];

export const SYNTHETIC_ENDED: Recorded = [
  'message',
  { type: 'status-update', status: 'ended', endedReason: 'customer-ended-call' },
];
