/**
 * What a room's events mean for the call: who speaks for Pepa, when the call is over, when the
 * connection is lost and found, and what a fatal error ends. The call object supplies the verbs
 * (close, rejoin, failStart…); this module decides which one each event calls for.
 */
import type { CallError, CallEventName, CallEvents, CallState, StartStage } from './call-events';
import { JOINING_STAGES, type CallLogger, type WebCall } from './call-options';
import type { CallSession } from './call-session';
import { describeError } from './daily-payloads';
import { DailySession } from './daily-session';
import type { DailyLike } from './daily-types';
import { PLAYABLE_SIGNAL, readAssistantMessage, sayFirstMessageAfterRecording } from './protocol';

/** The call object's side of the wiring. */
export interface RoomHost<TCall extends WebCall> {
  readonly logger: CallLogger;
  /** The session is the call object's current one and is not being torn down. */
  isCurrent(session: CallSession<TCall>): boolean;
  state(): CallState;
  /** Started, or reconnecting: a call a blip does not end. */
  inCall(): boolean;
  emit<K extends CallEventName>(type: K, payload: CallEvents[K]): void;
  failStart(session: CallSession<TCall>, stage: StartStage, error: CallError): void;
  close(session: CallSession<TCall>): Promise<void>;
  /** The call is over: close it unless the room does first. */
  closeSoon(session: CallSession<TCall>): void;
  rejoin(session: CallSession<TCall>): Promise<void>;
  connectionLost(session: CallSession<TCall>): void;
  connectionBack(session: CallSession<TCall>): void;
}

function ignoreImpostor(logger: CallLogger): (sessionId: string) => void {
  return (sessionId) => logger.debug?.('Ignored a participant posing as the assistant', sessionId);
}

async function turnOffAudioProcessor<TCall extends WebCall>(
  host: RoomHost<TCall>,
  session: CallSession<TCall>,
  room: DailySession,
): Promise<void> {
  try {
    await room.turnOffAudioProcessor();
    // Re-enabled only for a visitor who is not muted: mute is the visitor's alone.
    if (session.teardown || session.muted) return;
    room.daily.setLocalAudio(true);
  } catch (error) {
    if (session.teardown) return;
    host.emit('error', {
      type: 'audio-processing-setup-error',
      message: describeError(error),
      cause: error,
    });
  }
}

/** Attaches a call object's room events to `session`. */
export function attachRoom<TCall extends WebCall>(
  host: RoomHost<TCall>,
  session: CallSession<TCall>,
  daily: DailyLike,
): DailySession {
  const room = new DailySession(daily, () => host.isCurrent(session), host.logger);
  session.room = room;
  const inCall = () => host.inCall();
  const onImpostor = ignoreImpostor(host.logger);

  room.on('left', () => {
    if (host.state() === 'reconnecting') void host.rejoin(session);
    else if (inCall()) void host.close(session);
    else
      host.failStart(session, session.pipeline.stage, {
        type: 'start-method-error',
        message: 'The meeting ended before the assistant was ready',
      });
  });
  room.on('fatal-error', ({ error, cause, connectionLost }) => {
    if (!inCall()) {
      // Until the join has completed, a fatal Daily error is the join failing.
      const joining = JOINING_STAGES.has(session.pipeline.stage);
      host.failStart(
        session,
        session.pipeline.stage,
        joining ? { type: 'daily-call-join-error', message: error.message, cause } : error,
      );
      return;
    }
    if (session.endedStatusSeen) {
      // The server has ended the call: the room closing behind it (an ejection, the meeting
      // ended) is the goodbye, not a failure the visitor should hear about.
      host.logger.debug?.('The room closed after the call ended', error.message);
      void host.close(session);
      return;
    }
    if (connectionLost) {
      // The connection is gone for good: rejoin the room rather than end the call.
      void host.rejoin(session);
      return;
    }
    host.emit('error', error);
    void host.close(session);
  });
  room.on('participant-joined', (participant) => {
    session.assistant.recognise(participant, inCall(), onImpostor);
    const webCall = session.webCall;
    const video =
      webCall?.artifactPlan?.videoRecordingEnabled === true ||
      webCall?.assistant?.voice?.provider === 'tavus';
    room.subscribe(participant.session_id, video);
  });
  room.on('participant-updated', (summary) => host.emit('daily-participant-updated', summary));
  room.on('participant-left', (participant) => {
    // Pepa left: the call is over, whether or not the room closes.
    if (session.assistant.left(participant.session_id) && inCall()) host.closeSoon(session);
    session.audio.remove(participant.session_id);
  });
  room.on('track', ({ participant, track, kind }) => {
    if (!session.assistant.recognise(participant, inCall(), onImpostor)) return;
    if (kind === 'audio') session.audio.play(participant.session_id, track);
    else host.emit('video', { track, participantId: participant.session_id });
  });
  room.on('app-message', ({ data, fromId }) => {
    // Only Pepa speaks for Pepa: someone else in the room is ignored, whatever they send.
    if (!session.assistant.speaksForAssistant(fromId)) {
      host.logger.debug?.(
        'Ignored an app message from a participant who is not the assistant',
        fromId,
      );
      return;
    }
    const signal = readAssistantMessage(data);
    if (signal.kind === 'listening') {
      session.listening.settle();
      return;
    }
    if (signal.kind === 'unreadable') {
      host.logger.warn('Ignored an app message that is not a JSON server message', data);
      return;
    }
    if (signal.ended) session.endedStatusSeen = true;
    host.emit('message', signal.message);
    if (signal.ended && inCall()) host.closeSoon(session);
  });
  room.on('remote-levels', (levels) => session.speech.levels(levels));
  room.on('local-level', (volume) => host.emit('local-volume-level', { volume }));
  room.on('recording-started', () => {
    const requestedAt = room.takeRecordingRequestTime();
    if (requestedAt !== null) room.send(sayFirstMessageAfterRecording(requestedAt, Date.now()));
  });
  room.on('recording-error', ({ message }) =>
    host.emit('error', { type: 'video-recording-setup-error', message }),
  );
  room.on('audio-processor-error', () => void turnOffAudioProcessor(host, session, room));
  room.on('camera-error', ({ info, microphoneDenied }) => {
    host.emit('camera-error', info);
    if (!microphoneDenied) return;
    if (inCall()) host.emit('error', microphoneDenied);
    else host.failStart(session, session.pipeline.stage, microphoneDenied);
  });
  room.on('network-quality', (quality) => host.emit('network-quality-change', quality));
  room.on('network-connection', (connection) => {
    host.emit('network-connection', connection);
    if (!inCall()) return;
    if (connection.event === 'interrupted') host.connectionLost(session);
    else if (connection.event === 'connected') host.connectionBack(session);
  });
  return room;
}

/** What the assistant's audio reports mean for the call: a blocked start waits on the visitor. */
export function wireAudio<TCall extends WebCall>(
  session: CallSession<TCall>,
  host: {
    starting(): boolean;
    armStartTimeout(): void;
    emit<K extends CallEventName>(type: K, payload: CallEvents[K]): void;
  },
): void {
  const { audio } = session;
  audio.on('blocked', ({ participantId, message, cause }) => {
    if (session.teardown) return;
    // While the start waits on the visitor's tap, its timeout is paused: it measures the
    // service, not the visitor.
    if (host.starting()) session.pipeline.pauseTimeout();
    host.emit('error', { type: 'audio-playback-blocked', participantId, message, cause });
  });
  audio.on('resumed', () => {
    if (session.teardown) return;
    if (host.starting() && session.pipeline.stage !== 'queued') host.armStartTimeout();
    host.emit('audio-playback-resumed', undefined);
  });
  audio.on('playable', () => {
    if (!session.teardown) session.room?.send(PLAYABLE_SIGNAL);
  });
}
