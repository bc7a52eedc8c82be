import type { CallError, CallState, ServerMessage } from '../../lib/call/call-events';
import type { TalkPhase } from './talk-view';

/** How many caption lines stay on screen. */
export const CAPTION_LINES = 4;

/** A caption longer than this shows only its last characters, after an ellipsis. */
export const CAPTION_MAX_CHARS = 300;

/** Local microphone level above which the visitor counts as audible. */
export const AUDIBLE_LOCAL_LEVEL = 0.02;

export interface Caption {
  id: number;
  role: 'user' | 'assistant';
  text: string;
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
  captions: Caption[];
  /** When the call connected (ms since the epoch), for the call timer. */
  connectedAt: number | null;
  /** Last time the visitor's microphone was audible (ms since the epoch). */
  lastHeardAt: number | null;
  /** The browser refused to play Pepa's audio: a tap will resume it. */
  audioBlocked: boolean;
  /** Why the last start failed, until the next start. */
  failure: CallError | null;
  nextCaptionId: number;
}

export const initialVoiceState: VoiceState = {
  callState: 'idle',
  connected: false,
  speaking: false,
  volume: 0,
  muted: false,
  captions: [],
  connectedAt: null,
  lastHeardAt: null,
  audioBlocked: false,
  failure: null,
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
  | { type: 'muted'; muted: boolean }
  | { type: 'audio-blocked' }
  | { type: 'audio-resumed' }
  | { type: 'start-failed'; error: CallError };

/** The end of a long transcript: the part the visitor is hearing now. */
export function captionText(transcript: string): string {
  const text = transcript.trim();
  if (text.length <= CAPTION_MAX_CHARS) return text;
  return `…${text.slice(-(CAPTION_MAX_CHARS - 1)).trimStart()}`;
}

function isFinalTranscript(
  message: ServerMessage,
): message is ServerMessage & { role: 'user' | 'assistant'; transcript: string } {
  return (
    message.type === 'transcript' &&
    message.transcriptType === 'final' &&
    (message.role === 'user' || message.role === 'assistant') &&
    typeof message.transcript === 'string' &&
    message.transcript.trim() !== ''
  );
}

export function voiceReducer(state: VoiceState, action: VoiceAction): VoiceState {
  switch (action.type) {
    case 'state-change':
      if (action.state === 'starting') {
        // A new call: forget what the last one showed.
        return { ...initialVoiceState, callState: 'starting', nextCaptionId: state.nextCaptionId };
      }
      if (action.state === 'idle') {
        return {
          ...state,
          callState: 'idle',
          connected: false,
          speaking: false,
          volume: 0,
          muted: false,
          connectedAt: null,
          audioBlocked: false,
        };
      }
      return { ...state, callState: action.state };
    case 'call-start':
      return { ...state, connected: true, connectedAt: action.at, lastHeardAt: action.at };
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
      if (!isFinalTranscript(action.message)) return state;
      const caption: Caption = {
        id: state.nextCaptionId,
        role: action.message.role,
        text: captionText(action.message.transcript),
      };
      return {
        ...state,
        captions: [...state.captions, caption].slice(-CAPTION_LINES),
        nextCaptionId: state.nextCaptionId + 1,
      };
    }
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
  state: Pick<VoiceState, 'callState' | 'connected' | 'speaking'>,
): TalkPhase {
  switch (state.callState) {
    case 'idle':
      return 'idle';
    case 'starting':
      return 'connecting';
    case 'ending':
      return 'ending';
    case 'reconnecting':
      return 'reconnecting';
    case 'started':
      if (!state.connected) return 'connecting';
      return state.speaking ? 'speaking' : 'listening';
  }
}
