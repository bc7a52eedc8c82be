/**
 * How long a `Retry-After` header asks a client to wait, in milliseconds: either a number of
 * seconds or an HTTP date. Null when there is no usable value. Capped, so a hostile or broken
 * answer cannot lock the button for hours.
 */
export const MAX_RETRY_AFTER_MS = 10 * 60 * 1000;

export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | null {
  const value = header?.trim();
  if (!value) return null;
  let waitMs: number;
  if (/^\d+$/.test(value)) {
    waitMs = Number(value) * 1000;
  } else if (/GMT$/i.test(value)) {
    // An HTTP date is always in GMT; anything else (a negative or fractional number) is garbage.
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    waitMs = at - now;
  } else {
    return null;
  }
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, waitMs));
}
