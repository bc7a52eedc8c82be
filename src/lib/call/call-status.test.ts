import { describe, expect, it } from 'vitest';
import type { CallState } from './call-events';
import {
  CallStatusMachine,
  IllegalTransitionError,
  LEGAL_TRANSITIONS,
  canTransition,
  type CallStatus,
} from './call-status';

const SAMPLE: Record<CallState, CallStatus> = {
  idle: { kind: 'idle' },
  starting: { kind: 'starting', stage: 'join' },
  started: { kind: 'started' },
  reconnecting: { kind: 'reconnecting', rejoining: false },
  ending: { kind: 'ending' },
};
const KINDS = Object.keys(SAMPLE) as CallState[];

/** Walks a machine from idle along `path`, returning the public state changes it reported. */
function walk(path: CallStatus[]) {
  const changes: string[] = [];
  const machine = new CallStatusMachine((state, previous) => changes.push(`${previous}>${state}`));
  for (const status of path) machine.to(status);
  return { machine, changes };
}

describe('the call status', () => {
  it('walks every legal life: a failed start, a call, a blip, a rejoin', () => {
    const starting = (stage: 'web-call-creation' | 'join') =>
      ({ kind: 'starting', stage }) as const;
    expect(
      walk([starting('web-call-creation'), starting('join'), SAMPLE.ending, SAMPLE.idle]).changes,
    ).toEqual(['idle>starting', 'starting>ending', 'ending>idle']);
    expect(
      walk([
        starting('web-call-creation'),
        SAMPLE.started,
        { kind: 'reconnecting', rejoining: false },
        SAMPLE.started,
        { kind: 'reconnecting', rejoining: false },
        { kind: 'reconnecting', rejoining: true },
        SAMPLE.started,
        SAMPLE.ending,
        SAMPLE.idle,
      ]).changes,
    ).toEqual([
      'idle>starting',
      'starting>started',
      'started>reconnecting',
      'reconnecting>started',
      'started>reconnecting',
      'reconnecting>started',
      'started>ending',
      'ending>idle',
    ]);
  });

  it.each(KINDS.flatMap((from) => KINDS.map((to) => [from, to] as const)))(
    '%s -> %s is allowed exactly when the table lists it',
    (from, to) => {
      const legal = LEGAL_TRANSITIONS[from].includes(to);
      expect(canTransition(SAMPLE[from], SAMPLE[to])).toBe(legal);
    },
  );

  it('refuses an illegal transition and keeps its status', () => {
    const { machine, changes } = walk([SAMPLE.starting, SAMPLE.started]);
    for (const illegal of [SAMPLE.idle, SAMPLE.starting] as CallStatus[]) {
      expect(() => machine.to(illegal)).toThrow(IllegalTransitionError);
    }
    expect(() => machine.to(SAMPLE.idle)).toThrow('A call cannot go from "started" to "idle"');
    expect(machine.status).toEqual(SAMPLE.started);
    expect(changes).toEqual(['idle>starting', 'starting>started']);
  });

  it('never lets a call skip its ending: nothing but ending leads to idle', () => {
    const toIdle = KINDS.filter((from) => LEGAL_TRANSITIONS[from].includes('idle'));
    expect(toIdle).toEqual(['ending']);
  });
});
