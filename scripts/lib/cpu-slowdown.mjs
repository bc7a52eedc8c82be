// @ts-check
// The browser suite's CPU slowdown (E2E_CPU_SLOWDOWN), read by playwright.config.ts and the
// suite's fixtures.

/**
 * Unset or blank runs at the machine's speed; a number from 1 to 20 divides Chromium's CPU by
 * it. Anything else is a mistake said at once, not a quiet full-speed run that looks slowed.
 * @param {string | undefined} value
 * @returns {number}
 */
export function cpuSlowdown(value) {
  if (value === undefined || value.trim() === '') return 1;
  const rate = Number(value);
  if (!Number.isFinite(rate) || rate < 1 || rate > 20) {
    throw new Error(`E2E_CPU_SLOWDOWN must be a number from 1 to 20 (got "${value}")`);
  }
  return rate;
}
