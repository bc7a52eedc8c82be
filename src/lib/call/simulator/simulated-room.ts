import {
  ASSISTANT_PARTICIPANT_NAME,
  describeError,
  isPermissionDeniedError,
} from '../daily-payloads';
import { DailyEventHub } from '../daily-facade';
import type {
  DailyCallObjectOptions,
  DailyLike,
  DailyLikeInputDevices,
  DailyLikeParticipant,
} from '../daily-types';
import { LISTENING_SIGNAL, PLAYABLE_SIGNAL } from '../server-message';
import { PepaScript } from './dialogue';
import { DEFAULT_SIMULATOR_TIMINGS, type SimulatorOptions, type SimulatorTimings } from './options';
import { playScenarios, type ScenarioRoom } from './scenarios';
import {
  canUseWebAudio,
  createWebAudioVoice,
  type SimulatorAudio,
  type SimulatorAudioFactory,
} from './simulator-audio';
import type { SimulatorFault } from './simulator-faults';
import { VisitorTurns } from './turn-taking';

const OBSERVER_DEFAULT_MS = 100;

/** The performance mark set each time the simulated assistant starts to speak. */
export const ASSISTANT_AUDIO_MARK = 'pepa:assistant-audio';

const LOCAL: DailyLikeParticipant = { session_id: 'sim-visitor', user_name: '', local: true };
export const SIMULATED_ASSISTANT: DailyLikeParticipant = {
  session_id: 'sim-assistant',
  user_name: ASSISTANT_PARTICIPANT_NAME,
  local: false,
};

type Phase = 'new' | 'joining' | 'joined' | 'left' | 'destroyed';

/** What the rooms of one page share: once the network is gone (network-failure), it stays gone. */
export interface SimulatedNetwork {
  down: boolean;
  /** Faults that play once per page and have played. */
  played?: Set<SimulatorFault>;
}

/**
 * One simulated room, behind Daily's call-object interface: its lifecycle (join, leave,
 * destroy), the visitor's real microphone, the audio-level observers, and the assistant who
 * joins, listens and speaks (the script in dialogue.ts). Faults are played from scenarios.ts.
 */
export class SimulatedRoom extends DailyEventHub implements DailyLike, ScenarioRoom {
  readonly timings: SimulatorTimings;
  readonly scale: number;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly faults: ReadonlySet<SimulatorFault>;
  private readonly audioFactory: SimulatorAudioFactory | undefined;
  private readonly getUserMedia: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  private readonly script: PepaScript;
  private readonly turns: VisitorTurns;
  private phase: Phase = 'new';
  private cancelWait: (() => void) | null = null;
  private microphone: MediaStream | null = null;
  private ownsMicrophone = false;
  private microphoneOn = true;
  private audio: SimulatorAudio | null = null;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private remoteObserverMs: number | null = null;
  private localObserverMs: number | null = null;
  private assistantPresent = false;
  private trackStarted = false;
  private listeningSent = false;
  private recordingRequested = false;
  private roomUrl: string | null = null;
  private readonly onRoomLeft: ((roomUrl: string) => void) | undefined;
  private readonly onRoomJoined: SimulatorOptions['onRoomJoined'];
  private readonly onSpoken: SimulatorOptions['onSpoken'];
  private readonly openingFor: SimulatorOptions['openingFor'];
  /** Pepa's first remark here when the provider's model wrote it (a chat handed over). */
  private opening: string | null = null;

  constructor(
    private readonly callObjectOptions: DailyCallObjectOptions,
    options: SimulatorOptions,
    private readonly network: SimulatedNetwork = { down: false },
  ) {
    super();
    this.faults = new Set(options.faults ?? []);
    this.timings = { ...DEFAULT_SIMULATOR_TIMINGS, ...options.timings };
    this.scale = options.timeScale ?? 1;
    this.onRoomLeft = options.onRoomLeft;
    this.onRoomJoined = options.onRoomJoined;
    this.onSpoken = options.onSpoken;
    this.openingFor = options.openingFor;
    this.audioFactory = options.audio ?? (canUseWebAudio() ? createWebAudioVoice : undefined);
    this.getUserMedia =
      options.getUserMedia ??
      ((constraints) => {
        if (typeof navigator === 'undefined' || !navigator.mediaDevices) {
          return Promise.reject(new DOMException('No media devices', 'NotFoundError'));
        }
        return navigator.mediaDevices.getUserMedia(constraints);
      });
    this.turns = new VisitorTurns(this.timings, this.scale);
    this.script = new PepaScript(
      {
        timings: this.timings,
        scale: this.scale,
        after: (delayMs, run) => this.after(delayMs, run),
        sendServer: (message) => this.sendServer(message),
        joined: () => this.phase === 'joined',
        voice: (scaledMs) => {
          // When Pepa's voice starts, on the page's clock: what the demo's bench measures a
          // start to.
          performance.mark(ASSISTANT_AUDIO_MARK);
          this.audio?.speak(scaledMs);
        },
        hush: () => this.audio?.hush(),
        leave: () => this.leaveMeeting(),
        opening: () => this.opening,
      },
      options.persona,
      () => playScenarios(this.faults, 'after-greeting', this),
    );
  }

  // --- DailyLike ---------------------------------------------------------------------------

  async join(options: { url: string; subscribeToTracksAutomatically: boolean }): Promise<unknown> {
    if (this.phase !== 'new') throw new Error(`Cannot join a room that is ${this.phase}`);
    this.phase = 'joining';
    this.roomUrl = options.url;
    void this.openingFor?.(options.url).then(
      (opening) => (this.opening = opening),
      () => undefined,
    );
    await this.acquireMicrophone();
    await this.wait(this.timings.joinMs);
    try {
      if (this.network.down) throw new Error('The network is unreachable');
      playScenarios(this.faults, 'join', this);
      if (!this.audioFactory) {
        throw new Error('The offline room needs Web Audio, which this browser lacks');
      }
    } catch (error) {
      this.release();
      this.phase = 'left';
      throw error;
    }
    this.audio = this.audioFactory();
    if (this.microphone) this.audio.listenTo(this.microphone);
    this.phase = 'joined';
    this.onRoomJoined?.(options.url);
    // Daily reports the connection's quality soon after a join; the simulated network is good
    // (the network faults report their own changes).
    this.after(0, () => {
      if (!this.network.down) {
        this.emit('network-quality-change', { networkState: 'good', networkStateReasons: [] });
      }
    });
    if (this.remoteObserverMs !== null || this.localObserverMs !== null) this.restartTicker();
    this.after(this.timings.assistantJoinMs, () => {
      this.assistantPresent = true;
      this.emit('participant-joined', { participant: SIMULATED_ASSISTANT });
    });
    return { local: LOCAL };
  }

  async destroy(): Promise<void> {
    if (this.phase === 'destroyed') return;
    const wasInMeeting = this.phase === 'joined';
    this.release();
    this.phase = 'destroyed';
    if (wasInMeeting) {
      this.emit('left-meeting', { action: 'left-meeting' });
      this.tellRoomLeft();
    }
  }

  updateParticipant(
    sessionId: string,
    updates: { setSubscribedTracks: { audio: boolean; video: boolean } },
  ): this {
    if (this.phase !== 'joined' || sessionId !== SIMULATED_ASSISTANT.session_id) return this;
    if (!updates.setSubscribedTracks.audio || this.trackStarted) return this;
    this.trackStarted = true;
    this.after(this.timings.trackStartMs, () => {
      const track = this.audio?.assistantTrack;
      if (!track) return;
      this.emit('participant-updated', {
        participant: { ...SIMULATED_ASSISTANT, tracks: { audio: { state: 'playable' } } },
      });
      this.emit('track-started', { participant: SIMULATED_ASSISTANT, track, type: 'audio' });
    });
    return this;
  }

  sendAppMessage(data: string): this {
    if (this.phase !== 'joined') throw new Error('sendAppMessage() only works in a joined meeting');
    if (data === PLAYABLE_SIGNAL) {
      this.onPlayable();
      return this;
    }
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return this;
    }
    if (typeof message === 'object' && message !== null) {
      this.script.onClientMessage(message as Record<string, unknown>);
    }
    return this;
  }

  startRecording(_options: { width: number; height: number; layout: { preset: 'default' } }): void {
    if (this.phase !== 'joined') return;
    this.recordingRequested = true;
    this.after(this.timings.recordingStartMs, () =>
      this.emit('recording-started', { action: 'recording-started' }),
    );
  }

  stopRecording(): void {
    this.recordingRequested = false;
  }

  async startRemoteParticipantsAudioLevelObserver(intervalMs: number): Promise<void> {
    this.remoteObserverMs = intervalMs || OBSERVER_DEFAULT_MS;
    this.restartTicker();
  }

  async startLocalAudioLevelObserver(intervalMs: number): Promise<void> {
    this.localObserverMs = intervalMs || OBSERVER_DEFAULT_MS;
    this.restartTicker();
  }

  async updateInputSettings(_settings: {
    audio: { processor: { type: 'noise-cancellation' | 'none' } };
  }): Promise<unknown> {
    return {};
  }

  setLocalAudio(enabled: boolean): this {
    this.microphoneOn = enabled;
    for (const track of this.microphone?.getAudioTracks() ?? []) track.enabled = enabled;
    return this;
  }

  localAudio(): boolean {
    return this.microphoneOn;
  }

  /** Switches the microphone as Daily does: the new device's track replaces the old one. */
  async setInputDevicesAsync(devices: DailyLikeInputDevices): Promise<unknown> {
    const deviceId = devices.audioDeviceId;
    if (this.phase !== 'joined' || !this.microphone || typeof deviceId !== 'string') return {};
    const stream = await this.getUserMedia({ audio: { deviceId: { exact: deviceId } } });
    if (this.phase !== 'joined') {
      for (const track of stream.getTracks()) track.stop();
      return {};
    }
    // A track the page handed in is the page's to stop; one the room opened is the room's.
    if (this.ownsMicrophone) for (const track of this.microphone?.getTracks() ?? []) track.stop();
    this.microphone = stream;
    this.ownsMicrophone = true;
    this.audio?.listenTo(stream);
    return { mic: { deviceId } };
  }

  async setOutputDeviceAsync(_device: { outputDeviceId: string }): Promise<unknown> {
    return {};
  }

  // --- What scenarios and the script may do --------------------------------------------------

  after(delayMs: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, delayMs * this.scale);
    this.timers.add(timer);
  }

  sendServer(message: Record<string, unknown>): void {
    if (this.phase !== 'joined') return;
    const { type, role, transcriptType, transcript } = message;
    if (type === 'transcript' && transcriptType === 'final' && typeof transcript === 'string') {
      const said = { role: role === 'assistant' ? 'bot' : 'user', message: transcript } as const;
      if (this.roomUrl !== null) this.onSpoken?.(this.roomUrl, { ...said, time: Date.now() });
    }
    this.sendRaw(JSON.stringify(message));
  }

  sendRaw(data: string): void {
    if (this.phase !== 'joined') return;
    this.emit('app-message', { data, fromId: SIMULATED_ASSISTANT.session_id });
  }

  leaveMeeting(options: { callGoesOn?: boolean } = {}): void {
    if (this.phase !== 'joined') return;
    this.release();
    this.phase = 'left';
    this.emit('left-meeting', { action: 'left-meeting' });
    if (options.callGoesOn) this.roomUrl = null;
    else this.tellRoomLeft();
  }

  private tellRoomLeft(): void {
    if (this.roomUrl === null) return;
    const url = this.roomUrl;
    this.roomUrl = null;
    try {
      this.onRoomLeft?.(url);
    } catch {
      // The demo's bookkeeping, never the visitor's problem.
    }
  }

  assistantLeaves(): void {
    this.assistantPresent = false;
    this.emit('participant-left', { participant: SIMULATED_ASSISTANT });
  }

  cutNetwork(): void {
    this.network.down = true;
  }

  firstOnPage(fault: SimulatorFault): boolean {
    const played = (this.network.played ??= new Set());
    if (played.has(fault)) return false;
    played.add(fault);
    return true;
  }

  // --- The room ------------------------------------------------------------------------------

  /** Waits inside `join`; rejects as soon as the room is destroyed meanwhile. */
  private wait(delayMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.phase !== 'joining') {
        reject(new Error('The call object was destroyed while joining'));
        return;
      }
      this.cancelWait = () => reject(new Error('The call object was destroyed while joining'));
      this.after(delayMs, () => {
        this.cancelWait = null;
        resolve();
      });
    });
  }

  /** Gets the microphone the way Daily does on join; a refusal fails the join the same way. */
  private async acquireMicrophone(): Promise<void> {
    const source = this.callObjectOptions.audioSource;
    if (source === false) return;
    if (typeof source === 'object') {
      this.microphone = new MediaStream([source]);
      return;
    }
    // The visitor answers the permission prompt (the field model's first visit).
    if (this.timings.microphonePromptMs > 0) await this.wait(this.timings.microphonePromptMs);
    let stream: MediaStream;
    try {
      playScenarios(this.faults, 'microphone', this);
      stream = await this.getUserMedia({
        audio: typeof source === 'string' ? { deviceId: { exact: source } } : true,
      });
    } catch (error) {
      const denied = isPermissionDeniedError(error);
      const message = describeError(error);
      this.emit('camera-error', {
        errorMsg: { errorMsg: message, audioOk: false },
        error: denied
          ? { type: 'permissions', msg: message, blockedBy: 'user', blockedMedia: ['audio'] }
          : { type: 'not-found', msg: message },
      });
      this.phase = 'left';
      throw error;
    }
    if (this.phase !== 'joining') {
      for (const track of stream.getTracks()) track.stop();
      throw new Error('The call object was destroyed while joining');
    }
    this.microphone = stream;
    this.ownsMicrophone = true;
  }

  /** Stops everything the room holds: timers, the level ticker, the voice and the microphone. */
  private release(): void {
    const cancelWait = this.cancelWait;
    this.cancelWait = null;
    cancelWait?.();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
    this.audio?.close();
    this.audio = null;
    if (this.ownsMicrophone) {
      for (const track of this.microphone?.getTracks() ?? []) track.stop();
    }
    this.microphone = null;
    this.ownsMicrophone = false;
    this.script.silence();
  }

  private restartTicker(): void {
    if (this.phase !== 'joined') return;
    if (this.ticker !== null) clearInterval(this.ticker);
    const intervals = [this.remoteObserverMs, this.localObserverMs].filter(
      (ms): ms is number => ms !== null,
    );
    const intervalMs = Math.min(...intervals);
    this.ticker = setInterval(() => this.tick(intervalMs), intervalMs);
  }

  /** One audio-level sample: what Daily's observers report, and the visitor's turn-taking. */
  private tick(intervalMs: number): void {
    const now = Date.now();
    if (this.remoteObserverMs !== null) {
      const level = this.script.levelAt(now);
      this.emit('remote-participants-audio-level', {
        participantsAudioLevel: this.assistantPresent
          ? { [SIMULATED_ASSISTANT.session_id]: level }
          : {},
      });
    }
    const microphoneLevel = this.microphoneOn ? (this.audio?.microphoneLevel() ?? 0) : 0;
    if (this.localObserverMs !== null) {
      this.emit('local-audio-level', { audioLevel: microphoneLevel });
    }
    const turn = this.turns.follow(microphoneLevel, intervalMs, this.script.canListen());
    if (turn === 'started') this.script.visitorStarted();
    else if (turn === 'finished') this.script.visitorFinished();
  }

  private onPlayable(): void {
    if (this.listeningSent || playScenarios(this.faults, 'playable', this) === 'stop') return;
    this.listeningSent = true;
    this.after(this.timings.listeningMs, () => {
      this.emit('app-message', { data: LISTENING_SIGNAL, fromId: SIMULATED_ASSISTANT.session_id });
      // With video recording, the provider waits for `say-first-message` before greeting.
      if (!this.recordingRequested)
        this.after(this.timings.greetingDelayMs, () => this.script.greet());
    });
  }
}
