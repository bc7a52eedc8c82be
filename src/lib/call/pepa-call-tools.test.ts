import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { START_TIME, createHarness, expectNothingLeft, flush } from './test/call-harness';
import { ASSISTANT, FakeMediaStream } from './test/fake-daily';

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
  }
});

const TOOL_CALLS = JSON.stringify({
  type: 'tool-calls',
  toolCallList: [{ id: 't1', type: 'function', function: { name: 'show_buy', arguments: '{}' } }],
  toolWithToolCallList: [],
});

describe("Pepa's tool calls reach the page only from Pepa", () => {
  it('hands a tool-calls message from the assistant to listeners', async () => {
    const h = createHarness();
    await h.connect();
    h.clearEvents();
    h.daily().emit('app-message', { data: TOOL_CALLS, fromId: ASSISTANT.session_id });
    await flush();
    expect(h.events).toEqual([['message', JSON.parse(TOOL_CALLS)]]);
    await h.call.stop();
  });

  it.each([
    ['a second visitor in the room', 'stranger-7', 'guest'],
    ["a newcomer who takes the assistant's name", 'impostor-9', ASSISTANT.user_name],
  ])('drops a tool-calls message from %s with a debug log', async (_who, fromId, userName) => {
    const debug = vi.fn();
    const h = createHarness({ logger: { warn: vi.fn(), error: vi.fn(), debug } });
    await h.connect();
    h.daily().emit('participant-joined', {
      participant: { session_id: fromId, user_name: userName, local: false },
    });
    h.clearEvents();
    h.daily().emit('app-message', { data: TOOL_CALLS, fromId });
    await flush();
    expect(h.events).toEqual([]);
    expect(debug).toHaveBeenCalledWith(expect.stringMatching(/not the assistant/), fromId);
    await h.call.stop();
  });
});
