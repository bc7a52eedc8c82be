/**
 * A wait in the words a visitor reads at a glance: seconds while it is short, then minutes, then
 * hours ("12 h", not "43200 s", for a limit that lifts at midnight).
 */
export function waitWords(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
