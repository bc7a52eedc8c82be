import { describe, expect, it } from 'vitest';
import type { CallError } from '../../../lib/call';
import {
  backText,
  BACKOFF_MAX_MS,
  BUSY_DEFAULT_WAIT_MS,
  FAILURE_REASONS,
  FULL_DEFAULT_WAIT_MS,
  cooldownMs,
  describeStartFailure,
} from './start-failure';

const http = (status: number, retryAfterMs?: number): CallError => ({
  type: 'web-call-creation-error',
  kind: 'http',
  status,
  message: `HTTP ${status}`,
  ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
});

describe('describeStartFailure', () => {
  it('keeps the microphone toast where the microphone is or may be the cause', () => {
    expect(
      describeStartFailure({ type: 'microphone-permission-denied', message: 'denied' }),
    ).toEqual({ microphoneToast: true, reason: null, retryAfterMs: null });
    expect(describeStartFailure({ type: 'daily-call-join-error', message: 'x' })).toMatchObject({
      microphoneToast: true,
      reason: FAILURE_REASONS.join,
    });
  });

  it('says a missing microphone is missing, without the permissions toast', () => {
    expect(describeStartFailure({ type: 'microphone-missing', message: 'none' })).toEqual({
      microphoneToast: false,
      reason: FAILURE_REASONS.noMicrophone,
      retryAfterMs: null,
    });
  });

  it.each([
    [http(401), FAILURE_REASONS.keyRefused],
    [http(403), FAILURE_REASONS.keyRefused],
    [http(500), FAILURE_REASONS.provider],
    [http(400), FAILURE_REASONS.provider],
    [
      { type: 'web-call-creation-error', kind: 'network', message: 'offline' } as CallError,
      FAILURE_REASONS.network,
    ],
    [
      { type: 'room-url-refused', reason: 'host-not-allowed', message: 'x' } as CallError,
      FAILURE_REASONS.room,
    ],
    [
      { type: 'daily-call-object-creation-error', message: 'chunk' } as CallError,
      FAILURE_REASONS.chunk,
    ],
    [
      { type: 'start-timeout', timeoutMs: 20_000, message: 'late' } as CallError,
      FAILURE_REASONS.timeout,
    ],
    [{ type: 'reconnect-error', message: 'lost' } as CallError, FAILURE_REASONS.connectionLost],
  ])('says its own reason, without blaming the microphone: %#', (error, reason) => {
    expect(describeStartFailure(error)).toEqual({
      microphoneToast: false,
      reason,
      retryAfterMs: null,
    });
  });

  it('says the provider is busy and carries its Retry-After for 429 and 503', () => {
    expect(describeStartFailure(http(429, 7000))).toEqual({
      microphoneToast: false,
      reason: FAILURE_REASONS.busy,
      retryAfterMs: 7000,
    });
    // Unreadable (not exposed to the page): a busy provider still gets a pause.
    expect(describeStartFailure(http(503))).toMatchObject({ retryAfterMs: BUSY_DEFAULT_WAIT_MS });
  });
});

describe('cooldownMs', () => {
  it('waits for Retry-After, and backs off after repeated failures', () => {
    expect(cooldownMs(1, null)).toBe(0);
    expect(cooldownMs(1, 5000)).toBe(5000);
    expect(cooldownMs(2, null)).toBe(2000);
    expect(cooldownMs(3, null)).toBe(4000);
    expect(cooldownMs(4, 1000)).toBe(8000);
    expect(cooldownMs(40, null)).toBe(BACKOFF_MAX_MS);
  });
});

describe('the court gate refusing a start', () => {
  const gate = (status: number, code: string, extra: Partial<CallError> = {}): CallError =>
    ({ ...http(status), code, ...extra }) as CallError;

  it.each([
    [
      gate(429, 'rate-limited', { retryAfterMs: 42_000 } as Partial<CallError>),
      FAILURE_REASONS.rateLimited,
      42_000,
    ],
    [gate(403, 'bot-check-failed'), FAILURE_REASONS.botCheck, null],
    [gate(503, 'bot-check-unavailable'), FAILURE_REASONS.botCheckUnavailable, null],
    [
      gate(503, 'gate-unavailable', { retryAfterMs: 10_000 } as Partial<CallError>),
      FAILURE_REASONS.gateDown,
      10_000,
    ],
    [gate(404, 'ticket-gone'), FAILURE_REASONS.lineLost, null],
    [
      gate(503, 'court-full', { retryAfterMs: 120_000 } as Partial<CallError>),
      FAILURE_REASONS.courtFull,
      120_000,
    ],
    [gate(503, 'court-full'), FAILURE_REASONS.courtFull, FULL_DEFAULT_WAIT_MS],
    [gate(502, 'malformed-answer'), FAILURE_REASONS.malformed, null],
    [gate(502, 'provider-error'), FAILURE_REASONS.provider, null],
  ])(
    'gives each refusal its own reason, the wait the gate asked for, and never the microphone toast (%#)',
    (error, reason, wait) => {
      expect(describeStartFailure(error)).toEqual({
        microphoneToast: false,
        reason,
        retryAfterMs: wait,
      });
    },
  );

  it('says Pepa is resting and when she is back, in the visitor’s time and politely', () => {
    const view = describeStartFailure(
      gate(503, 'court-resting', {
        reopensAt: '2026-11-24T15:00:00.000Z',
        retryAfterMs: 1_800_000,
      } as Partial<CallError>),
    );
    const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(
      new Date('2026-11-24T15:00:00.000Z'),
    );
    expect(view).toEqual({
      microphoneToast: false,
      reason: `${FAILURE_REASONS.courtResting} She is back at ${time}.`,
      // Not a countdown of half an hour: the time says it.
      retryAfterMs: null,
      polite: true,
    });
    expect(backText('2026-11-24T15:00:00.000Z', 'en-GB')).toMatch(/^ She is back at \d\d:\d\d\.$/);
    expect(backText('not a time')).toBe('');
  });

  it('says the court is closed for the day and when it opens again, in the visitor’s time', () => {
    const view = describeStartFailure(
      gate(503, 'court-closed', { reopensAt: '2026-11-25T00:00:00.000Z' } as Partial<CallError>),
    );
    expect(view.microphoneToast).toBe(false);
    const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(
      new Date('2026-11-25T00:00:00.000Z'),
    );
    expect(view.reason).toBe(
      `The court is closed for today: Pepa has received all the guests she can. It opens again at ${time}.`,
    );
  });
});
