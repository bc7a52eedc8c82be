import type { SimulatorAudioFactory } from './simulator-audio';
import type { SimulatorFault } from './simulator-faults';

/** Every delay of the simulated room, in milliseconds before `timeScale` applies. */
export interface SimulatorTimings {
  /**
   * How long the visitor takes to answer the microphone's permission prompt (0: already
   * granted). Paid before the microphone opens, wherever it is opened.
   */
  microphonePromptMs: number;
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
  microphonePromptMs: 0,
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

/** Who the simulated assistant is: its first message and the canned conversation. */
export interface SimulatorPersona {
  firstMessage: string;
  /** The visitor's turns, in order (the transcript of what the microphone "said"). */
  visitorMessages: readonly string[];
  /** The assistant's replies, in order. */
  replies: readonly string[];
  /** Messages that make the assistant call a client-side tool, and what it says as it does. */
  toolCues?: readonly SimulatorToolCue[];
}

/** A visitor message (typed or canned) that the assistant answers with a tool call. */
export interface SimulatorToolCue {
  /** A case-insensitive regular expression the visitor's message matches. */
  asks: string;
  tool: { name: string; arguments: Readonly<Record<string, unknown>> };
  /** Said as the tool is called. */
  reply: string;
}

export interface SimulatorOptions {
  /** Who the assistant is; the page passes the real assistant's persona (assistant/pepa.ts). */
  persona: SimulatorPersona;
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
  /**
   * The visitor left a room they had joined (left, or the call object destroyed): what the
   * provider's side hears, so the demo's stand-in provider can end the call as the provider would.
   */
  onRoomLeft?: (roomUrl: string) => void;
  /**
   * The visitor joined a room (its microphone open): what the provider hears as the call goes
   * in progress, so the demo's stand-in keeps a joined call past its join timeout.
   */
  onRoomJoined?: (roomUrl: string) => void;
  /**
   * A message was said in a room (its final transcript): what the provider records of a call, so
   * the demo's stand-in provider can answer `GET /call/{id}` with the messages spoken.
   */
  onSpoken?: (roomUrl: string, said: SpokenMessage) => void;
  /**
   * Asked as a room is joined: Pepa's first remark there when the provider's model writes it (a
   * call the gate handed a chat opens from the chat). Null, a failure or an answer that comes
   * after the greeting is due: the persona's first message.
   */
  openingFor?: (roomUrl: string) => Promise<string | null>;
}

/** A message of a call as the provider records it: `bot` for the assistant, `user` for the visitor. */
export interface SpokenMessage {
  role: 'bot' | 'user';
  message: string;
  /** When it was said (ms since the epoch). */
  time: number;
}

/**
 * The field latency model (docs/demo-simulator.md, "A latency model of the real path"): published
 * figures or reasoned estimates for each stage a real start goes through, shared with the demo's
 * stand-in provider (siteverify, the gate's work, `POST /call/web`, a chat's words).
 */
export interface FieldLatency {
  turnstileSolveMs: number;
  microphonePromptMs: number;
  siteverifyMs: number;
  gateWorkMs: number;
  callWebMs: number;
  roomJoinMs: number;
  preconnectSavingMs: number;
  assistantJoinMs: number;
  assistantTrackMs: number;
  listeningMs: number;
  greetingFirstAudioMs: number;
  /** A chat's reply: its first word after this, from the provider's `POST /chat`. */
  chatFirstWordMs: number;
  /** A chat's reply: each next word after this. */
  chatWordMs: number;
}

/** The simulated room's delays under the field model; `preconnected`: the page warmed the room's origin. */
export function fieldTimings(
  model: FieldLatency,
  preconnected: boolean,
): Partial<SimulatorTimings> {
  return {
    microphonePromptMs: model.microphonePromptMs,
    joinMs: model.roomJoinMs - (preconnected ? model.preconnectSavingMs : 0),
    assistantJoinMs: model.assistantJoinMs,
    trackStartMs: model.assistantTrackMs,
    listeningMs: model.listeningMs,
    greetingDelayMs: model.greetingFirstAudioMs,
  };
}
