import { describe, expect, it } from 'vitest';
import { isRecord } from './is-record';

describe('isRecord', () => {
  it('accepts objects whose fields can be read by name', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ mic: { deviceId: 'a' } })).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
  });

  it('refuses null, arrays and primitives', () => {
    for (const value of [null, undefined, [], [{}], 'text', 0, true]) {
      expect(isRecord(value)).toBe(false);
    }
  });
});
