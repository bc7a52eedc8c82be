import { describe, expect, it } from 'vitest';
import { dayClock, dayFailures, dayOptions, hourRows } from './surge-day.mjs';

const REAL_START = Date.UTC(2026, 11, 2, 21, 30, 5);
const DAY = Date.UTC(2026, 11, 2);
const at = (hours: number, minutes = 0) => DAY + (hours * 60 + minutes) * 60_000;

describe('the surge’s simulated day', () => {
  const options = dayOptions({ SURGE_DAY: 'on', SURGE_DAY_SECONDS: '240' });
  const clock = dayClock(options, { arrivalMs: 60_000, timeScale: 10, realStartMs: REAL_START });

  it('plays the viral minute at the calls’ pace and the rest of its day in the time given', () => {
    expect(clock.simAt(REAL_START)).toBe(at(0));
    // 60 s of arrivals and 10 s more at ten times: 00:11:40.
    expect(clock.simAt(REAL_START + 70_000)).toBe(at(0, 11) + 40_000);
    expect(clock.simAt(REAL_START + 70_000 + 240_000)).toBe(at(24) - 1);
    expect(clock.fast).toBe(Math.ceil((at(24) - at(0, 11) - 40_000) / 240_000));
  });

  it('gives the gate the same clock, in the form GATE_PACE_CLOCK reads (court-pace.test.ts)', () => {
    expect(clock.setting).toBe(`2026-12-02T00:00:00.000Z@${REAL_START} 10:70 ${clock.fast}`);
  });

  it('starts the viral minute at the simulated time asked, and refuses one that is not a time', () => {
    const noon = dayClock(dayOptions({ SURGE_DAY_START: '12:30' }), {
      arrivalMs: 60_000,
      timeScale: 10,
      realStartMs: REAL_START,
    });
    expect(noon.simAt(REAL_START)).toBe(at(12, 30));
  });

  it('sets each simulated hour’s spend against what the pace had released by its end', () => {
    const rows = hourRows({
      cap: 24,
      releases: 24,
      burstShares: 1,
      hoursSpent: [1.5, 0.9, 1.2],
      arrivals: [
        { simAt: at(0, 5), asked: true, heard: true, fast: true },
        { simAt: at(1, 5), asked: true, heard: false, fast: false },
        { simAt: at(1, 6), asked: false, heard: false, fast: false },
      ],
      told: [
        { simAt: at(1, 10), code: 'court-resting' },
        { simAt: at(1, 11), code: 'court-resting' },
      ],
      callsAt: [at(0, 7), at(2, 1)],
    });
    expect(rows).toHaveLength(24);
    expect(rows[0]).toMatchObject({
      releasedBy: 2,
      spent: 1.5,
      spentBy: 1.5,
      arrived: 1,
      heard: 1,
    });
    expect(rows[1]).toMatchObject({ releasedBy: 3, spentBy: 2.4, arrived: 2, asked: 1, heard: 0 });
    expect(rows[1]?.told).toEqual({ 'court-resting': 2, 'court-closed': 0, 'court-full': 0 });
    expect(rows[2]).toMatchObject({ spentBy: 3.6, calls: 1 });
    expect(rows[23]?.releasedBy).toBe(24);
  });

  it('fails a day that said closed in the viral minute, passed the pace, or served nobody later', () => {
    const row = (hour: number, spentBy: number, asked: number, heard: number) => ({
      hour,
      releasedBy: hour + 2,
      spent: 0,
      spentBy,
      arrived: asked,
      asked,
      heard,
      fast: heard,
      calls: 0,
      told: {},
    });
    expect(
      dayFailures([row(0, 2, 100, 30), row(1, 2.5, 20, 4)], { closedInViral: 0, viralHour: 0 }),
    ).toEqual([]);
    expect(
      dayFailures([row(0, 2.5, 100, 30), row(1, 2.5, 20, 0)], { closedInViral: 3, viralHour: 0 }),
    ).toEqual([
      '3 visitors were told the court is closed during the viral minute',
      'by 00:59 $2.50 was spent, past the $2.00 the pace had released',
      'none of the 20 visitors who asked in the hour 01 heard Pepa',
    ]);
  });
});
