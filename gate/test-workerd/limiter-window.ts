/**
 * The edge limiter's windows as the runtime counts them: fixed to the real clock (the tests' own
 * Date is a fake one), 60 requests a visitor in each 10 s (gate/wrangler.jsonc's API_LIMITER). A
 * run of requests that crosses from one window into the next meets a fresh allowance there.
 */
import { vi } from 'vitest';
import { addr } from './bench';

/** Requests one visitor may make in one of the limiter's windows. */
export const LIMITER_ALLOWANCE = 60;

/** The limiter's window the real clock is in. */
export const limiterWindow = () => Math.floor(vi.getRealSystemTime() / 10_000);

/**
 * Runs `requests` from a fresh address within one of the limiter's windows: a run that straddled
 * two (its count started afresh midway) is run again, at most three times in all.
 */
export async function inOneWindow<T>(requests: (address: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const before = limiterWindow();
    const result = await requests(addr(100 + attempt));
    if (limiterWindow() === before || attempt === 3) return result;
  }
}
