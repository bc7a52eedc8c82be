import { afterEach, describe, expect, it, vi } from 'vitest';
import { JOIN_BACKSTOP_SECONDS as COURT_JOIN_BACKSTOP } from '../../gate/src/floor/court-limits';
import {
  JOIN_BACKSTOP_SECONDS,
  JOIN_DELAY_MS,
  microphoneDay,
  microphoneHeld,
} from './surge-microphones.mjs';

const admittedAnswer = (id: string, waitedMs = 0) => ({
  status: 201,
  retryAfter: 1,
  body: { call: { id, webCallUrl: `https://pepa-demo.daily.co/${id}` }, callSecret: `s-${id}` },
  ms: waitedMs,
  waitedMs,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the surge’s failed microphones', () => {
  it('joins the room of each call admitted, but never one whose visitor’s microphone failed', async () => {
    vi.useFakeTimers();
    const joined: string[] = [];
    const calls: [string, string, unknown][] = [];
    const day = microphoneDay({
      share: 1,
      keepShare: 0,
      random: () => 0,
      sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
      call: (method, path, request) => {
        calls.push([method, path, request?.headers]);
        return Promise.resolve({ status: 204, retryAfter: 1, body: null, ms: 5, waitedMs: 5 });
      },
      joinRoom: (url) => {
        joined.push(url);
        return true;
      },
    });
    day.heard(admittedAnswer('works'));
    const failed = admittedAnswer('fails');
    day.heard(failed);
    expect(day.draw()).toBe('gives-back');
    day.admitted('gives-back', failed, '10.0.0.1');
    // Not before the microphone has failed (300 ms after the start): then, with the call's secret.
    await vi.advanceTimersByTimeAsync(250);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    await day.settled();
    expect(calls).toEqual([['DELETE', '/api/calls/fails', { 'call-secret': 's-fails' }]]);
    await vi.advanceTimersByTimeAsync(JOIN_DELAY_MS);
    expect(joined).toEqual(['https://pepa-demo.daily.co/works']);
    expect(day.records).toMatchObject({ visitors: 1, givesBack: 1, keeps: 0 });
    const [place] = day.records.givenBack;
    expect(place).toMatchObject({ callId: 'fails', status: 204 });
    expect(place && place.failedAt - place.askedAt).toBe(300);
  });

  it('keeps the place of a page that never gives it back, and draws none when the share is 0', () => {
    const draws = [0.1, 0.2];
    const call = vi.fn();
    const day = microphoneDay({
      share: 0.5,
      keepShare: 0.5,
      random: () => draws.shift() ?? 0.9,
      sleep: () => Promise.resolve(),
      call,
      joinRoom: () => true,
    });
    expect(day.draw()).toBe('keeps');
    day.admitted('keeps', admittedAnswer('kept'), '10.0.0.2');
    expect(day.draw()).toBeNull();
    expect(call).not.toHaveBeenCalled();
    expect(day.records.kept).toEqual([{ callId: 'kept', askedAt: expect.any(Number) }]);
    const none = microphoneDay({
      share: 0,
      keepShare: 0,
      random: () => 0,
      sleep: () => Promise.resolve(),
      call,
      joinRoom: () => true,
    });
    expect(none.draw()).toBeNull();
  });

  it('measures the seconds held: to the give-back, to the gate told the call ended, or to the join backstop', () => {
    const records = {
      visitors: 4,
      givesBack: 2,
      keeps: 2,
      givenBack: [
        // Admitted at 100 ms, the microphone failed at 300 ms, given back at 400 ms.
        { callId: 'a', askedAt: 0, answeredAt: 100, failedAt: 300, freedAt: 400, status: 204 },
        // The microphone failed before the admission came.
        { callId: 'b', askedAt: 0, answeredAt: 1000, failedAt: 300, freedAt: 1200, status: 404 },
      ],
      kept: [
        { callId: 'c', askedAt: 1000 },
        { callId: 'd', askedAt: 1000 },
      ],
    };
    const calls = new Map([
      ['c', { startedAt: 1100, messagesLost: false, gateToldAt: 21_300 }],
      ['d', { startedAt: 1100, messagesLost: true, gateToldAt: null }],
    ]);
    const held = microphoneHeld(records, calls, { joinBackstopS: 30, sweepS: 1 });
    expect(held.givenBack).toMatchObject({ count: 2, p50: 0.4, max: 1.2 });
    expect(held.givenBack.sum).toBeCloseTo(1.6, 9);
    expect(held.givenBackAfterFailure.max).toBeCloseTo(0.2, 9);
    expect(held.givenBackAfterFailure.p50).toBeCloseTo(0.1, 9);
    expect(held.refusedGiveBacks).toBe(1);
    expect(held.kept).toMatchObject({ count: 2, p50: 20.3, max: 31.1 });
    expect(held.kept.sum).toBeCloseTo(51.4, 9);
    expect(held.keptByBackstop).toBe(1);
  });

  it('takes the court’s own join backstop', () => {
    expect(JOIN_BACKSTOP_SECONDS).toBe(COURT_JOIN_BACKSTOP);
  });
});
