import type { SimulatorTimings } from './options';

/** A remark the assistant is speaking. */
export interface Speech {
  text: string;
  startedAt: number;
  durationMs: number;
}

/** A microphone level above this counts as the visitor making a sound. */
export const VISITOR_LEVEL_THRESHOLD = 0.02;

/** The assistant's loudness at `now` while speaking `speech`: rises, wavers by syllable, falls. */
export function assistantLevelAt(speech: Speech | null, now: number): number {
  if (!speech) return 0;
  const progress = (now - speech.startedAt) / speech.durationMs;
  if (progress < 0 || progress > 1) return 0;
  const envelope = Math.sin(Math.PI * progress);
  const syllable = 0.6 + 0.4 * Math.abs(Math.sin((now - speech.startedAt) / 90));
  return Number((0.12 * envelope * syllable).toFixed(4));
}

export type VisitorTurn = 'started' | 'finished' | null;

/**
 * Follows the visitor's microphone level sample by sample: loud long enough is the visitor
 * speaking, then quiet long enough is the visitor having finished. Times are real (scaled).
 */
export class VisitorTurns {
  private loudMs = 0;
  private quietMs = 0;
  private speaking = false;

  constructor(
    private readonly timings: SimulatorTimings,
    private readonly scale: number,
  ) {}

  /** One sample; `canListen` is false while the assistant speaks or is about to. */
  follow(level: number, elapsedMs: number, canListen: boolean): VisitorTurn {
    if (!canListen) {
      this.loudMs = 0;
      return null;
    }
    if (level > VISITOR_LEVEL_THRESHOLD) {
      this.loudMs += elapsedMs;
      this.quietMs = 0;
      if (!this.speaking && this.loudMs >= this.timings.visitorSpeechMs * this.scale) {
        this.speaking = true;
        return 'started';
      }
      return null;
    }
    if (!this.speaking) {
      // Short beeps add up; silence slowly forgets them.
      this.loudMs = Math.max(0, this.loudMs - elapsedMs / 4);
      return null;
    }
    this.quietMs += elapsedMs;
    if (this.quietMs < this.timings.visitorSilenceMs * this.scale) return null;
    this.speaking = false;
    this.loudMs = 0;
    this.quietMs = 0;
    return 'finished';
  }
}
