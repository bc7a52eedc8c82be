import { ASSISTANT_PARTICIPANT_NAME } from '../daily-payloads';
import type { DailyLikeEventName, DailyLikeEvents, DailyLikeParticipant } from '../daily-types';
import type { SimulatorTimings } from './options';
import type { SimulatorFault } from './simulator-faults';

/** Where in a room's life a fault plays. */
export type Moment = 'microphone' | 'join' | 'playable' | 'after-greeting';

/** What a scenario may do to the room. */
export interface ScenarioRoom {
  readonly timings: SimulatorTimings;
  after(delayMs: number, run: () => void): void;
  emit<E extends DailyLikeEventName>(event: E, payload: DailyLikeEvents[E]): void;
  sendServer(message: Record<string, unknown>): void;
  /** The assistant's app message, raw (it may be malformed). */
  sendRaw(data: string): void;
  /**
   * The visitor's side leaves the room. `callGoesOn`: the connection dropped and the page will
   * rejoin, so the provider is not told the visitor left (its call goes on).
   */
  leaveMeeting(options?: { callGoesOn?: boolean }): void;
  /** The assistant leaves while the room stays open. */
  assistantLeaves(): void;
  /** The page's network goes down for good: later rooms cannot join either. */
  cutNetwork(): void;
  /** True the first time a fault asks on this page (the rooms of a page share it), then false. */
  firstOnPage(fault: SimulatorFault): boolean;
}

/**
 * One fault: when it plays and what it does. At `microphone` and `join` it refuses by throwing,
 * as Daily does; at `playable` returning `'stop'` keeps the assistant from ever listening. A
 * microphone fault needs no room: the page may open the microphone before any room exists.
 */
export type Scenario =
  | { moment: 'microphone'; play(): void }
  | { moment: Exclude<Moment, 'microphone'>; play(room: ScenarioRoom): 'stop' | void };

/** A participant who is not the provider's, for the `intruder` fault. */
export const INTRUDER: DailyLikeParticipant = {
  session_id: 'sim-intruder',
  user_name: ASSISTANT_PARTICIPANT_NAME,
  local: false,
};

const NO_ROOM = 'The meeting you are trying to join does not exist.';
const EJECTED = 'You were removed from the meeting';
const CONNECTION_LOST = 'The connection to the meeting was lost';

/** A Solana-looking address that is not the token's, for the `hostile-caption` fault. */
export const LOOK_ALIKE_ADDRESS = 'PEPAx9kFjWq3TzR8vB2nYh5sLmC4dGtE7aUoXiKpZpump';
/** A link that is not the site's, for the `hostile-caption` fault. */
export const FOREIGN_LINK = 'https://pepa-airdrop.xyz/claim';

/**
 * The connection drops after the greeting. `recovers`: it comes back by itself; `lost`: Daily
 * gives up and the network stays down; `rejoins`: Daily gives up, the network is back for a
 * rejoin (once per page, so the rejoined room does not drop again).
 */
function networkDrop(outcome: 'recovers' | 'lost' | 'rejoins'): Scenario {
  const fatal = outcome !== 'recovers';
  return {
    moment: 'after-greeting',
    play(room) {
      if (outcome === 'rejoins' && !room.firstOnPage('network-rejoin')) return;
      room.after(room.timings.faultDelayMs, () => {
        room.emit('network-connection', { type: 'signaling', event: 'interrupted' });
        room.emit('network-quality-change', {
          networkState: 'bad',
          networkStateReasons: ['recvPacketLoss'],
        });
        room.after(room.timings.networkOutageMs, () => {
          if (fatal) {
            if (outcome === 'lost') room.cutNetwork();
            room.emit('error', {
              errorMsg: CONNECTION_LOST,
              error: { type: 'connection-error', msg: CONNECTION_LOST },
            });
            // Lost for good, the provider ends the call (the visitor is gone); a connection that
            // comes back rejoins the same call, which the provider keeps meanwhile.
            room.leaveMeeting({ callGoesOn: outcome === 'rejoins' });
            return;
          }
          room.emit('network-connection', { type: 'signaling', event: 'connected' });
          room.emit('network-quality-change', { networkState: 'good', networkStateReasons: [] });
        });
      });
    },
  };
}

/** Every fault of `SIMULATOR_FAULTS`, as data: the room asks for the ones due at each moment. */
export const SCENARIOS: Readonly<Record<SimulatorFault, Scenario>> = {
  'mic-denied': {
    moment: 'microphone',
    play() {
      throw new DOMException('Permission denied', 'NotAllowedError');
    },
  },
  'join-failure': {
    moment: 'join',
    play(room) {
      room.emit('error', { errorMsg: NO_ROOM, error: { type: 'no-room', msg: NO_ROOM } });
      throw new Error(NO_ROOM);
    },
  },
  'no-listening': { moment: 'playable', play: () => 'stop' },
  'malformed-message': {
    moment: 'after-greeting',
    play(room) {
      room.after(room.timings.faultDelayMs / 2, () => room.sendRaw('{"type":"transcript",'));
    },
  },
  'server-end': {
    moment: 'after-greeting',
    play(room) {
      room.after(room.timings.faultDelayMs, () => {
        room.sendServer({
          type: 'status-update',
          status: 'ended',
          endedReason: 'assistant-ended-call',
        });
        room.after(room.timings.leaveMs, () => room.leaveMeeting());
      });
    },
  },
  'assistant-leaves': {
    moment: 'after-greeting',
    play(room) {
      room.after(room.timings.faultDelayMs, () => room.assistantLeaves());
    },
  },
  intruder: {
    moment: 'after-greeting',
    play(room) {
      room.after(room.timings.faultDelayMs, () => {
        room.emit('participant-joined', { participant: INTRUDER });
        const posing = {
          type: 'transcript',
          role: 'assistant',
          transcriptType: 'final',
          transcript: 'Verify your wallet: send me your seed phrase.',
        };
        room.emit('app-message', { data: JSON.stringify(posing), fromId: INTRUDER.session_id });
      });
    },
  },
  'hostile-caption': {
    moment: 'after-greeting',
    play(room) {
      const line = `The contract is ${LOOK_ALIKE_ADDRESS}, claim your airdrop at ${FOREIGN_LINK} now!`;
      const caption = (transcriptType: 'partial' | 'final', transcript: string) =>
        room.sendServer({ type: 'transcript', role: 'assistant', transcriptType, transcript });
      room.after(room.timings.faultDelayMs / 2, () => {
        caption('partial', `The contract is ${LOOK_ALIKE_ADDRESS.slice(0, 24)}`);
        room.after(room.timings.faultDelayMs / 4, () => caption('final', line));
      });
    },
  },
  ejection: {
    moment: 'after-greeting',
    play(room) {
      room.after(room.timings.faultDelayMs, () => {
        room.emit('error', { errorMsg: EJECTED, error: { type: 'ejected', msg: EJECTED } });
        room.leaveMeeting();
      });
    },
  },
  'network-interruption': networkDrop('recovers'),
  'network-failure': networkDrop('lost'),
  'network-rejoin': networkDrop('rejoins'),
};

/**
 * Plays the chosen faults due at `moment`, in the table's order. Returns
 * `'stop'` when one of them stops the step.
 */
export function playScenarios(
  faults: ReadonlySet<SimulatorFault>,
  moment: Moment,
  room: ScenarioRoom,
): 'stop' | undefined {
  let outcome: 'stop' | undefined;
  for (const [fault, scenario] of Object.entries(SCENARIOS) as [SimulatorFault, Scenario][]) {
    if (scenario.moment !== moment || !faults.has(fault)) continue;
    if (scenario.moment === 'microphone') scenario.play();
    else if (scenario.play(room) === 'stop') outcome = 'stop';
  }
  return outcome;
}

/** Plays the chosen microphone faults (a refused microphone throws, as the browser does). */
export function playMicrophoneScenarios(faults: ReadonlySet<SimulatorFault>): void {
  for (const [fault, scenario] of Object.entries(SCENARIOS) as [SimulatorFault, Scenario][]) {
    if (scenario.moment === 'microphone' && faults.has(fault)) scenario.play();
  }
}
