import { SPEECH_END_DELAY_MS, isSpeakingLevel, sumLevels, volumeFromLevel } from './audio-level';
import type { CallTimers } from './timers';

export interface SpeechListener {
  volume(volume: number): void;
  speechStart(): void;
  speechEnd(): void;
}

/**
 * Turns the remote participants' audio levels into the assistant's volume and speech-start /
 * speech-end (spec §9: speaking above the threshold, silent after the end delay).
 */
export class SpeechDetector {
  private speaking = false;

  constructor(
    private readonly timers: CallTimers,
    private readonly listener: SpeechListener,
  ) {}

  levels(levels: Record<string, number>): void {
    const sum = sumLevels(levels);
    this.listener.volume(volumeFromLevel(sum));
    if (!isSpeakingLevel(sum)) return;
    if (!this.speaking) {
      this.speaking = true;
      this.listener.speechStart();
    }
    this.timers.set('speech-end', SPEECH_END_DELAY_MS, () => {
      this.speaking = false;
      this.listener.speechEnd();
    });
  }
}
