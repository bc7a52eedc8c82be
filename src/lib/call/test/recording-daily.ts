/**
 * A recording stand-in for Daily's call object, shared by the page's call object and the
 * provider's official web client in the differential tests. It records every method called on it,
 * with its arguments, in order (the creation of the call object included), and lets a scenario
 * play Daily's side with `emit`. It stubs the methods either client calls and nothing more.
 */

/** One thing a client did to the call object. */
export interface WireCall {
  method: string;
  args: unknown[];
}

type Handler = (payload: unknown) => void;

/** What `join` and the async setters do; a scenario may swap one for a failure or a wait. */
export interface RecordingBehaviour {
  join?: () => Promise<unknown>;
  updateInputSettings?: () => Promise<unknown>;
}

export class RecordingDaily {
  private readonly handlers = new Map<string, Set<Handler>>();
  private micOn = true;
  destroyed = false;

  constructor(
    readonly log: WireCall[],
    private readonly behaviour: RecordingBehaviour,
  ) {}

  private record(method: string, args: unknown[]): void {
    this.log.push({ method, args: structuredClone(args) });
  }

  // --- Events: Daily's side, played by the scenario ---------------------------------------

  on(event: string, handler: Handler): this {
    const set = this.handlers.get(event) ?? new Set<Handler>();
    set.add(handler);
    this.handlers.set(event, set);
    return this;
  }

  once(event: string, handler: Handler): this {
    const wrapper: Handler = (payload) => {
      this.off(event, wrapper);
      handler(payload);
    };
    return this.on(event, wrapper);
  }

  off(event: string, handler: Handler): this {
    this.handlers.get(event)?.delete(handler);
    return this;
  }

  /** Delivers one Daily event to every listener, in the order they subscribed. */
  emit(event: string, payload: unknown): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) handler(payload);
  }

  // --- What the clients call -----------------------------------------------------------------

  iframe(): null {
    return null;
  }

  join(options: unknown): Promise<unknown> {
    this.record('join', [options]);
    return this.behaviour.join ? this.behaviour.join() : Promise.resolve({});
  }

  destroy(): Promise<void> {
    this.record('destroy', []);
    this.destroyed = true;
    return Promise.resolve();
  }

  updateParticipant(sessionId: string, updates: unknown): this {
    this.record('updateParticipant', [sessionId, updates]);
    return this;
  }

  sendAppMessage(data: unknown, to?: string): this {
    this.record('sendAppMessage', to === undefined ? [data] : [data, to]);
    return this;
  }

  startRecording(options: unknown): void {
    this.record('startRecording', [options]);
  }

  stopRecording(): void {
    this.record('stopRecording', []);
  }

  startRemoteParticipantsAudioLevelObserver(intervalMs?: number): Promise<void> {
    this.record('startRemoteParticipantsAudioLevelObserver', [intervalMs]);
    return Promise.resolve();
  }

  startLocalAudioLevelObserver(intervalMs?: number): Promise<void> {
    this.record('startLocalAudioLevelObserver', [intervalMs]);
    return Promise.resolve();
  }

  updateInputSettings(settings: unknown): Promise<unknown> {
    this.record('updateInputSettings', [settings]);
    return this.behaviour.updateInputSettings
      ? this.behaviour.updateInputSettings()
      : Promise.resolve(settings);
  }

  setLocalAudio(enabled: boolean, options?: unknown): this {
    this.record('setLocalAudio', options === undefined ? [enabled] : [enabled, options]);
    this.micOn = enabled;
    return this;
  }

  localAudio(): boolean {
    return this.micOn;
  }

  setInputDevicesAsync(devices: unknown): Promise<unknown> {
    this.record('setInputDevicesAsync', [devices]);
    return Promise.resolve({});
  }

  setOutputDeviceAsync(device: unknown): Promise<unknown> {
    this.record('setOutputDeviceAsync', [device]);
    return Promise.resolve({});
  }

  /** How many listeners are attached, for leak checks. */
  listenerCount(): number {
    let count = 0;
    for (const set of this.handlers.values()) count += set.size;
    return count;
  }
}

/**
 * Stands in for the `@daily-co/daily-js` module: `createCallObject` records its options and hands
 * out a {@link RecordingDaily} writing to the same log.
 */
export class RecordingDailyModule {
  readonly log: WireCall[] = [];
  readonly rooms: RecordingDaily[] = [];
  behaviour: RecordingBehaviour = {};

  createCallObject(options: unknown): RecordingDaily {
    this.log.push({ method: 'createCallObject', args: [structuredClone(options)] });
    const room = new RecordingDaily(this.log, this.behaviour);
    this.rooms.push(room);
    return room;
  }

  /** The latest call object. */
  get room(): RecordingDaily {
    const room = this.rooms.at(-1);
    if (!room) throw new Error('No call object was created');
    return room;
  }

  reset(): void {
    this.log.length = 0;
    this.rooms.length = 0;
    this.behaviour = {};
  }
}

/** The one stand-in the differential tests mock `@daily-co/daily-js` with (each copy of it). */
export const recordingDaily = new RecordingDailyModule();
