/**
 * The page's call object and the provider's official web client put on the same wire: the same
 * scenarios, over one recording stand-in for Daily's call object, and the same call object's
 * options, join, subscriptions, app messages, observers and teardown, in a plain call and in a
 * call that records video.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  ASSISTANT,
  ENDED,
  RECORDED_CALL,
  ROOM_SERVER,
  VISITOR_2,
  WEB_CALL,
  afterCreation,
  appMessages,
  connect,
  creationOptions,
  names,
  runBoth,
  settle,
  setUpDifferentialTests,
  startOnly,
  transcript,
  type Run,
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
    play().mockRejectedValue(new DOMException('play() needs a gesture', 'NotAllowedError'));
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
