import type {
  CallError,
  CameraErrorInfo,
  NetworkConnection,
  NetworkQuality,
  ParticipantSummary,
} from './call-events';
import type { DailyLikeEvents, DailyLikeParticipant } from './daily-types';

/** The provider's assistant joins the room under this name. */
export const ASSISTANT_PARTICIPANT_NAME = 'Vapi Speaker';

export function isAssistantParticipant(participant: DailyLikeParticipant | null): boolean {
  return (
    participant !== null &&
    !participant.local &&
    participant.user_name === ASSISTANT_PARTICIPANT_NAME
  );
}

export function toParticipantSummary(participant: DailyLikeParticipant): ParticipantSummary {
  return {
    sessionId: participant.session_id,
    userName: participant.user_name,
    local: participant.local,
    audioState: participant.tracks?.audio?.state,
    videoState: participant.tracks?.video?.state,
  };
}

export function toCameraErrorInfo(payload: DailyLikeEvents['camera-error']): CameraErrorInfo {
  return {
    errorType: payload.error?.type ?? 'unknown',
    message: payload.error?.msg ?? payload.errorMsg.errorMsg,
    blockedMedia: payload.error?.blockedMedia,
  };
}

/** True when a camera error means the microphone was refused (not merely the camera). */
export function isMicrophoneDenied(payload: DailyLikeEvents['camera-error']): boolean {
  if (payload.error?.type !== 'permissions') return false;
  const blocked = payload.error.blockedMedia;
  return blocked === undefined || blocked.includes('audio');
}

/** True when a thrown value is the browser's refusal of a media permission. */
export function isPermissionDeniedError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error.name === 'NotAllowedError' || error.name === 'PermissionDeniedError')
  );
}

const NETWORK_STATES = new Set<NetworkQuality['state']>(['good', 'warning', 'bad', 'unknown']);

export function toNetworkQuality(
  payload: DailyLikeEvents['network-quality-change'],
): NetworkQuality {
  const state = NETWORK_STATES.has(payload.networkState as NetworkQuality['state'])
    ? (payload.networkState as NetworkQuality['state'])
    : 'unknown';
  return { state, reasons: payload.networkStateReasons ?? [] };
}

export function toNetworkConnection(
  payload: DailyLikeEvents['network-connection'],
): NetworkConnection {
  return { connectionType: payload.type, event: payload.event };
}

export function toDailyError(payload: DailyLikeEvents['error']): CallError {
  return {
    type: 'daily-error',
    dailyErrorType: payload.error?.type ?? 'unknown',
    message: payload.errorMsg,
    cause: payload.error,
  };
}

/** Text of whatever was thrown, for an error's `message`. */
export function describeError(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    if (typeof error.message === 'string') return error.message;
  }
  return String(error);
}
