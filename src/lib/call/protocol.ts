/**
 * The provider's protocol over the room: who speaks for the assistant, the ready and playable
 * signals, and the messages each side sends. Pure: no Daily, no DOM.
 */
import type { ClientMessage, ServerMessage } from './call-events';
import { isAssistantParticipant } from './daily-payloads';
import type { DailyLikeParticipant } from './daily-types';
import { LISTENING_SIGNAL, isEndedStatus, parseServerMessage } from './server-message';

export { ASSISTANT_PARTICIPANT_NAME, isAssistantParticipant } from './daily-payloads';
export {
  LISTENING_SIGNAL,
  PLAYABLE_SIGNAL,
  isEndedStatus,
  parseServerMessage,
} from './server-message';

/** What one app message from the assistant means. */
export type AssistantSignal =
  | { kind: 'listening' }
  | { kind: 'message'; message: ServerMessage; ended: boolean }
  | { kind: 'unreadable' };

export function readAssistantMessage(data: unknown): AssistantSignal {
  if (data === LISTENING_SIGNAL) return { kind: 'listening' };
  const message = parseServerMessage(data);
  return message
    ? { kind: 'message', message, ended: isEndedStatus(message) }
    : { kind: 'unreadable' };
}

/** The app message a client message travels as. */
export function encodeClientMessage(message: ClientMessage | string): string {
  return typeof message === 'string' ? message : JSON.stringify(message);
}

/** Asks the assistant to say its first message once a video recording has started. */
export function sayFirstMessageAfterRecording(requestedAt: number, now: number): ClientMessage {
  return {
    type: 'control',
    control: 'say-first-message',
    videoRecordingStartDelaySeconds: (now - requestedAt) / 1000,
  };
}

/** What the page says to close the call when the visitor has not heard the server end it. */
export const CUSTOMER_ENDED: ServerMessage = {
  type: 'status-update',
  status: 'ended',
  endedReason: 'customer-ended-call',
};

/**
 * The sender Daily names for app messages that the room's server sends (Daily's REST
 * `send-app-message`), which is one way the provider's side may speak in the room.
 */
export const ROOM_SERVER_SENDER = 'API';

/**
 * Who speaks for the assistant. Its name marks a candidate, but once the call has started no
 * newcomer becomes the assistant while one is known: anyone can pick a name. Which sender the
 * provider's messages come from is not documented (the assistant's participant, the room's server,
 * a provider participant whose `participant-joined` has not arrived yet), so all of them count
 * until a remote participant has shown to be someone else (a second visitor, a newcomer posing as
 * the assistant): from then on only the assistant and the room's server do, and that participant
 * never does.
 */
export class AssistantRecogniser {
  private readonly ids = new Set<string>();
  private readonly others = new Set<string>();

  /** Whether `participant` is the assistant; `callStarted` closes the door to newcomers. */
  recognise(
    participant: DailyLikeParticipant,
    callStarted: boolean,
    onImpostor: (sessionId: string) => void,
  ): boolean {
    const id = participant.session_id;
    if (this.ids.has(id)) return true;
    if (participant.local) return false;
    if (!isAssistantParticipant(participant)) {
      this.others.add(id);
      return false;
    }
    if (this.others.has(id) || (callStarted && this.ids.size > 0)) {
      this.others.add(id);
      onImpostor(id);
      return false;
    }
    this.ids.add(id);
    return true;
  }

  /** Whether messages from this sender count. */
  speaksForAssistant(sessionId: string): boolean {
    if (this.ids.has(sessionId) || sessionId === ROOM_SERVER_SENDER) return true;
    return this.others.size === 0;
  }

  /** The participant left; true when it was the last assistant (the assistant is gone). */
  left(sessionId: string): boolean {
    return this.ids.delete(sessionId) && this.ids.size === 0;
  }

  /** A fresh room: nobody is known yet. */
  clear(): void {
    this.ids.clear();
    this.others.clear();
  }
}
