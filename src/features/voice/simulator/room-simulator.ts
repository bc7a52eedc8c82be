import {
  ASSISTANT_PARTICIPANT_NAME,
  describeError,
  isPermissionDeniedError,
} from '../daily-payloads';
import type {
  DailyCallFactory,
  DailyCallObjectOptions,
  DailyLike,
  DailyLikeEventName,
  DailyLikeEvents,
  DailyLikeHandler,
  DailyLikeInputDevices,
  DailyLikeParticipant,
} from '../daily-types';
import { LISTENING_SIGNAL, PLAYABLE_SIGNAL } from '../server-message';
import {
  canUseWebAudio,
  createWebAudioVoice,
  type SimulatorAudio,
  type SimulatorAudioFactory,
} from './simulator-audio';
import type { SimulatorFault } from './simulator-faults';
import {
  PEPA_BUY_QUESTION,
  PEPA_BUY_REFUSAL,
  PEPA_FIRST_MESSAGE,
} from '../../../../assistant/pepa';

/** Every delay of the simulated room, in milliseconds before `timeScale` applies. */
export interface SimulatorTimings {
  /** From `join()` to joined. */
  joinMs: number;
  /** From joined to the assistant entering the room. */
  assistantJoinMs: number;
  /** From subscribing to the assistant to its track starting. */
  trackStartMs: number;
  /** From `playable` to `listening`. */
  listeningMs: number;
  /** From `listening` to the greeting. */
  greetingDelayMs: number;
  /** How long the greeting is spoken. */
  greetingMs: number;
  /** From the visitor falling silent to the reply. */
  replyDelayMs: number;
  /** How long a reply is spoken. */
  replyMs: number;
  /** Spoken time per word of a `say` message. */
  sayMsPerWord: number;
  /** Loud microphone time that counts as the visitor speaking. */
  visitorSpeechMs: number;
  /** Quiet microphone time that counts as the visitor having finished. */
  visitorSilenceMs: number;
  /** From `startRecording` to `recording-started`. */
  recordingStartMs: number;
  /** From the greeting's end to a scheduled fault. */
  faultDelayMs: number;
  /** How long a network interruption lasts. */
  networkOutageMs: number;
  /** From the server's `ended` status (or `end-call`) to leaving the meeting. */
  leaveMs: number;
}

export const DEFAULT_SIMULATOR_TIMINGS: SimulatorTimings = {
  joinMs: 300,
  assistantJoinMs: 200,
  trackStartMs: 50,
  listeningMs: 250,
  greetingDelayMs: 300,
  greetingMs: 2000,
  replyDelayMs: 600,
  replyMs: 1600,
  sayMsPerWord: 300,
  visitorSpeechMs: 200,
  visitorSilenceMs: 700,
  recordingStartMs: 600,
  faultDelayMs: 1000,
  networkOutageMs: 2000,
  leaveMs: 300,
};

export interface SimulatorOptions {
  /** Faults to play; see `parseSimulatorFaults` to read them from the URL. */
  faults?: readonly SimulatorFault[];
  /** Multiplies every delay: 0.1 runs the room ten times faster. Default 1. */
  timeScale?: number;
  /** Overrides single delays (before `timeScale`). */
  timings?: Partial<SimulatorTimings>;
  /** Pepa's voice and the microphone meter. Default: Web Audio, where it exists. */
  audio?: SimulatorAudioFactory;
  /** Default: `navigator.mediaDevices.getUserMedia`. */
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
}

export const SIMULATOR_GREETING = PEPA_FIRST_MESSAGE;
export const SIMULATOR_VISITOR_LINE = 'Hello Pepa!';
/** The visitor's canned turns; the second shows Pepa's guardrail, word for word as live. */
const VISITOR_LINES = [SIMULATOR_VISITOR_LINE, PEPA_BUY_QUESTION];
const REPLIES = [
  'A fine question for a fine guest. In my pond, every frog is royalty.',
  PEPA_BUY_REFUSAL,
  'Ribbit. The meme stream flows strong today, my friend.',
  'Stay a while. The lily pads are warm and the gossip is fresh.',
];

/** A microphone level above this counts as the visitor making a sound. */
const VISITOR_LEVEL_THRESHOLD = 0.02;
const OBSERVER_DEFAULT_MS = 100;

const LOCAL: DailyLikeParticipant = { session_id: 'sim-visitor', user_name: '', local: true };
const ASSISTANT: DailyLikeParticipant = {
  session_id: 'sim-assistant',
  user_name: ASSISTANT_PARTICIPANT_NAME,
  local: false,
};

/** A participant who is not the provider's, for the `intruder` fault. */
const INTRUDER: DailyLikeParticipant = {
  session_id: 'sim-intruder',
  user_name: ASSISTANT_PARTICIPANT_NAME,
  local: false,
};

type Phase = 'new' | 'joining' | 'joined' | 'left' | 'destroyed';
type AnyHandler = (payload: never) => void;

interface Line {
  text: string;
  startedAt: number;
  durationMs: number;
}

/** The assistant's loudness at `now` while speaking `line`: rises, wavers by syllable, falls. */
export function assistantLevelAt(line: Line | null, now: number): number {
  if (!line) return 0;
  const progress = (now - line.startedAt) / line.durationMs;
  if (progress < 0 || progress > 1) return 0;
  const envelope = Math.sin(Math.PI * progress);
  const syllable = 0.6 + 0.4 * Math.abs(Math.sin((now - line.startedAt) / 90));
  return Number((0.12 * envelope * syllable).toFixed(4));
}

/**
 * Creates call objects that behave, for everything the call object uses, like Daily's call
 * object in a room with the provider's assistant. No network: the assistant is scripted.
 */
export function createSimulatorFactory(options: SimulatorOptions = {}): DailyCallFactory {
  // The rooms of one page share its network: once it is gone (network-failure), it stays gone.
  const network: SimulatedNetwork = { down: false };
  return async (callObjectOptions) => new SimulatedRoom(callObjectOptions, options, network);
}

interface SimulatedNetwork {
  down: boolean;
}

class SimulatedRoom implements DailyLike {
  private readonly handlers = new Map<DailyLikeEventName, Set<AnyHandler>>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly faults: ReadonlySet<SimulatorFault>;
  private readonly timings: SimulatorTimings;
  private readonly scale: number;
  private readonly audioFactory: SimulatorAudioFactory | undefined;
  private readonly getUserMedia: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
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
  private greeted = false;
  private recordingRequested = false;
  private assistantMuted = false;
  private line: Line | null = null;
  private turn = 0;
  private replyPending = false;
  private visitorLoudMs = 0;
  private visitorQuietMs = 0;
  private visitorSpeaking = false;
  private replies = 0;
  private readonly conversation: Array<{ role: 'assistant' | 'user'; message: string }> = [];

  constructor(
    private readonly callObjectOptions: DailyCallObjectOptions,
    options: SimulatorOptions,
    private readonly network: SimulatedNetwork = { down: false },
  ) {
    this.faults = new Set(options.faults ?? []);
    this.timings = { ...DEFAULT_SIMULATOR_TIMINGS, ...options.timings };
    this.scale = options.timeScale ?? 1;
    this.audioFactory = options.audio ?? (canUseWebAudio() ? createWebAudioVoice : undefined);
    this.getUserMedia =
      options.getUserMedia ??
      ((constraints) => {
        if (typeof navigator === 'undefined' || !navigator.mediaDevices) {
          return Promise.reject(new DOMException('No media devices', 'NotFoundError'));
        }
        return navigator.mediaDevices.getUserMedia(constraints);
      });
  }

  // --- DailyLike -------------------------------------------------------------------------

  on<E extends DailyLikeEventName>(event: E, handler: DailyLikeHandler<E>): this {
    const set = this.handlers.get(event) ?? new Set<AnyHandler>();
    set.add(handler as AnyHandler);
    this.handlers.set(event, set);
    return this;
  }

  off<E extends DailyLikeEventName>(event: E, handler: DailyLikeHandler<E>): this {
    const set = this.handlers.get(event);
    set?.delete(handler as AnyHandler);
    if (set?.size === 0) this.handlers.delete(event);
    return this;
  }

  async join(_options: { url: string; subscribeToTracksAutomatically: boolean }): Promise<unknown> {
    if (this.phase !== 'new') throw new Error(`Cannot join a room that is ${this.phase}`);
    this.phase = 'joining';
    await this.acquireMicrophone();
    await this.wait(this.timings.joinMs);
    if (this.network.down) {
      this.release();
      this.phase = 'left';
      throw new Error('The network is unreachable');
    }
    if (this.faults.has('join-failure')) {
      this.emit('error', {
        errorMsg: 'The meeting you are trying to join does not exist.',
        error: { type: 'no-room', msg: 'The meeting you are trying to join does not exist.' },
      });
      this.release();
      this.phase = 'left';
      throw new Error('The meeting you are trying to join does not exist.');
    }
    if (!this.audioFactory) {
      this.release();
      this.phase = 'left';
      throw new Error('The offline room needs Web Audio, which this browser lacks');
    }
    this.audio = this.audioFactory();
    if (this.microphone) this.audio.listenTo(this.microphone);
    this.phase = 'joined';
    if (this.remoteObserverMs !== null || this.localObserverMs !== null) this.restartTicker();
    this.after(this.timings.assistantJoinMs, () => {
      this.assistantPresent = true;
      this.emit('participant-joined', { participant: ASSISTANT });
    });
    return { local: LOCAL };
  }

  async destroy(): Promise<void> {
    if (this.phase === 'destroyed') return;
    const wasInMeeting = this.phase === 'joined';
    this.release();
    this.phase = 'destroyed';
    if (wasInMeeting) this.emit('left-meeting', { action: 'left-meeting' });
  }

  updateParticipant(
    sessionId: string,
    updates: { setSubscribedTracks: { audio: boolean; video: boolean } },
  ): this {
    if (this.phase !== 'joined' || sessionId !== ASSISTANT.session_id) return this;
    if (!updates.setSubscribedTracks.audio || this.trackStarted) return this;
    this.trackStarted = true;
    this.after(this.timings.trackStartMs, () => {
      const track = this.audio?.assistantTrack;
      if (!track) return;
      this.emit('participant-updated', {
        participant: { ...ASSISTANT, tracks: { audio: { state: 'playable' } } },
      });
      this.emit('track-started', { participant: ASSISTANT, track, type: 'audio' });
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
      this.onClientMessage(message as Record<string, unknown>);
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

  async setInputDevicesAsync(_devices: DailyLikeInputDevices): Promise<unknown> {
    return {};
  }

  async setOutputDeviceAsync(_device: { outputDeviceId: string }): Promise<unknown> {
    return {};
  }

  // --- The room ----------------------------------------------------------------------------

  private emit<E extends DailyLikeEventName>(event: E, payload: DailyLikeEvents[E]): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) {
      (handler as DailyLikeHandler<E>)(payload);
    }
  }

  private after(delayMs: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, delayMs * this.scale);
    this.timers.add(timer);
  }

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
    let stream: MediaStream;
    try {
      if (this.faults.has('mic-denied')) {
        throw new DOMException('Permission denied', 'NotAllowedError');
      }
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
    this.line = null;
  }

  private leaveMeeting(): void {
    if (this.phase !== 'joined') return;
    this.release();
    this.phase = 'left';
    this.emit('left-meeting', { action: 'left-meeting' });
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
      const level = this.assistantMuted ? 0 : assistantLevelAt(this.line, now);
      this.emit('remote-participants-audio-level', {
        participantsAudioLevel: this.assistantPresent ? { [ASSISTANT.session_id]: level } : {},
      });
    }
    const microphoneLevel = this.microphoneOn ? (this.audio?.microphoneLevel() ?? 0) : 0;
    if (this.localObserverMs !== null) {
      this.emit('local-audio-level', { audioLevel: microphoneLevel });
    }
    this.followVisitor(microphoneLevel, intervalMs);
  }

  /** Notices the visitor speaking, then falling silent, and answers. `elapsedMs` is real time. */
  private followVisitor(level: number, elapsedMs: number): void {
    const canListen = this.greeted && !this.line && !this.replyPending && this.phase === 'joined';
    if (!canListen) {
      this.visitorLoudMs = 0;
      return;
    }
    if (level > VISITOR_LEVEL_THRESHOLD) {
      this.visitorLoudMs += elapsedMs;
      this.visitorQuietMs = 0;
      if (
        !this.visitorSpeaking &&
        this.visitorLoudMs >= this.timings.visitorSpeechMs * this.scale
      ) {
        this.visitorSpeaking = true;
        this.sendServer({
          type: 'speech-update',
          status: 'started',
          role: 'user',
          turn: this.turn,
        });
        this.sendTranscript(
          'user',
          'partial',
          (VISITOR_LINES[this.replies % VISITOR_LINES.length] ?? '').split(' ')[0] ?? '',
        );
      }
      return;
    }
    if (!this.visitorSpeaking) {
      // Short beeps add up; silence slowly forgets them.
      this.visitorLoudMs = Math.max(0, this.visitorLoudMs - elapsedMs / 4);
      return;
    }
    this.visitorQuietMs += elapsedMs;
    if (this.visitorQuietMs < this.timings.visitorSilenceMs * this.scale) return;
    this.visitorSpeaking = false;
    this.visitorLoudMs = 0;
    this.visitorQuietMs = 0;
    this.sendServer({ type: 'speech-update', status: 'stopped', role: 'user', turn: this.turn });
    const line = VISITOR_LINES[this.replies % VISITOR_LINES.length] ?? SIMULATOR_VISITOR_LINE;
    this.sendTranscript('user', 'final', line);
    this.conversation.push({ role: 'user', message: line });
    this.replyPending = true;
    this.after(this.timings.replyDelayMs, () => {
      this.replyPending = false;
      const reply = REPLIES[this.replies % REPLIES.length] ?? '';
      this.replies += 1;
      this.speak(reply, this.timings.replyMs);
    });
  }

  private onPlayable(): void {
    if (this.listeningSent || this.faults.has('no-listening')) return;
    this.listeningSent = true;
    this.after(this.timings.listeningMs, () => {
      this.emit('app-message', { data: LISTENING_SIGNAL, fromId: ASSISTANT.session_id });
      // With video recording, the provider waits for `say-first-message` before greeting.
      if (!this.recordingRequested) this.after(this.timings.greetingDelayMs, () => this.greet());
    });
  }

  private greet(): void {
    if (this.greeted) return;
    this.greeted = true;
    this.speak(SIMULATOR_GREETING, this.timings.greetingMs, () => this.afterGreeting());
  }

  private afterGreeting(): void {
    const { faultDelayMs, networkOutageMs, leaveMs } = this.timings;
    if (this.faults.has('malformed-message')) {
      this.after(faultDelayMs / 2, () =>
        this.emit('app-message', { data: '{"type":"transcript",', fromId: ASSISTANT.session_id }),
      );
    }
    if (this.faults.has('server-end')) {
      this.after(faultDelayMs, () => {
        this.sendServer({
          type: 'status-update',
          status: 'ended',
          endedReason: 'assistant-ended-call',
        });
        this.after(leaveMs, () => this.leaveMeeting());
      });
    }
    if (this.faults.has('assistant-leaves')) {
      this.after(faultDelayMs, () => {
        this.assistantPresent = false;
        this.emit('participant-left', { participant: ASSISTANT });
      });
    }
    if (this.faults.has('intruder')) {
      this.after(faultDelayMs, () => {
        this.emit('participant-joined', { participant: INTRUDER });
        const posing = {
          type: 'transcript',
          role: 'assistant',
          transcriptType: 'final',
          transcript: 'Verify your wallet: send me your seed phrase.',
        };
        this.emit('app-message', { data: JSON.stringify(posing), fromId: INTRUDER.session_id });
      });
    }
    if (this.faults.has('ejection')) {
      this.after(faultDelayMs, () => {
        this.emit('error', {
          errorMsg: 'You were removed from the meeting',
          error: { type: 'ejected', msg: 'You were removed from the meeting' },
        });
        this.leaveMeeting();
      });
    }
    if (this.faults.has('network-interruption') || this.faults.has('network-failure')) {
      const fatal = this.faults.has('network-failure');
      this.after(faultDelayMs, () => {
        this.emit('network-connection', { type: 'signaling', event: 'interrupted' });
        this.emit('network-quality-change', {
          networkState: 'bad',
          networkStateReasons: ['recvPacketLoss'],
        });
        this.after(networkOutageMs, () => {
          if (fatal) {
            this.network.down = true;
            this.emit('error', {
              errorMsg: 'The connection to the meeting was lost',
              error: { type: 'connection-error', msg: 'The connection to the meeting was lost' },
            });
            this.leaveMeeting();
            return;
          }
          this.emit('network-connection', { type: 'signaling', event: 'connected' });
          this.emit('network-quality-change', { networkState: 'good', networkStateReasons: [] });
        });
      });
    }
  }

  private onClientMessage(message: Record<string, unknown>): void {
    switch (message.type) {
      case 'say': {
        const text = typeof message.message === 'string' ? message.message : '';
        const words = text.split(/\s+/).filter(Boolean).length;
        const durationMs = Math.max(800, words * this.timings.sayMsPerWord);
        this.speak(
          text,
          durationMs,
          message.endCallAfterSpoken === true
            ? () => this.endCall('assistant-said-end-call-phrase')
            : undefined,
        );
        return;
      }
      case 'end-call':
        this.endCall('customer-ended-call');
        return;
      case 'control':
        if (message.control === 'mute-assistant') {
          this.assistantMuted = true;
          this.audio?.hush();
        } else if (message.control === 'unmute-assistant') {
          this.assistantMuted = false;
        } else if (message.control === 'say-first-message') {
          this.greet();
        }
        return;
      case 'add-message':
        if (message.triggerResponseEnabled === true) {
          this.after(this.timings.replyDelayMs, () =>
            this.speak(REPLIES[this.replies++ % REPLIES.length] ?? '', this.timings.replyMs),
          );
        }
        return;
      default:
        return;
    }
  }

  private endCall(endedReason: string): void {
    this.sendServer({ type: 'status-update', status: 'ended', endedReason });
    this.after(this.timings.leaveMs, () => this.leaveMeeting());
  }

  /** The assistant says `text`: speech-update, audio and levels, partial then final transcript. */
  private speak(text: string, durationMs: number, then?: () => void): void {
    if (this.phase !== 'joined') return;
    const scaledMs = durationMs * this.scale;
    this.turn += 1;
    const turn = this.turn;
    this.line = { text, startedAt: Date.now(), durationMs: scaledMs };
    if (!this.assistantMuted) this.audio?.speak(scaledMs);
    this.sendServer({ type: 'speech-update', status: 'started', role: 'assistant', turn });
    const words = text.split(' ');
    this.after(durationMs * 0.4, () =>
      this.sendTranscript(
        'assistant',
        'partial',
        words.slice(0, Math.ceil(words.length / 2)).join(' '),
      ),
    );
    // The line ends here and only here, so the visitor is never heard over the assistant even
    // when the browser runs this timer late.
    this.after(durationMs, () => {
      this.line = null;
      this.sendTranscript('assistant', 'final', text);
      this.sendServer({ type: 'speech-update', status: 'stopped', role: 'assistant', turn });
      this.conversation.push({ role: 'assistant', message: text });
      this.sendServer({
        type: 'conversation-update',
        messages: this.conversation.map((entry) => ({ ...entry })),
      });
      then?.();
    });
  }

  private sendTranscript(
    role: 'assistant' | 'user',
    transcriptType: 'partial' | 'final',
    transcript: string,
  ): void {
    this.sendServer({ type: 'transcript', role, transcriptType, transcript });
  }

  private sendServer(message: Record<string, unknown>): void {
    if (this.phase !== 'joined') return;
    this.emit('app-message', { data: JSON.stringify(message), fromId: ASSISTANT.session_id });
  }
}
