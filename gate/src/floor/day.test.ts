import { describe, expect, it } from 'vitest';
import { DAY_MS, nextUtcMidnight, secondsToNextUtcDay, secondsUntil, utcDay } from './day';

const at = (iso: string) => Date.parse(iso);

describe('the gate’s day', () => {
  it('is the UTC day, whatever the offset an instant was written with', () => {
    expect(utcDay(at('2026-03-31T23:59:59.999Z'))).toBe('2026-03-31');
    expect(utcDay(at('2026-04-01T00:00:00.000Z'))).toBe('2026-04-01');
    expect(utcDay(at('2026-04-01T01:30:00+02:00'))).toBe('2026-03-31');
    expect(utcDay(at('2026-04-01T12:00:00Z') - DAY_MS)).toBe('2026-03-31');
  });

  it('ends at the next UTC midnight, across a month’s and a year’s end', () => {
    expect(nextUtcMidnight(at('2026-02-28T08:00:00Z'))).toBe(at('2026-03-01T00:00:00Z'));
    expect(nextUtcMidnight(at('2026-12-31T23:59:59.999Z'))).toBe(at('2027-01-01T00:00:00Z'));
    expect(nextUtcMidnight(at('2026-07-04T00:00:00Z'))).toBe(at('2026-07-05T00:00:00Z'));
  });

  it('counts the seconds to the next day up, and never fewer than one', () => {
    expect(secondsToNextUtcDay(at('2026-07-04T00:00:00Z'))).toBe(86_400);
    expect(secondsToNextUtcDay(at('2026-07-04T23:59:58.200Z'))).toBe(2);
    expect(secondsToNextUtcDay(at('2026-07-04T23:59:59.999Z'))).toBe(1);
  });

  it('counts a refusal’s seconds up, never fewer than one, even for a moment already past', () => {
    const now = at('2026-07-04T12:00:00Z');
    expect(secondsUntil(now + 60_000, now)).toBe(60);
    expect(secondsUntil(now + 59_001, now)).toBe(60);
    expect(secondsUntil(now + 1, now)).toBe(1);
    expect(secondsUntil(now, now)).toBe(1);
    expect(secondsUntil(now - 5_000, now)).toBe(1);
  });
});
