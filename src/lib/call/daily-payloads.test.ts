import { describe, expect, it } from 'vitest';
import {
  isAssistantParticipant,
  isMicrophoneDenied,
  isPermissionDeniedError,
  toNetworkQuality,
} from './daily-payloads';

describe('Daily payload conversion', () => {
  it('recognises the assistant only by its exact name on a remote participant', () => {
    expect(
      isAssistantParticipant({ session_id: 'a', user_name: 'Vapi Speaker', local: false }),
    ).toBe(true);
    expect(
      isAssistantParticipant({ session_id: 'a', user_name: 'vapi speaker', local: false }),
    ).toBe(false);
    expect(
      isAssistantParticipant({ session_id: 'a', user_name: 'Vapi Speaker', local: true }),
    ).toBe(false);
    expect(isAssistantParticipant(null)).toBe(false);
  });

  it('tells a denied microphone from a denied camera', () => {
    const denied = (blockedMedia?: string[]) => ({
      errorMsg: { errorMsg: 'denied' },
      error: { type: 'permissions', blockedMedia },
    });
    expect(isMicrophoneDenied(denied(['audio']))).toBe(true);
    expect(isMicrophoneDenied(denied())).toBe(true);
    expect(isMicrophoneDenied(denied(['video']))).toBe(false);
    expect(isMicrophoneDenied({ errorMsg: { errorMsg: 'x' }, error: { type: 'not-found' } })).toBe(
      false,
    );
    expect(isPermissionDeniedError(new DOMException('no', 'NotAllowedError'))).toBe(true);
    expect(isPermissionDeniedError(new Error('no'))).toBe(false);
  });

  it('maps unknown network states to unknown', () => {
    expect(toNetworkQuality({ networkState: 'bad' })).toEqual({ state: 'bad', reasons: [] });
    expect(toNetworkQuality({ networkState: 'weird' })).toEqual({ state: 'unknown', reasons: [] });
  });
});
