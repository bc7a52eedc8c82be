/**
 * Loads something once and shares it; a load that failed (offline for a moment, a new
 * deployment) is tried again by the next caller instead of failing forever.
 */
export function lazyOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
}
