/**
 * The setting every test of the call object runs in, for the files that split its tests by
 * subject: a fake clock at the harness's start time, a faked MediaStream, and audio elements
 * whose play() resolves at once unless the test says otherwise; each test ends with nothing left
 * behind.
 */
import { afterEach, beforeEach, vi, type MockInstance } from 'vitest';
import { START_TIME, expectNothingLeft } from './call-harness';
import { FakeMediaStream, type FakeDaily } from './fake-daily';

/** An iPhone's user agent: a phone, as the call object tells one. */
export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

/**
 * Sets each test of the calling file in that setting. Returns the play() stub of the test under
 * way, for a test that makes the audio refuse or wait.
 */
export function setUpCallTests(): () => MockInstance<() => Promise<void>> {
  let play: MockInstance<() => Promise<void>> | undefined;
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(START_TIME);
    vi.stubGlobal('MediaStream', FakeMediaStream);
    play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  });
  afterEach(async () => {
    try {
      await expectNothingLeft();
    } finally {
      vi.useRealTimers();
    }
  });
  return () => {
    if (!play) throw new Error('play() is stubbed only while a test runs');
    return play;
  };
}

/** The room's report of how loud each participant is now. */
export function levels(daily: FakeDaily, participantsAudioLevel: Record<string, number>): void {
  daily.emit('remote-participants-audio-level', { participantsAudioLevel });
}
