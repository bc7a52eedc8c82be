/**
 * What an overlapped start begins at the tap, beside the call request: the microphone (its
 * permission prompt shows at once, and the track it opens is the one the room then sends) and
 * the phone's wait before joining (it runs down while the request is out). The join waits for
 * the room URL, the microphone and the wait, whichever comes last.
 */
import type { CallSession } from './call-session';
import {
  MOBILE_JOIN_DELAY_MS,
  isMobileUserAgent,
  type MicrophoneOpener,
  type WebCall,
} from './call-options';
import { StartCancelled } from './start-pipeline';

/** The parts of an overlapped start that began at the tap. */
export interface EarlyStart {
  /** The visitor's microphone track, or null when the room opens the microphone itself. */
  microphone: Promise<MediaStreamTrack> | null;
  /** The phone's wait before joining; null on a desktop. */
  wait: Promise<void> | null;
}

const ignore = (): void => undefined;

/** Stops every track of a stream nobody will use. */
function release(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

/**
 * Opens the microphone for this session's start. A track that arrives after the start was
 * stopped or failed is stopped at once; one that arrives in time is kept on the session, which
 * stops it in its teardown.
 */
function openMicrophone<TCall extends WebCall>(
  session: CallSession<TCall>,
  open: MicrophoneOpener,
): Promise<MediaStreamTrack> {
  return open({ audio: true }).then((stream) => {
    const track = stream.getAudioTracks()[0];
    for (const other of stream.getTracks()) if (other !== track) other.stop();
    if (session.teardown || session.pipeline.cancelled) {
      release(stream);
      throw new StartCancelled();
    }
    if (!track) throw new DOMException('The microphone gave no audio track', 'NotFoundError');
    session.microphoneTrack = track;
    return track;
  });
}

/**
 * Begins the microphone and the phone's wait. Each promise already has a handler, so a failure
 * nobody awaits yet (the request is still out) is never an unhandled rejection; `onMicrophoneError`
 * is told at once, so a refused microphone ends the start without waiting for the request.
 */
export function beginEarlyStart<TCall extends WebCall>(
  session: CallSession<TCall>,
  options: {
    userAgent: string;
    openMicrophone: MicrophoneOpener | null;
    onMicrophoneError(error: unknown): void;
  },
): EarlyStart {
  let microphone: Promise<MediaStreamTrack> | null = null;
  if (options.openMicrophone) {
    microphone = openMicrophone(session, options.openMicrophone);
    microphone.catch((error: unknown) => {
      if (!(error instanceof StartCancelled)) options.onMicrophoneError(error);
    });
  }
  let wait: Promise<void> | null = null;
  if (isMobileUserAgent(options.userAgent)) {
    wait = new Promise<void>((resolve) =>
      session.timers.set('mobile-wait', MOBILE_JOIN_DELAY_MS, resolve),
    );
    wait.catch(ignore);
  }
  return { microphone, wait };
}

/** The browser's `getUserMedia`, where there is one (none: the call object's join opens it). */
export function defaultMicrophoneOpener(): MicrophoneOpener | null {
  const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (!media || typeof media.getUserMedia !== 'function') return null;
  return (constraints) => media.getUserMedia(constraints);
}

/** The browser's word on the microphone's permission, where the Permissions API knows it. */
export function defaultMicrophonePermission(): (() => Promise<PermissionState | null>) | null {
  const permissions = typeof navigator === 'undefined' ? undefined : navigator.permissions;
  if (!permissions || typeof permissions.query !== 'function') return null;
  return () =>
    permissions.query({ name: 'microphone' as PermissionName }).then(
      (status) => status.state,
      // An engine that does not know the name: nothing is known, the start goes on.
      () => null,
    );
}

/** What a start refused by the browser's word (no prompt, no request) fails with. */
export function deniedByPermission(): DOMException {
  return new DOMException('The microphone permission is denied', 'NotAllowedError');
}
