// Run inside the page (Playwright's `waitForFunction`, the engine drivers' `evaluate`), so it is
// self-contained.

/** The app has started: React has hydrated the prerendered page, and its root carries the marker. */
export function appStarted(): boolean {
  const root = document.getElementById('root');
  return root !== null && Object.keys(root).some((key) => key.startsWith('__reactContainer'));
}
