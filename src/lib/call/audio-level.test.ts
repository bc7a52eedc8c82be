import { describe, expect, it } from 'vitest';
import { isSpeakingLevel, sumLevels, volumeFromLevel } from './audio-level';

describe('audio level math', () => {
  it('sums the levels of every remote participant, ignoring nonsense values', () => {
    expect(sumLevels({ a: 0.1, b: 0.05 })).toBeCloseTo(0.15);
    expect(sumLevels({ a: Number.NaN, b: -1, c: 0.02 })).toBe(0.02);
    expect(sumLevels({})).toBe(0);
  });

  it('maps a summed level of 0.15 or more to full volume', () => {
    expect(volumeFromLevel(0)).toBe(0);
    expect(volumeFromLevel(0.075)).toBeCloseTo(0.5);
    expect(volumeFromLevel(0.15)).toBe(1);
    expect(volumeFromLevel(0.9)).toBe(1);
  });

  it('counts as speaking only strictly above 0.01', () => {
    expect(isSpeakingLevel(0.01)).toBe(false);
    expect(isSpeakingLevel(0.0101)).toBe(true);
  });
});
