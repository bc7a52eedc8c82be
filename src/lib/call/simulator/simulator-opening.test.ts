import { PEPA_DEMO_PERSONA } from '../../../config/pepa-persona';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { START_TIME, createHarness, expectNothingLeft } from '../test/call-harness';
import { FakeMediaStream } from '../test/fake-daily';
import { createSimulatorFactory, type SimulatorOptions } from './room-simulator';
import { createFakeAudio, createFakeGetUserMedia } from './test/simulator-fakes';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START_TIME);
  vi.stubGlobal('MediaStream', FakeMediaStream);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});

afterEach(async () => {
  try {
    await expectNothingLeft();
  } finally {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  }
});

const ROOM = 'https://pepa.daily.co/room-1';
const FROM_THE_CHAT = 'Ribbit, now we can talk by voice! Carrying on from our chat: where were we?';

/** Joins a simulated room with `openingFor`; resolves Pepa's first remark there, as recorded. */
async function firstRemarkWith(openingFor: SimulatorOptions['openingFor']) {
  const onSpoken = vi.fn();
  const createDailyCall = createSimulatorFactory({
    persona: PEPA_DEMO_PERSONA,
    audio: createFakeAudio().factory,
    getUserMedia: createFakeGetUserMedia().getUserMedia,
    onSpoken,
    ...(openingFor ? { openingFor } : {}),
  });
  const h = createHarness({ createDailyCall });
  void h.call.start('assistant-1');
  await vi.advanceTimersByTimeAsync(800 + 300 + 2000 + 100);
  await h.call.stop();
  const [room, said] = (onSpoken.mock.calls[0] ?? []) as [
    string,
    { role: string; message: string },
  ];
  expect(room).toBe(ROOM);
  expect(said.role).toBe('bot');
  return said.message;
}

describe("the simulated room's first remark", () => {
  it('is the one the provider says its model wrote for a call handed a chat', async () => {
    const openingFor = vi.fn(async () => FROM_THE_CHAT);
    expect(await firstRemarkWith(openingFor)).toBe(FROM_THE_CHAT);
    expect(openingFor).toHaveBeenCalledWith(ROOM);
  });

  it("is the persona's first message when the provider has none, cannot say, or was not asked", async () => {
    expect(await firstRemarkWith(async () => null)).toBe(PEPA_DEMO_PERSONA.firstMessage);
    expect(await firstRemarkWith(() => Promise.reject(new Error('offline')))).toBe(
      PEPA_DEMO_PERSONA.firstMessage,
    );
    expect(await firstRemarkWith(undefined)).toBe(PEPA_DEMO_PERSONA.firstMessage);
  });
});
