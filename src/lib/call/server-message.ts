import type {
  ServerMessage,
  SpeechUpdateMessage,
  StatusUpdateMessage,
  TranscriptMessage,
} from './call-events';

/** App-message data that announces the assistant is ready. */
export const LISTENING_SIGNAL = 'listening';
/** App-message data the page sends once the assistant's audio plays. */
export const PLAYABLE_SIGNAL = 'playable';

/**
 * Parses the data of an app message into a server message: a JSON object with a string `type`.
 * Returns null for anything else, so a malformed message can be ignored.
 */
export function parseServerMessage(data: unknown): ServerMessage | null {
  if (typeof data !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const type: unknown = (parsed as Record<string, unknown>).type;
  return typeof type === 'string' ? (parsed as ServerMessage) : null;
}

export function isTranscriptMessage(message: ServerMessage): message is TranscriptMessage {
  return (
    message.type === 'transcript' &&
    (message.role === 'user' || message.role === 'assistant') &&
    (message.transcriptType === 'partial' || message.transcriptType === 'final') &&
    typeof message.transcript === 'string'
  );
}

export function isSpeechUpdateMessage(message: ServerMessage): message is SpeechUpdateMessage {
  return (
    message.type === 'speech-update' &&
    (message.status === 'started' || message.status === 'stopped') &&
    (message.role === 'user' || message.role === 'assistant')
  );
}

export function isStatusUpdateMessage(message: ServerMessage): message is StatusUpdateMessage {
  return message.type === 'status-update' && typeof message.status === 'string';
}

export function isEndedStatus(message: ServerMessage): boolean {
  return isStatusUpdateMessage(message) && message.status === 'ended';
}
