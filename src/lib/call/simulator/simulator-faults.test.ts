import { describe, expect, it } from 'vitest';
import { parseSimulatorFaults } from './simulator-faults';

describe('parseSimulatorFaults', () => {
  it('reads one fault, a comma list and repeated parameters', () => {
    expect(parseSimulatorFaults('?sim=join-failure')).toEqual(['join-failure']);
    expect(parseSimulatorFaults('?sim=ejection,malformed-message')).toEqual([
      'ejection',
      'malformed-message',
    ]);
    expect(parseSimulatorFaults('sim=server-end&x=1&sim=no-listening')).toEqual([
      'server-end',
      'no-listening',
    ]);
  });

  it('ignores unknown names, other parameters and repeats', () => {
    expect(parseSimulatorFaults('?sim=frogs,ejection&sim=ejection&other=join-failure')).toEqual([
      'ejection',
    ]);
    expect(parseSimulatorFaults('')).toEqual([]);
  });
});
