/**
 * What the tests of the simulated room under the call object share: the call over a simulated
 * room (with its fake voice and microphone), and the events a start, a greeting and the visitor's
 * hang-up make. The persona is each test file's: the library's test kit reads no site
 * configuration.
 */
import { START_TIME, createHarness, type Recorded } from '../../test/call-harness';
import {
  createSimulatorFactory,
  type SimulatorOptions,
  type SimulatorPersona,
} from '../room-simulator';
import { createFakeAudio, createFakeGetUserMedia } from './simulator-fakes';

export const message = (payload: Record<string, unknown>): Recorded => ['message', payload];

export const ENDED_BY_VISITOR = message({
  type: 'status-update',
  status: 'ended',
  endedReason: 'customer-ended-call',
});

export const START: Recorded[] = [
  'state:starting',
  'progress:web-call-creation:started',
  'progress:web-call-creation:completed',
  'progress:call-object-creation:started',
  'progress:call-object-creation:completed',
  'progress:join:started',
  'progress:join:completed',
  // The room's set-up, beside the wait for the assistant.
  'progress:audio-observer-setup:started',
  'progress:assistant-ready:started',
  'progress:audio-observer-setup:completed',
  'progress:audio-processing-setup:started',
  'progress:audio-processing-setup:completed',
  'progress:audio-observer-setup:started',
  'progress:audio-observer-setup:completed',
  // The room reports a good connection once joined, as Daily does.
  ['network-quality-change', { state: 'good', reasons: [] }],
  [
    'daily-participant-updated',
    {
      sessionId: 'sim-assistant',
      userName: 'Vapi Speaker',
      local: false,
      audioState: 'playable',
      videoState: undefined,
    },
  ],
  'progress:assistant-ready:completed',
  ['call-start-success', { callId: 'call-1', totalDurationMs: 800, timestamp: START_TIME + 800 }],
  'state:started',
  'call-start',
];

const GREETING_PARTIAL = "Ribbit! Welcome to my court. I'm";

/** The call over a simulated room playing `persona`, and the events a greeting makes there. */
export function simulatorKit(persona: SimulatorPersona) {
  function setup(options: Partial<SimulatorOptions> = {}) {
    const voice = createFakeAudio();
    const microphone = createFakeGetUserMedia();
    const createDailyCall = createSimulatorFactory({
      persona,
      audio: voice.factory,
      getUserMedia: microphone.getUserMedia,
      ...options,
    });
    const h = createHarness({ createDailyCall });
    const quiet = (): Recorded[] =>
      h.events.filter(
        (event) =>
          !Array.isArray(event) ||
          (event[0] !== 'volume-level' && event[0] !== 'local-volume-level'),
      );
    return { h, voice, microphone, quiet };
  }

  /** Everything after call-start of a greeting that runs to the end, with levels left out. */
  const GREETING: Recorded[] = [
    message({ type: 'speech-update', status: 'started', role: 'assistant', turn: 1 }),
    'speech-start',
    message({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'partial',
      transcript: GREETING_PARTIAL,
    }),
    message({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: persona.firstMessage,
    }),
    message({ type: 'speech-update', status: 'stopped', role: 'assistant', turn: 1 }),
    message({
      type: 'conversation-update',
      messages: [{ role: 'assistant', message: persona.firstMessage }],
    }),
    'speech-end',
  ];

  return { setup, GREETING };
}
