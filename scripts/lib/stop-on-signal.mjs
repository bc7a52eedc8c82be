// @ts-check
// One shutdown for long-running scripts: on Ctrl-C or SIGTERM, run every stop once, then exit.

/** @param {Array<() => Promise<unknown> | unknown>} stops */
export function stopOnSignal(stops) {
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled(stops.map((stop) => stop()));
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
