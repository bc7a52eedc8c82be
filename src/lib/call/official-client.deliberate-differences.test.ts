/**
 * Every place where the page's call object deliberately does otherwise than the provider's
 * official web client, one named test each, with its reason, so an upgrade of the official client
 * shows what changed.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  ASSISTANT,
  ENDED,
  OFFICIAL_EVENTS,
  RECORDED_CALL,
  VISITOR_2,
  WEB_CALL,
  afterCreation,
  appMessages,
  connect,
  creationOptions,
  names,
  officialClient,
  pageClient,
  runBoth,
  runOn,
  settle,
  setUpDifferentialTests,
  startOnly,
  transcript,
  type Client,
  type Run,
  type Scenario,
} from './test/official-client-oracle';
import { recordingDaily } from './test/recording-daily';

// The page's call object loads `@daily-co/daily-js`; the official client imports its own copy,
// nested under its package. Both resolve to the one recording stand-in.
vi.mock('@daily-co/daily-js', async () => ({
  default: (await import('./test/recording-daily')).recordingDaily,
}));
vi.mock('../../../node_modules/@vapi-ai/web/node_modules/@daily-co/daily-js', async () => ({
  default: (await import('./test/recording-daily')).recordingDaily,
}));

const play = setUpDifferentialTests();

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
    play().mockRejectedValueOnce(new DOMException('play() needs a gesture', 'NotAllowedError'));
    const page = await runOn(pageClient, async (client) => {
      await connect(client);
      window.dispatchEvent(new Event('pointerdown'));
      await settle();
    });
    expect(appMessages(page)).toEqual(['playable']);
    expect(names(page.client)).toContain('audio-playback-resumed');

    play().mockRejectedValueOnce(new DOMException('play() needs a gesture', 'NotAllowedError'));
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
