/**
 * Joining a web call's room: the start's stages from the room URL check to the assistant's
 * `listening`, and the rejoin after a lost connection. The call object owns the status and the
 * session; this module owns the order of the stages and what each failure is called.
 */
import {
  MOBILE_JOIN_DELAY_MS,
  isMobileUserAgent,
  type CallLogger,
  type PepaCallOptions,
  type WebCall,
} from './call-options';
import type { CallSession } from './call-session';
import { describeError } from './daily-payloads';
import type { DailySession } from './daily-session';
import type { DailyCallFactory, DailyLike } from './daily-types';
import { callObjectOptions } from './device-memory';
import { joinFailure } from './join-failure';
import { checkRoomUrl, meetingTokenOf, roomUrlOf } from './room-url';
import { StageFailure, StartCancelled } from './start-pipeline';
import type { CallError } from './call-events';
import type { EarlyStart } from './early-start';

/** What joining needs from the call object. */
export interface JoinHost<TCall extends WebCall> {
  readonly options: PepaCallOptions<TCall>;
  readonly roomHosts: readonly string[];
  readonly userAgent: string;
  readonly logger: CallLogger;
  /** Attaches a call object's events to the session (room-wiring.ts). */
  attachRoom(session: CallSession<TCall>, daily: DailyLike): DailySession;
}

/** Destroys a call object nobody will use, logging (never throwing) a failure. */
export function destroyQuietly(daily: DailyLike, logger: CallLogger): void {
  Promise.resolve()
    .then(() => daily.destroy())
    .catch((error: unknown) => logger.warn('Destroying the call object failed', error));
}

/** Creates the call object and its session; one that arrives after a stop is destroyed. */
async function createRoom<TCall extends WebCall>(
  host: JoinHost<TCall>,
  session: CallSession<TCall>,
  options: Parameters<DailyCallFactory>[0],
): Promise<DailySession> {
  const pending = host.options.createDailyCall(options);
  let daily: DailyLike;
  try {
    daily = await session.pipeline.untilCancelled(pending);
  } catch (error) {
    if (error instanceof StartCancelled) {
      pending.then(
        (late) => destroyQuietly(late, host.logger),
        () => undefined,
      );
    }
    throw error;
  }
  if (session.pipeline.cancelled) {
    destroyQuietly(daily, host.logger);
    throw new StartCancelled();
  }
  return host.attachRoom(session, daily);
}

/**
 * From the web call to the assistant listening: the room URL is checked before anything is
 * loaded or joined (a hostile or drifted answer must not take the visitor's microphone to a room
 * elsewhere), then the call object, the join and the set-up stages.
 *
 * With `early` (an overlapped start), the phone's wait and the microphone began at the tap: the
 * join waits for what is left of them, the call object gets the microphone's track, and the
 * room's set-up runs beside the wait for `listening` instead of before it. Without it, every
 * stage runs after the last, the microphone opened by the join.
 */
export async function joinRoom<TCall extends WebCall>(
  host: JoinHost<TCall>,
  session: CallSession<TCall>,
  webCall: TCall,
  early: EarlyStart | null = null,
): Promise<void> {
  const { pipeline } = session;
  const room = checkRoomUrl(roomUrlOf(webCall), host.roomHosts);
  if (!room.ok) {
    throw new StageFailure(pipeline.stage, {
      type: 'room-url-refused',
      reason: room.reason,
      message: `Refused to join the room URL (${room.reason}): ${room.url.slice(0, 200)}`,
    });
  }
  session.roomUrl = room.url;
  const videoRecordingEnabled = webCall.artifactPlan?.videoRecordingEnabled === true;
  const mobileWaitError = (error: unknown): CallError => ({
    type: 'start-method-error',
    message: describeError(error),
    cause: error,
  });

  if (early) {
    const { wait, microphone } = early;
    if (wait) await pipeline.run('mobile-wait', () => wait, mobileWaitError);
    if (microphone) {
      try {
        await pipeline.untilCancelled(microphone);
      } catch (error) {
        if (error instanceof StartCancelled) throw error;
        throw new StageFailure('join', joinFailure(error));
      }
    }
  }

  const options = callObjectOptions(host.options, session);
  const daily = await pipeline.run(
    'call-object-creation',
    () => createRoom(host, session, options),
    (error) => ({
      type: 'daily-call-object-creation-error',
      message: describeError(error),
      cause: error,
    }),
  );

  if (!early && isMobileUserAgent(host.userAgent)) {
    await pipeline.run(
      'mobile-wait',
      () =>
        new Promise<void>((resolve) =>
          session.timers.set('mobile-wait', MOBILE_JOIN_DELAY_MS, resolve),
        ),
      mobileWaitError,
    );
  }

  const token = meetingTokenOf(webCall);
  if (videoRecordingEnabled && token) daily.recordWithToken();
  await pipeline.run('join', () => daily.join(room.url, token), joinFailure);

  // The recording is asked for before the join when the provider's meeting token starts it.
  const recordAfterJoin = videoRecordingEnabled && !token;
  if (early) {
    // Beside the wait for `listening`: none of it is needed for Pepa to hear and answer.
    void setUpAside(session, daily, recordAfterJoin);
  } else {
    if (recordAfterJoin) {
      await pipeline.runOptional('video-recording-setup', 'video-recording-setup-error', () =>
        daily.startRecording(),
      );
    }
    await pipeline.runOptional('audio-observer-setup', 'audio-observer-setup-error', () =>
      daily.startRemoteLevelObserver(),
    );
    await pipeline.runOptional('audio-processing-setup', 'audio-processing-setup-error', () =>
      daily.useNoiseCancellation(),
    );
    // Only now: daily-session.ts says why.
    await pipeline.runOptional('audio-observer-setup', 'audio-observer-setup-error', () =>
      daily.startLocalLevelObserver(),
    );
  }
  await pipeline.run(
    'assistant-ready',
    () => session.listening.promise,
    (error) => ({ type: 'start-method-error', message: describeError(error), cause: error }),
  );
}

/**
 * The room's set-up in an overlapped start, in its own order: the recording, Pepa's level
 * observer, noise cancellation, and only once noise cancellation has settled the microphone's
 * level observer (started earlier, it would watch the track the processor then replaces).
 */
async function setUpAside<TCall extends WebCall>(
  session: CallSession<TCall>,
  daily: DailySession,
  recordAfterJoin: boolean,
): Promise<void> {
  const { pipeline } = session;
  if (recordAfterJoin) {
    await pipeline.runAside('video-recording-setup', 'video-recording-setup-error', () =>
      daily.startRecording(),
    );
  }
  await pipeline.runAside('audio-observer-setup', 'audio-observer-setup-error', () =>
    daily.startRemoteLevelObserver(),
  );
  await pipeline.runAside('audio-processing-setup', 'audio-processing-setup-error', () =>
    daily.useNoiseCancellation(),
  );
  await pipeline.runAside('audio-observer-setup', 'audio-observer-setup-error', () =>
    daily.startLocalLevelObserver(),
  );
}

/**
 * Joins the session's room again with a fresh call object, after the previous one has been let
 * go. Resolves false when the session was torn down meanwhile; rejects when the rejoin fails.
 */
export async function rejoinRoom<TCall extends WebCall>(
  host: JoinHost<TCall>,
  session: CallSession<TCall>,
  roomUrl: string,
): Promise<boolean> {
  const daily = await host.options.createDailyCall(callObjectOptions(host.options, session));
  if (session.teardown) {
    destroyQuietly(daily, host.logger);
    return false;
  }
  const room = host.attachRoom(session, daily);
  await room.join(roomUrl, meetingTokenOf(session.webCall));
  if (session.muted) daily.setLocalAudio(false);
  await room.startLevelObservers();
  return !session.teardown;
}
