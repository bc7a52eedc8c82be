import mitt, { type Emitter } from 'mitt';
import { describeError } from './daily-payloads';

const GESTURE_EVENTS = ['pointerdown', 'keydown'] as const;

export type AssistantAudioEvents = {
  /** The assistant's audio plays: the provider may be told it is playable. */
  playable: { participantId: string };
  /** The browser refused to play it (reported once per participant until it plays). */
  blocked: { participantId: string; message: string; cause: unknown };
  /** Audio that was blocked plays now. */
  resumed: { participantId: string };
};

interface Logger {
  warn(message: string, ...details: unknown[]): void;
}

/**
 * The assistant's voice in the page: one `<audio>` element per assistant participant, autoplay
 * with a retry on the visitor's next pointer or key press when the browser refuses, and routing
 * to the chosen speaker. It reports through its own events and knows nothing of the call.
 */
export class AssistantAudio {
  private readonly events: Emitter<AssistantAudioEvents> = mitt<AssistantAudioEvents>();
  private readonly elements = new Map<string, HTMLAudioElement>();
  private readonly blocked = new Set<string>();
  private gestureListener: (() => void) | null = null;
  private outputDeviceId: string | null = null;

  constructor(private readonly logger: Logger) {}

  on<K extends keyof AssistantAudioEvents>(
    type: K,
    handler: (payload: AssistantAudioEvents[K]) => void,
  ): void {
    this.events.on(type, handler);
  }

  get elementCount(): number {
    return this.elements.size;
  }

  get listeningForGesture(): boolean {
    return this.gestureListener !== null;
  }

  static readonly gestureEventCount = GESTURE_EVENTS.length;

  /** Plays a participant's audio track, replacing any element it had. */
  play(participantId: string, track: MediaStreamTrack): void {
    const previous = this.elements.get(participantId);
    if (previous) this.dispose(previous);
    const audio = document.createElement('audio');
    audio.autoplay = true;
    audio.dataset.participantId = participantId;
    audio.srcObject = new MediaStream([track]);
    if (this.outputDeviceId) this.route(audio, this.outputDeviceId);
    document.body.appendChild(audio);
    this.elements.set(participantId, audio);
    void this.tryPlay(participantId, audio);
  }

  /** The participant left: its element goes. */
  remove(participantId: string): void {
    const audio = this.elements.get(participantId);
    if (!audio) return;
    this.dispose(audio);
    this.elements.delete(participantId);
    this.blocked.delete(participantId);
    if (this.blocked.size === 0) this.stopListeningForGesture();
  }

  /** Retries every blocked element; resolves to true when nothing is blocked any more. */
  async resume(): Promise<boolean> {
    const attempts = [...this.blocked].map((participantId) => {
      const audio = this.elements.get(participantId);
      return audio ? this.tryPlay(participantId, audio) : Promise.resolve(true);
    });
    return (await Promise.all(attempts)).every(Boolean);
  }

  /** Routes every element, present and future, to the chosen speaker. */
  setOutputDevice(deviceId: string): void {
    this.outputDeviceId = deviceId;
    for (const audio of this.elements.values()) this.route(audio, deviceId);
  }

  /** Removes every element and the gesture listener; the object stays usable (a rejoin). */
  clear(): void {
    this.stopListeningForGesture();
    for (const audio of this.elements.values()) this.dispose(audio);
    this.elements.clear();
    this.blocked.clear();
  }

  /**
   * Plays one element. `play()` is called synchronously so that a gesture handler still counts
   * as a gesture.
   */
  private async tryPlay(participantId: string, audio: HTMLAudioElement): Promise<boolean> {
    const isCurrent = (): boolean => this.elements.get(participantId) === audio;
    try {
      await audio.play();
    } catch (error) {
      if (!isCurrent()) return false;
      if (!this.blocked.has(participantId)) {
        this.blocked.add(participantId);
        this.events.emit('blocked', { participantId, message: describeError(error), cause: error });
        this.listenForGesture();
      }
      return false;
    }
    if (!isCurrent()) return false;
    if (this.blocked.delete(participantId)) {
      if (this.blocked.size === 0) this.stopListeningForGesture();
      this.events.emit('resumed', { participantId });
    }
    this.events.emit('playable', { participantId });
    return true;
  }

  private listenForGesture(): void {
    if (this.gestureListener) return;
    const onGesture = (): void => {
      void this.resume();
    };
    for (const type of GESTURE_EVENTS) window.addEventListener(type, onGesture, true);
    this.gestureListener = onGesture;
  }

  private stopListeningForGesture(): void {
    const onGesture = this.gestureListener;
    if (!onGesture) return;
    for (const type of GESTURE_EVENTS) window.removeEventListener(type, onGesture, true);
    this.gestureListener = null;
  }

  private dispose(audio: HTMLAudioElement): void {
    // Detaching the stream stops playback; the remote track itself belongs to Daily.
    audio.srcObject = null;
    audio.remove();
  }

  private route(audio: HTMLAudioElement, deviceId: string): void {
    if (typeof audio.setSinkId !== 'function') return;
    audio.setSinkId(deviceId).catch((error: unknown) => {
      this.logger.warn('Routing audio to the chosen speaker failed', error);
    });
  }
}
