/**
 * The provider's official web client (`@vapi-ai/web`, a devDependency only: never shipped) as a
 * test oracle, for the differential tests: both clients run the same scenarios over one recording
 * stand-in for Daily's call object, and what the provider sees (the call object's options, the
 * join, subscriptions, every app message, the observers and their order against noise
 * cancellation, mute, the teardown) is compared. Each test file mocks `@daily-co/daily-js` (both
 * copies) with `recordingDaily` itself, since a mock is hoisted within the file that declares it.
 */
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';
import { CALL_EVENT_NAMES } from '../call-events';
import { createDailyCallFactory } from '../daily-factory';
import { PepaCall, type WebCall } from '../pepa-call';
import { FakeMediaStream, asMediaStreamTrack, fakeTrack } from './fake-daily';
import { recordingDaily, type WireCall } from './recording-daily';

/**
 * The official client's own source, as its package ships it beside the build. Its build is
 * CommonJS, whose `require` no Vitest mock reaches; the source imports Daily as a module does.
 */
const OFFICIAL_CLIENT = '@vapi-ai/web/vapi.ts';

const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
export const ASSISTANT = { session_id: 'assistant-1', user_name: 'Vapi Speaker', local: false };
export const VISITOR_2 = { session_id: 'visitor-2', user_name: 'guest', local: false };
export const ROOM_SERVER = 'API';

export const WEB_CALL = {
  id: 'call-1',
  webCallUrl: 'https://pepa.daily.co/room-1',
  artifactPlan: { videoRecordingEnabled: false },
  assistant: { voice: { provider: 'vapi' } },
} satisfies WebCall;

export const RECORDED_CALL = {
  ...WEB_CALL,
  artifactPlan: { videoRecordingEnabled: true },
  transport: { provider: 'daily', callUrl: WEB_CALL.webCallUrl, callToken: 'meeting-token-1' },
} satisfies WebCall;

export const transcript = (text: string) =>
  JSON.stringify({
    type: 'transcript',
    role: 'assistant',
    transcriptType: 'final',
    transcript: text,
  });
export const ENDED = JSON.stringify({
  type: 'status-update',
  status: 'ended',
  endedReason: 'assistant-ended-call',
});

/** The verbs a scenario uses, on either client, and what each client told its listeners. */
export interface Client {
  readonly name: 'page' | 'official';
  /** Every event the client emitted: its name and payload. */
  readonly events: Array<[string, unknown]>;
  /** The bodies of the web calls it asked the provider for. */
  readonly requests: unknown[];
  start(): Promise<unknown>;
  end(): Promise<void>;
  stop(): Promise<void>;
  say(message: string, endCallAfterSpoken?: boolean): void;
  addMessage(content: string): void;
  setMuted(muted: boolean): void;
}

/** Lets every pending promise and module load finish (timers stay fake, so none fires). */
export async function settle(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (let i = 0; i < 40; i += 1) await Promise.resolve();
  }
}

const quiet = { warn: vi.fn(), error: vi.fn(), debug: vi.fn() };

export function pageClient(webCall: WebCall): Client {
  const events: Array<[string, unknown]> = [];
  const requests: unknown[] = [];
  const call = new PepaCall({
    createWebCall: (body) => {
      requests.push(body);
      return Promise.resolve(webCall);
    },
    // The page's own factory, over the mocked module: its Daily options are what Daily gets.
    createDailyCall: createDailyCallFactory(),
    userAgent: DESKTOP_UA,
    logger: quiet,
  });
  for (const name of CALL_EVENT_NAMES) call.on(name, (payload) => events.push([name, payload]));
  return {
    name: 'page',
    events,
    requests,
    start: () => call.start('assistant-1'),
    end: () => call.end(),
    stop: () => call.stop(),
    say: (message, endCallAfterSpoken) => call.say(message, endCallAfterSpoken),
    addMessage: (content) => call.send({ type: 'add-message', message: { role: 'user', content } }),
    setMuted: (muted) => call.setMuted(muted),
  };
}

/** The official client's events a page listens to. */
export const OFFICIAL_EVENTS = [
  'call-start',
  'call-end',
  'speech-start',
  'speech-end',
  'volume-level',
  'local-volume-level',
  'message',
  'error',
  'video',
  'call-start-failed',
] as const;

interface OfficialVapi {
  on(event: string, listener: (payload?: unknown) => void): unknown;
  start(assistant: string): Promise<unknown>;
  end(): void;
  stop(): Promise<void>;
  say(message: string, endCallAfterSpoken?: boolean): void;
  send(message: unknown): void;
  setMuted(muted: boolean): void;
}

export async function officialClient(
  webCall: WebCall,
  listenTo: readonly string[] = OFFICIAL_EVENTS,
): Promise<Client> {
  const module = (await import(/* @vite-ignore */ OFFICIAL_CLIENT)) as {
    default: new (token: string, baseUrl?: string) => OfficialVapi;
  };
  const requests: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: { body: string }) => {
      requests.push(JSON.parse(init.body));
      const response = {
        ok: true,
        status: 201,
        clone: () => response,
        json: () => Promise.resolve(structuredClone(webCall)),
      };
      return Promise.resolve(response);
    }),
  );
  const vapi = new module.default('public-key', 'https://api.provider.test');
  const events: Array<[string, unknown]> = [];
  for (const name of listenTo) vapi.on(name, (payload) => events.push([name, payload]));
  return {
    name: 'official',
    events,
    requests,
    start: () => vapi.start('assistant-1'),
    end: async () => vapi.end(),
    stop: () => vapi.stop(),
    say: (message, endCallAfterSpoken) => vapi.say(message, endCallAfterSpoken),
    addMessage: (content) => vapi.send({ type: 'add-message', message: { role: 'user', content } }),
    setMuted: (muted) => vapi.setMuted(muted),
  };
}

export type Scenario = (client: Client) => Promise<void>;

/** Starts, and lets the room set up; the page's start is still waiting for `listening`. */
export const startOnly: Scenario = async (client) => {
  void client.start();
  await settle();
};

export interface Run {
  client: Client;
  /** Everything done to Daily's call object, app messages parsed where they are JSON. */
  wire: WireCall[];
  /** The same, app messages as the strings sent. */
  raw: WireCall[];
  /** What the client told its listeners during the scenario (before the tidy-up). */
  heard: Array<[string, unknown]>;
}

function readable(calls: WireCall[]): WireCall[] {
  return calls.map(({ method, args }) =>
    method === 'sendAppMessage' && typeof args[0] === 'string'
      ? { method, args: [parseOrRaw(args[0]), ...args.slice(1)] }
      : { method, args },
  );
}

function parseOrRaw(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

/** Runs `scenario` on one client, from a fresh recording, and tidies up after it. */
export async function runOn(
  make: (webCall: WebCall) => Client | Promise<Client>,
  scenario: Scenario,
  webCall: WebCall = WEB_CALL,
): Promise<Run> {
  recordingDaily.reset();
  const client = await make(webCall);
  await scenario(client);
  await settle();
  const raw = [...recordingDaily.log];
  const heard = [...client.events];
  await client.stop();
  await vi.runOnlyPendingTimersAsync();
  return { client, wire: readable(raw), raw, heard };
}

/** Both clients through one scenario: the page's call object first, then the official one. */
export async function runBoth(scenario: Scenario, webCall: WebCall = WEB_CALL) {
  const page = await runOn(pageClient, scenario, webCall);
  const official = await runOn(officialClient, scenario, webCall);
  return { page, official };
}

/** Daily's side of a call up to the assistant's `listening`, from `sender`. */
export async function connect(client: Client, sender = ASSISTANT.session_id): Promise<unknown> {
  const started = client.start();
  await settle();
  const room = recordingDaily.room;
  room.emit('participant-joined', { action: 'participant-joined', participant: ASSISTANT });
  room.emit('track-started', {
    action: 'track-started',
    participant: ASSISTANT,
    track: asMediaStreamTrack(fakeTrack('audio')),
    type: 'audio',
  });
  await settle();
  room.emit('app-message', { action: 'app-message', data: 'listening', fromId: sender });
  await settle();
  return started;
}

export function appMessages(run: Run): unknown[] {
  return run.wire.filter(({ method }) => method === 'sendAppMessage').map(({ args }) => args[0]);
}

/** The wire without the call object's creation options (compared on their own). */
export function afterCreation(run: Run): WireCall[] {
  return run.wire.filter(({ method }) => method !== 'createCallObject');
}

export function creationOptions(run: Run): Record<string, unknown> {
  const created = run.wire.find(({ method }) => method === 'createCallObject');
  return (created?.args[0] ?? {}) as Record<string, unknown>;
}

export function names(client: Client): string[] {
  return client.events.map(([name]) => name);
}

/**
 * Sets each test of the calling file in the differential tests' setting: fake timers (promises
 * and immediates stay real), a faked MediaStream, audio elements whose play() resolves unless the
 * test says otherwise, and the clients' console quiet; each test ends with the audio elements and
 * the timers gone. Returns the play() stub of the test under way.
 */
export function setUpDifferentialTests(): () => MockInstance<() => Promise<void>> {
  let play: MockInstance<() => Promise<void>> | undefined;
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    vi.stubGlobal('MediaStream', FakeMediaStream);
    play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    document.querySelectorAll('audio').forEach((audio) => audio.remove());
    vi.clearAllTimers();
    vi.useRealTimers();
  });
  return () => {
    if (!play) throw new Error('play() is stubbed only while a test runs');
    return play;
  };
}
