import { describe, expect, it } from 'vitest';
import { cpuSlowdown } from './cpu-slowdown.mjs';

describe('the suite CPU slowdown (E2E_CPU_SLOWDOWN)', () => {
  it('runs at full speed when unset or blank', () => {
    expect(cpuSlowdown(undefined)).toBe(1);
    expect(cpuSlowdown('')).toBe(1);
    expect(cpuSlowdown('  ')).toBe(1);
  });

  it('takes a rate from 1 to 20, fractions too', () => {
    expect(cpuSlowdown('4')).toBe(4);
    expect(cpuSlowdown('1')).toBe(1);
    expect(cpuSlowdown('2.5')).toBe(2.5);
    expect(cpuSlowdown('20')).toBe(20);
  });

  it('refuses anything else by name, rather than running at full speed', () => {
    for (const bad of ['four', '0.5', '0', '-4', '21', 'Infinity', 'NaN']) {
      expect(() => cpuSlowdown(bad)).toThrow(/E2E_CPU_SLOWDOWN must be a number from 1 to 20/);
    }
  });
});
