/**
 * The provider's official web client (`@vapi-ai/web`, a devDependency only: never shipped) as a
 * test oracle. Both clients run the same scenarios over one recording stand-in for Daily's call
 * object, and what the provider sees (the call object's options, the join, subscriptions, every
 * app message, the observers and their order against noise cancellation, mute, the teardown) is
 * compared. Every place where the page's call object deliberately does otherwise is one named test
 * below, with its reason, so an upgrade of the official client shows what changed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CALL_EVENT_NAMES } from './call-events';
import { createDailyCallFactory } from './daily-factory';
import { PepaCall, type WebCall } from './pepa-call';
import { FakeMediaStream, asMediaStreamTrack, fakeTrack } from './test/fake-daily';
import { recordingDaily, type WireCall } from './test/recording-daily';

// The page's call object loads `@daily-co/daily-js`; the official client imports its own copy,
// nested under its package. Both resolve to the one recording stand-in.
vi.mock('@daily-co/daily-js', async () => ({
  default: (await import('./test/recording-daily')).recordingDaily,
}));
vi.mock('../../../node_modules/@vapi-ai/web/node_modules/@daily-co/daily-js', async () => ({
  default: (await import('./test/recording-daily')).recordingDaily,
}));

/**
 * The official client's own source, as its package ships it beside the build. Its build is
 * CommonJS, whose `require` no Vitest mock reaches; the source imports Daily as a module does.
 */
const OFFICIAL_CLIENT = '@vapi-ai/web/vapi.ts';

const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const ASSISTANT = { session_id: 'assistant-1', user_name: 'Vapi Speaker', local: false };
const VISITOR_2 = { session_id: 'visitor-2', user_name: 'guest', local: false };
const ROOM_SERVER = 'API';

const WEB_CALL = {
  id: 'call-1',
  webCallUrl: 'https://pepa.daily.co/room-1',
  artifactPlan: { videoRecordingEnabled: false },
  assistant: { voice: { provider: 'vapi' } },
} satisfies WebCall;

const RECORDED_CALL = {
  ...WEB_CALL,
  artifactPlan: { videoRecordingEnabled: true },
  transport: { provider: 'daily', callUrl: WEB_CALL.webCallUrl, callToken: 'meeting-token-1' },
} satisfies WebCall;

const transcript = (text: string) =>
  JSON.stringify({
    type: 'transcript',
    role: 'assistant',
    transcriptType: 'final',
    transcript: text,
  });
const ENDED = JSON.stringify({
  type: 'status-update',
  status: 'ended',
  endedReason: 'assistant-ended-call',
});

/** The verbs a scenario uses, on either client, and what each client told its listeners. */
interface Client {
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
async function settle(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (let i = 0; i < 40; i += 1) await Promise.resolve();
  }
}

const quiet = { warn: vi.fn(), error: vi.fn(), debug: vi.fn() };

function pageClient(webCall: WebCall): Client {
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
const OFFICIAL_EVENTS = [
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

async function officialClient(
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

type Scenario = (client: Client) => Promise<void>;

/** Starts, and lets the room set up; the page's start is still waiting for `listening`. */
const startOnly: Scenario = async (client) => {
  void client.start();
  await settle();
};

interface Run {
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
async function runOn(
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
async function runBoth(scenario: Scenario, webCall: WebCall = WEB_CALL) {
  const page = await runOn(pageClient, scenario, webCall);
  const official = await runOn(officialClient, scenario, webCall);
  return { page, official };
}

/** Daily's side of a call up to the assistant's `listening`, from `sender`. */
async function connect(client: Client, sender = ASSISTANT.session_id): Promise<unknown> {
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

function appMessages(run: Run): unknown[] {
  return run.wire.filter(({ method }) => method === 'sendAppMessage').map(({ args }) => args[0]);
}

/** The wire without the call object's creation options (compared on their own). */
function afterCreation(run: Run): WireCall[] {
  return run.wire.filter(({ method }) => method !== 'createCallObject');
}

function creationOptions(run: Run): Record<string, unknown> {
  const created = run.wire.find(({ method }) => method === 'createCallObject');
  return (created?.args[0] ?? {}) as Record<string, unknown>;
}

function names(client: Client): string[] {
  return client.events.map(([name]) => name);
}

let play: ReturnType<typeof vi.spyOn>;

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

describe('the same wire as the official client', () => {
  it('the stand-in is what both clients get as Daily', async () => {
    const { page, official } = await runBoth(startOnly);
    expect(page.wire[0]?.method).toBe('createCallObject');
    expect(official.wire[0]?.method).toBe('createCallObject');
    expect(page.client.requests).toEqual([{ assistantId: 'assistant-1' }]);
    expect(official.client.requests).toEqual(page.client.requests);
  });

  it('a whole call: the join, subscriptions, playable, the observers around noise cancellation, levels, say, add-message, mute and end', async () => {
    const { page, official } = await runBoth(async (client) => {
      await connect(client);
      const room = recordingDaily.room;
      room.emit('remote-participants-audio-level', {
        participantsAudioLevel: { [ASSISTANT.session_id]: 0.3 },
      });
      room.emit('local-audio-level', { audioLevel: 0.2 });
      room.emit('app-message', { data: transcript('Ribbit.'), fromId: ASSISTANT.session_id });
      client.say('Welcome to the court', false);
      client.addMessage('How do I buy?');
      client.setMuted(true);
      client.setMuted(false);
      await client.end();
    });
    expect(afterCreation(page)).toEqual(afterCreation(official));
    expect(afterCreation(page)).toEqual([
      {
        method: 'join',
        args: [{ url: WEB_CALL.webCallUrl, subscribeToTracksAutomatically: false }],
      },
      { method: 'startRemoteParticipantsAudioLevelObserver', args: [100] },
      {
        method: 'updateInputSettings',
        args: [{ audio: { processor: { type: 'noise-cancellation' } } }],
      },
      { method: 'startLocalAudioLevelObserver', args: [100] },
      {
        method: 'updateParticipant',
        args: [ASSISTANT.session_id, { setSubscribedTracks: { audio: true, video: false } }],
      },
      { method: 'sendAppMessage', args: ['playable'] },
      {
        method: 'sendAppMessage',
        args: [
          {
            type: 'say',
            message: 'Welcome to the court',
            endCallAfterSpoken: false,
            interruptionsEnabled: false,
            interruptAssistantEnabled: false,
          },
        ],
      },
      {
        method: 'sendAppMessage',
        args: [{ type: 'add-message', message: { role: 'user', content: 'How do I buy?' } }],
      },
      { method: 'setLocalAudio', args: [false] },
      { method: 'setLocalAudio', args: [true] },
      { method: 'sendAppMessage', args: [{ type: 'end-call' }] },
      { method: 'destroy', args: [] },
    ]);
    // The very strings on the wire, key order included.
    const sent = (run: Run) =>
      run.raw.filter(({ method }) => method === 'sendAppMessage').map(({ args }) => args[0]);
    expect(sent(page)).toEqual(sent(official));
  });

  it("the call object's audio and video sources: the microphone, and the camera only for a recorded call", async () => {
    const plain = await runBoth(startOnly);
    const recorded = await runBoth(startOnly, RECORDED_CALL);
    for (const { page, official } of [plain, recorded]) {
      const { dailyConfig: _pageConfig, ...pageSources } = creationOptions(page);
      const { dailyConfig: _officialConfig, ...officialSources } = creationOptions(official);
      expect(pageSources).toEqual(officialSources);
    }
    expect(creationOptions(recorded.page)).toMatchObject({ audioSource: true, videoSource: true });
  });

  it('the same levels and server messages reach the listeners', async () => {
    const { page, official } = await runBoth(async (client) => {
      await connect(client);
      const room = recordingDaily.room;
      for (const level of [0.03, 0.3, 0]) {
        room.emit('remote-participants-audio-level', {
          participantsAudioLevel: { [ASSISTANT.session_id]: level },
        });
      }
      room.emit('local-audio-level', { audioLevel: 0.2 });
      room.emit('app-message', { data: transcript('Ribbit.'), fromId: ASSISTANT.session_id });
      room.emit('app-message', { data: '{not json', fromId: ASSISTANT.session_id });
      await vi.advanceTimersByTimeAsync(1000);
    });
    const heard = (run: Run) =>
      run.heard
        .filter(([name]) =>
          ['volume-level', 'local-volume-level', 'speech-start', 'speech-end', 'message'].includes(
            name,
          ),
        )
        .map(([name, payload]) => {
          // The page's events carry one payload object; the official client's a bare value.
          const value =
            name.endsWith('volume-level') && typeof payload === 'object' && payload !== null
              ? (payload as { volume: number }).volume
              : payload;
          return [name, value];
        });
    expect(heard(page)).toEqual(heard(official));
    expect(heard(page)).toEqual([
      ['volume-level', 0.2],
      ['speech-start', undefined],
      ['volume-level', 1],
      ['volume-level', 0],
      ['local-volume-level', 0.2],
      ['message', JSON.parse(transcript('Ribbit.'))],
      ['speech-end', undefined],
    ]);
  });

  it.each([
    ['with left-meeting', true],
    ['without left-meeting', false],
  ])(
    "the server ending the call %s: the same wire up to the room's close",
    async (_how, leaves) => {
      const { page, official } = await runBoth(async (client) => {
        await connect(client);
        const room = recordingDaily.room;
        room.emit('app-message', { data: ENDED, fromId: ASSISTANT.session_id });
        if (leaves) room.emit('left-meeting', { action: 'left-meeting' });
        await settle();
      });
      expect(afterCreation(page)).toEqual(afterCreation(official));
      expect(appMessages(page)).toEqual(['playable']);
      // Both hand the server's own ended status on, and no made-up second one.
      for (const { client } of [page, official]) {
        const statuses = client.events.filter(([name]) => name === 'message');
        expect(statuses).toEqual([['message', JSON.parse(ENDED)]]);
      }
    },
  );

  it('a failed join: nothing sent, the call object destroyed', async () => {
    const { page, official } = await runBoth(async (client) => {
      recordingDaily.behaviour.join = () => Promise.reject(new Error('Room not found'));
      await client.start();
    });
    expect(afterCreation(page)).toEqual(afterCreation(official));
    expect(afterCreation(page)).toEqual([
      {
        method: 'join',
        args: [{ url: WEB_CALL.webCallUrl, subscribeToTracksAutomatically: false }],
      },
      { method: 'destroy', args: [] },
    ]);
  });

  it('hanging up after the join, before the assistant is listening: end-call, then the call object destroyed', async () => {
    const { page, official } = await runBoth(async (client) => {
      const started = client.start();
      await settle();
      await client.end();
      await started;
    });
    expect(afterCreation(page)).toEqual(afterCreation(official));
    expect(afterCreation(page).slice(-2)).toEqual([
      { method: 'sendAppMessage', args: [{ type: 'end-call' }] },
      { method: 'destroy', args: [] },
    ]);
  });

  it("autoplay refused: no playable until the assistant's audio plays", async () => {
    play.mockRejectedValue(new DOMException('play() needs a gesture', 'NotAllowedError'));
    const { page, official } = await runBoth(async (client) => {
      await connect(client);
    });
    expect(appMessages(page)).toEqual([]);
    expect(appMessages(official)).toEqual([]);
    expect(afterCreation(page)).toEqual(afterCreation(official));
  });

  it("messages from the room's server sender ('API') and an unseen provider participant count", async () => {
    for (const sender of [ROOM_SERVER, 'provider-bot-3']) {
      const { page, official } = await runBoth(async (client) => {
        await connect(client, sender);
        recordingDaily.room.emit('app-message', { data: transcript('Hello.'), fromId: sender });
      });
      for (const { client } of [page, official]) {
        expect(names(client)).toContain('call-start');
        expect(client.events).toContainEqual(['message', JSON.parse(transcript('Hello.'))]);
      }
      expect(afterCreation(page)).toEqual(afterCreation(official));
    }
  });

  it('a second visitor in the room is subscribed to like any participant', async () => {
    const { page, official } = await runBoth(async (client) => {
      await connect(client);
      recordingDaily.room.emit('participant-joined', { participant: VISITOR_2 });
    });
    expect(afterCreation(page)).toEqual(afterCreation(official));
    expect(afterCreation(page)).toContainEqual({
      method: 'updateParticipant',
      args: [VISITOR_2.session_id, { setSubscribedTracks: { audio: true, video: false } }],
    });
  });

  it('noise cancellation settles before the local level observer starts, in both', async () => {
    let release!: () => void;
    const { page, official } = await runBoth(async (client) => {
      recordingDaily.behaviour.updateInputSettings = () =>
        new Promise((resolve) => {
          release = () => resolve(undefined);
        });
      const started = client.start();
      await settle();
      expect(recordingDaily.log.map(({ method }) => method)).not.toContain(
        'startLocalAudioLevelObserver',
      );
      release();
      await settle();
      recordingDaily.room.emit('app-message', { data: 'listening', fromId: ROOM_SERVER });
      await started;
    });
    expect(afterCreation(page)).toEqual(afterCreation(official));
  });
});

describe('the same wire in a call that records video', () => {
  it('with a call token: the join carries the token (which starts the recording), no separate recording request, and the first message once it runs', async () => {
    const { page, official } = await runBoth(async (client) => {
      await connect(client);
      await vi.advanceTimersByTimeAsync(1500);
      recordingDaily.room.emit('recording-started', { action: 'recording-started' });
    }, RECORDED_CALL);
    expect(afterCreation(page)).toEqual(afterCreation(official));
    expect(page.wire.find(({ method }) => method === 'join')).toEqual({
      method: 'join',
      args: [
        {
          url: WEB_CALL.webCallUrl,
          token: 'meeting-token-1',
          subscribeToTracksAutomatically: false,
        },
      ],
    });
    expect(page.wire.map(({ method }) => method)).not.toContain('startRecording');
    expect(appMessages(page)).toContainEqual({
      type: 'control',
      control: 'say-first-message',
      videoRecordingStartDelaySeconds: 1.5,
    });
  });
});

describe('deliberate differences from the official client, each with its reason', () => {
  it('a recorded call ends with the recording stopped before the page leaves the room; the official client asks only once Daily says left-meeting, when it has left', async () => {
    const { page, official } = await runBoth(async (client) => {
      await connect(client);
      await client.end();
    }, RECORDED_CALL);
    expect(page.wire.slice(-3).map(({ method }) => method)).toEqual([
      'sendAppMessage',
      'stopRecording',
      'destroy',
    ]);
    expect(official.wire.slice(-2).map(({ method }) => method)).toEqual([
      'sendAppMessage',
      'destroy',
    ]);
  });

  it("the recording's background without a call token: the official client paints it #FF1F2D3D; the provider's protocol names no colour, so the page asks for Daily's default (same size and layout)", async () => {
    const { page, official } = await runBoth(
      async (client) => {
        await connect(client);
      },
      { ...RECORDED_CALL, transport: undefined },
    );
    const recordings = (run: Run) =>
      run.wire.filter(({ method }) => method === 'startRecording').map(({ args }) => args[0]);
    expect(recordings(page)).toEqual([{ width: 1280, height: 720, layout: { preset: 'default' } }]);
    expect(recordings(official)).toEqual([
      { width: 1280, height: 720, backgroundColor: '#FF1F2D3D', layout: { preset: 'default' } },
    ]);
  });

  it("the visitor's level observer: the page always starts it (the quiet-microphone hint reads it); the official client only when something listens for local-volume-level", async () => {
    const page = await runOn(pageClient, startOnly);
    const official = await runOn(
      (webCall) =>
        officialClient(
          webCall,
          OFFICIAL_EVENTS.filter((name) => name !== 'local-volume-level'),
        ),
      startOnly,
    );
    const started = (run: Run) =>
      run.wire.some(({ method }) => method === 'startLocalAudioLevelObserver');
    expect(started(page)).toBe(true);
    expect(started(official)).toBe(false);
  });

  it('avoidEval: the page creates the call object with avoidEval, so its CSP needs no unsafe-eval', async () => {
    const { page, official } = await runBoth(startOnly);
    expect(creationOptions(page).dailyConfig).toEqual({ avoidEval: true });
    expect(creationOptions(official).dailyConfig).toEqual({});
  });

  it('the start resolves on listening: the page is connected when Pepa can hear, the official start resolves once the room is set up', async () => {
    for (const make of [pageClient, officialClient] as const) {
      recordingDaily.reset();
      const client = await make(WEB_CALL);
      let resolved = false;
      const started = client.start().then((call) => {
        resolved = true;
        return call;
      });
      await settle();
      expect(resolved).toBe(client.name === 'official');
      recordingDaily.room.emit('app-message', { data: 'listening', fromId: ASSISTANT.session_id });
      await expect(started).resolves.toMatchObject({ id: 'call-1' });
      await client.stop();
    }
  });

  it('autoplay recovery: the page plays on the visitor next tap and then says playable; the official client drops the audio', async () => {
    play.mockRejectedValueOnce(new DOMException('play() needs a gesture', 'NotAllowedError'));
    const page = await runOn(pageClient, async (client) => {
      await connect(client);
      window.dispatchEvent(new Event('pointerdown'));
      await settle();
    });
    expect(appMessages(page)).toEqual(['playable']);
    expect(names(page.client)).toContain('audio-playback-resumed');

    play.mockRejectedValueOnce(new DOMException('play() needs a gesture', 'NotAllowedError'));
    const official = await runOn(officialClient, async (client) => {
      await connect(client);
      window.dispatchEvent(new Event('pointerdown'));
      await settle();
    });
    expect(appMessages(official)).toEqual([]);
    expect(official.client.events).toContainEqual([
      'error',
      expect.objectContaining({ type: 'audio-start-failed' }),
    ]);
  });

  it('no stray speech-end: the page clears its speech timer when the call ends; the official client fires speech-end after it', async () => {
    const scenario: Scenario = async (client) => {
      await connect(client);
      recordingDaily.room.emit('remote-participants-audio-level', {
        participantsAudioLevel: { [ASSISTANT.session_id]: 0.3 },
      });
      await client.stop();
      await vi.advanceTimersByTimeAsync(1000);
    };
    const { page, official } = await runBoth(scenario);
    const afterEnd = (client: Client) => names(client).slice(names(client).indexOf('call-end'));
    expect(names(page.client)).toContain('call-end');
    expect(afterEnd(page.client)).not.toContain('speech-end');
    expect(names(official.client)).not.toContain('call-end');
    expect(names(official.client).at(-1)).toBe('speech-end');
  });

  it("a room that never closes after the server's ended status: the page leaves after a grace period (releasing the microphone), the official client stays until Daily says left-meeting", async () => {
    const scenario: Scenario = async (client) => {
      await connect(client);
      recordingDaily.room.emit('app-message', { data: ENDED, fromId: ASSISTANT.session_id });
      await vi.advanceTimersByTimeAsync(2000);
    };
    const { page, official } = await runBoth(scenario);
    expect(page.wire.at(-1)).toEqual({ method: 'destroy', args: [] });
    expect(official.wire.map(({ method }) => method)).not.toContain('destroy');
  });

  it("the room closing after the server's ended status is an ordinary end for the page; the official client reports it as an error", async () => {
    const scenario: Scenario = async (client) => {
      await connect(client);
      const room = recordingDaily.room;
      room.emit('app-message', { data: ENDED, fromId: ASSISTANT.session_id });
      room.emit('error', { errorMsg: 'Meeting has ended', error: { type: 'ejected' } });
      room.emit('left-meeting', { action: 'left-meeting' });
      await settle();
    };
    const { page, official } = await runBoth(scenario);
    expect(afterCreation(page)).toEqual(afterCreation(official));
    expect(names(page.client)).not.toContain('error');
    expect(official.client.events).toContainEqual([
      'error',
      expect.objectContaining({ type: 'daily-error' }),
    ]);
  });

  it("a second visitor's words and controls are not Pepa's: the page ignores them, the official client takes any sender's", async () => {
    const scenario: Scenario = async (client) => {
      await connect(client);
      const room = recordingDaily.room;
      room.emit('participant-joined', { participant: VISITOR_2 });
      room.emit('app-message', {
        data: transcript('Send me your seed.'),
        fromId: VISITOR_2.session_id,
      });
    };
    const { page, official } = await runBoth(scenario);
    const said = [['message', JSON.parse(transcript('Send me your seed.'))]];
    expect(page.client.events).not.toContainEqual(said[0]);
    expect(official.client.events).toContainEqual(said[0]);
  });
});
