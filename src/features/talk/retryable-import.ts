/**
 * A lazy loader for a code-split chunk that recovers from a failed download.
 *
 * Browsers remember a failed `import()` of a URL: Chromium answers every later import of the same
 * URL with the same failure, so retrying the loader alone never fetches the chunk again. After a
 * failure this loader imports the chunk again under a fresh URL (the failed one plus a query),
 * which the browser treats as a new module and fetches. The failed URL is read from the error,
 * where Chromium and Firefox name it; where a browser does not (Safari), the plain import is
 * retried, which such a browser fetches anew.
 */
export function retryableImport<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  let failedUrl: string | null = null;
  let attempt = 0;
  return () => {
    if (pending) return pending;
    const next = failedUrl
      ? (import(/* @vite-ignore */ `${failedUrl}?retry=${(attempt += 1)}`) as Promise<T>)
      : load();
    pending = next.catch((error: unknown) => {
      pending = null;
      failedUrl = chunkUrlOf(error) ?? failedUrl;
      throw error;
    });
    return pending;
  };
}

/** The script URL a failed dynamic import names in its message, without any query. */
export function chunkUrlOf(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  const url = /(https?:\/\/[^\s'"]+?\.m?js)(?:\?[^\s'"]*)?(?=$|[\s'"])/.exec(message)?.[1];
  return url ?? null;
}
