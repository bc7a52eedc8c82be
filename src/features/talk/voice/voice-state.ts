import type {
  CallError,
  CallState,
  LinePlace,
  NetworkQuality,
  ServerMessage,
} from '../../../lib/call';

/** What the visitor sees of a call. Derived from the call object's events, never stored apart. */
export type TalkPhase =
  'idle' | 'waiting' | 'connecting' | 'listening' | 'speaking' | 'reconnecting' | 'ending';

/** During a call, a caption longer than this shows only its last characters, after an ellipsis. */
export const CAPTION_MAX_CHARS = 300;

/** Local microphone level above which the visitor counts as audible. */
export const AUDIBLE_LOCAL_LEVEL = 0.02;

export type Speaker = 'user' | 'assistant';

/** One finished entry of the conversation, whole. */
export interface TranscriptEntry {
  id: number;
  role: Speaker;
  text: string;
  /** The visitor typed it rather than said it. */
  typed?: boolean;
}

/** Everything the section shows about a call, reduced from the call object's events. */
export interface VoiceState {
  callState: CallState;
  /** `listening` arrived: the spec's "connected". */
  connected: boolean;
  speaking: boolean;
  /** Assistant loudness 0..1. */
  volume: number;
  muted: boolean;
  /** The call's finished entries, all of them, kept after it ends until the next call starts. */
  transcript: TranscriptEntry[];
  /**
   * The last call's entries while a new start is under way: a start that is refused or fails
   * must not erase them; they go once the new call has really started.
   */
  keptTranscript: TranscriptEntry[];
  /** What each side is saying right now, as the transcriber hears it so far. */
  partials: Record<Speaker, string | null>;
  /** The connection's quality as the room reports it. */
  networkQuality: NetworkQuality['state'];
  /** When the call connected (ms since the epoch), for the call timer. */
  connectedAt: number | null;
  /** Last time the visitor's microphone was audible (ms since the epoch). */
  lastHeardAt: number | null;
  /** The browser refused to play Pepa's audio: a tap will resume it. */
  audioBlocked: boolean;
  /** Why the last start failed, until the next start. */
  failure: CallError | null;
  /** The start's place in line while Pepa is with other guests. */
  line: LinePlace | null;
  nextCaptionId: number;
}

export const initialVoiceState: VoiceState = {
  callState: 'idle',
  connected: false,
  speaking: false,
  volume: 0,
  muted: false,
  transcript: [],
  keptTranscript: [],
  partials: { user: null, assistant: null },
  networkQuality: 'unknown',
  connectedAt: null,
  lastHeardAt: null,
  audioBlocked: false,
  failure: null,
  line: null,
  nextCaptionId: 0,
};

export type VoiceAction =
  | { type: 'state-change'; state: CallState }
  | { type: 'call-start'; at: number }
  | { type: 'call-end' }
  | { type: 'speech-start' }
  | { type: 'speech-end' }
  | { type: 'volume-level'; volume: number }
  | { type: 'local-volume-level'; volume: number; at: number }
  | { type: 'message'; message: ServerMessage }
  | { type: 'typed'; text: string }
  | { type: 'network-quality'; quality: NetworkQuality['state'] }
  | { type: 'muted'; muted: boolean }
  | { type: 'audio-blocked' }
  | { type: 'audio-resumed' }
  | { type: 'start-failed'; error: CallError }
  | { type: 'line'; place: LinePlace | null };

/** The end of a long transcript: the part the visitor is hearing now. */
export function captionText(transcript: string): string {
  const text = transcript.trim();
  if (text.length <= CAPTION_MAX_CHARS) return text;
  return `…${text.slice(-(CAPTION_MAX_CHARS - 1)).trimStart()}`;
}

/** A transcript message the panel can show: a side, a kind and some words. */
function readTranscript(
  message: ServerMessage,
): { role: Speaker; final: boolean; text: string } | null {
  if (message.type !== 'transcript') return null;
  const { role, transcriptType, transcript } = message;
  if (role !== 'user' && role !== 'assistant') return null;
  if (transcriptType !== 'final' && transcriptType !== 'partial') return null;
  if (typeof transcript !== 'string' || transcript.trim() === '') return null;
  return { role, final: transcriptType === 'final', text: transcript.trim() };
}

function appendEntry(state: VoiceState, entry: Omit<TranscriptEntry, 'id'>): VoiceState {
  return {
    ...state,
    transcript: [...state.transcript, { id: state.nextCaptionId, ...entry }],
    nextCaptionId: state.nextCaptionId + 1,
  };
}

/** The finished entries to show after a call: this call's, else those a failed start kept. */
export function transcriptAfterCall(state: VoiceState): TranscriptEntry[] {
  return state.transcript.length > 0 ? state.transcript : state.keptTranscript;
}

/** The transcript as plain text, one line per turn, for copying or saving. */
export function transcriptText(entries: readonly TranscriptEntry[]): string {
  return entries
    .map((entry) => `${entry.role === 'assistant' ? 'Pepa' : 'You'}: ${entry.text}`)
    .join('\n');
}

export function voiceReducer(state: VoiceState, action: VoiceAction): VoiceState {
  switch (action.type) {
    case 'state-change':
      if (action.state === 'starting') {
        // A new call: forget what the last one showed.
        return {
          ...initialVoiceState,
          callState: 'starting',
          keptTranscript: state.transcript.length > 0 ? state.transcript : state.keptTranscript,
          nextCaptionId: state.nextCaptionId,
        };
      }
      if (action.state === 'idle') {
        return {
          ...state,
          callState: 'idle',
          line: null,
          connected: false,
          speaking: false,
          volume: 0,
          muted: false,
          connectedAt: null,
          audioBlocked: false,
          partials: { user: null, assistant: null },
          networkQuality: 'unknown',
        };
      }
      return { ...state, callState: action.state, line: null };
    case 'line':
      return state.callState === 'starting' ? { ...state, line: action.place } : state;
    case 'call-start':
      return {
        ...state,
        connected: true,
        connectedAt: action.at,
        lastHeardAt: action.at,
        keptTranscript: [],
      };
    case 'call-end':
      return { ...state, connected: false, speaking: false, volume: 0, connectedAt: null };
    case 'speech-start':
      return { ...state, speaking: true };
    case 'speech-end':
      return { ...state, speaking: false, volume: 0 };
    case 'volume-level':
      return state.volume === action.volume ? state : { ...state, volume: action.volume };
    case 'local-volume-level':
      return action.volume > AUDIBLE_LOCAL_LEVEL ? { ...state, lastHeardAt: action.at } : state;
    case 'message': {
      const heard = readTranscript(action.message);
      if (!heard) return state;
      const partials = { ...state.partials, [heard.role]: heard.final ? null : heard.text };
      if (!heard.final) return { ...state, partials };
      return appendEntry({ ...state, partials }, { role: heard.role, text: heard.text });
    }
    case 'typed': {
      const text = action.text.trim();
      return text === '' ? state : appendEntry(state, { role: 'user', text, typed: true });
    }
    case 'network-quality':
      return state.networkQuality === action.quality
        ? state
        : { ...state, networkQuality: action.quality };
    case 'muted':
      return { ...state, muted: action.muted };
    case 'audio-blocked':
      return { ...state, audioBlocked: true };
    case 'audio-resumed':
      return { ...state, audioBlocked: false };
    case 'start-failed':
      return { ...state, failure: action.error };
  }
}

/** The phase the section shows, derived from the call state and the spec's two flags. */
export function phaseOf(
  state: Pick<VoiceState, 'callState' | 'connected' | 'speaking'> & { line?: LinePlace | null },
): TalkPhase {
  switch (state.callState) {
    case 'idle':
      return 'idle';
    case 'starting':
      return state.line ? 'waiting' : 'connecting';
    case 'ending':
      return 'ending';
    case 'reconnecting':
      return 'reconnecting';
    case 'started':
      if (!state.connected) return 'connecting';
      return state.speaking ? 'speaking' : 'listening';
  }
}
