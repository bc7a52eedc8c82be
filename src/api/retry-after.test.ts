import { describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_MS, retryAfterMs } from './retry-after';

describe('retryAfterMs', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);

  it('reads seconds', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date, never into the past', () => {
    expect(retryAfterMs('Sun, 22 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('caps a wait that would lock the page for long', () => {
    expect(retryAfterMs('86400', now)).toBe(MAX_RETRY_AFTER_MS);
  });

  it.each([null, undefined, '', 'soon', '-5', '1.5'])('ignores %j', (header) => {
    expect(retryAfterMs(header, now)).toBeNull();
  });
});
