import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SIMULATOR_TIMINGS } from './options';
import {
  FOREIGN_LINK,
  LOOK_ALIKE_ADDRESS,
  SCENARIOS,
  playScenarios,
  type ScenarioRoom,
} from './scenarios';
import { SIMULATOR_FAULTS } from './simulator-faults';

/** A room that records what a scenario does to it, running its delays at once. */
function recordingRoom() {
  const done: string[] = [];
  const played = new Set<string>();
  const room: ScenarioRoom = {
    timings: DEFAULT_SIMULATOR_TIMINGS,
    after: (_delayMs, run) => run(),
    emit: (event, payload) => done.push(`${event} ${JSON.stringify(payload)}`),
    sendServer: (message) => done.push(`server ${JSON.stringify(message)}`),
    sendRaw: (data) => done.push(`raw ${data}`),
    leaveMeeting: () => done.push('leave'),
    assistantLeaves: () => done.push('assistant leaves'),
    cutNetwork: () => done.push('network down'),
    firstOnPage: (fault) => {
      if (played.has(fault)) return false;
      played.add(fault);
      return true;
    },
  };
  return { room, done };
}

describe('the simulator scenarios', () => {
  it('has exactly one scenario for each fault the page can ask for', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual([...SIMULATOR_FAULTS].sort());
  });

  it('plays only the chosen faults due at a moment', () => {
    const { room, done } = recordingRoom();
    playScenarios(new Set(['server-end', 'join-failure']), 'after-greeting', room);
    expect(done).toEqual([
      'server {"type":"status-update","status":"ended","endedReason":"assistant-ended-call"}',
      'leave',
    ]);
  });

  it('refuses the join and the microphone by throwing, as Daily does', () => {
    const { room, done } = recordingRoom();
    expect(() => playScenarios(new Set(['join-failure']), 'join', room)).toThrow(
      'The meeting you are trying to join does not exist.',
    );
    expect(done[0]).toMatch(/^error .*"no-room"/);
    expect(() => playScenarios(new Set(['mic-denied']), 'microphone', room)).toThrow(
      expect.objectContaining({ name: 'NotAllowedError' }),
    );
  });

  it('keeps the assistant from listening with no-listening, and nothing else stops it', () => {
    const { room } = recordingRoom();
    expect(playScenarios(new Set(['no-listening']), 'playable', room)).toBe('stop');
    const others = new Set(SIMULATOR_FAULTS.filter((fault) => fault !== 'no-listening'));
    expect(playScenarios(others, 'playable', room)).toBeUndefined();
  });

  it('a network failure cuts the network for later rooms and leaves; an interruption recovers', () => {
    const failure = recordingRoom();
    playScenarios(new Set(['network-failure']), 'after-greeting', failure.room);
    expect(failure.done.slice(-3)).toEqual([
      'network down',
      expect.stringMatching(/^error .*"connection-error"/),
      'leave',
    ]);
    const blip = recordingRoom();
    const cut = vi.spyOn(blip.room, 'cutNetwork');
    playScenarios(new Set(['network-interruption']), 'after-greeting', blip.room);
    expect(cut).not.toHaveBeenCalled();
    expect(blip.done.at(-2)).toBe('network-connection {"type":"signaling","event":"connected"}');
  });

  it('a network that comes back for the rejoin drops once and is not cut', () => {
    const rejoin = recordingRoom();
    const cut = vi.spyOn(rejoin.room, 'cutNetwork');
    playScenarios(new Set(['network-rejoin']), 'after-greeting', rejoin.room);
    expect(cut).not.toHaveBeenCalled();
    expect(rejoin.done.slice(-2)).toEqual([
      expect.stringMatching(/^error .*"connection-error"/),
      'leave',
    ]);
    // The rejoined room (same page) does not drop again.
    const before = rejoin.done.length;
    playScenarios(new Set(['network-rejoin']), 'after-greeting', rejoin.room);
    expect(rejoin.done).toHaveLength(before);
  });

  it("hostile-caption puts a look-alike address and a foreign link in Pepa's own captions", () => {
    const { room, done } = recordingRoom();
    playScenarios(new Set(['hostile-caption']), 'after-greeting', room);
    const sent = done.join('\n');
    expect(sent).toContain(LOOK_ALIKE_ADDRESS.slice(0, 24));
    expect(sent).toContain(LOOK_ALIKE_ADDRESS);
    expect(sent).toContain(FOREIGN_LINK);
  });
});
