/** How often Daily reports audio levels. */
export const AUDIO_LEVEL_INTERVAL_MS = 100;
/** A summed remote level above this means the assistant is speaking. */
export const SPEAKING_THRESHOLD = 0.01;
/** The summed level that maps to full volume. */
export const FULL_VOLUME_LEVEL = 0.15;
/** Silence after the last speaking sample before speech counts as ended. */
export const SPEECH_END_DELAY_MS = 1000;

/** Sums the levels of all remote participants; anything not a finite positive number counts 0. */
export function sumLevels(levels: Record<string, number>): number {
  let sum = 0;
  for (const level of Object.values(levels)) {
    if (Number.isFinite(level) && level > 0) sum += level;
  }
  return sum;
}

export function volumeFromLevel(summedLevel: number): number {
  return Math.min(1, summedLevel / FULL_VOLUME_LEVEL);
}

export function isSpeakingLevel(summedLevel: number): boolean {
  return summedLevel > SPEAKING_THRESHOLD;
}
