export interface LazyOnceOptions<T> {
  /**
   * Called instead of failing when a load fails after an earlier one failed. A browser may
   * answer a failed dynamic import with that same failure for the rest of the page's life
   * (before whatwg/html#10327, and in every engine for a module that arrived corrupt), so trying
   * the same import again may never reach the network: this is the way out (e.g. a reload).
   */
  retry?: (error: unknown) => Promise<T>;
}

/**
 * Loads something once and shares it; a load that failed (offline for a moment, a new
 * deployment) is tried again by the next caller instead of failing forever, and a second failure
 * goes to `retry` when there is one.
 */
export function lazyOnce<T>(
  load: () => Promise<T>,
  { retry }: LazyOnceOptions<T> = {},
): () => Promise<T> {
  let pending: Promise<T> | null = null;
  let failedBefore = false;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      if (failedBefore && retry) return retry(error);
      failedBefore = true;
      throw error;
    });
    return pending;
  };
}
