import { describe, expect, it, vi } from 'vitest';
import { readPageToolCalls, visitorSeesNote } from './page-tools';
import { toolCalls } from '../test/fake-voice-call';

function read(message: Parameters<typeof readPageToolCalls>[0]) {
  const log = { debug: vi.fn() };
  return { calls: readPageToolCalls(message, log), debug: log.debug };
}

describe("Pepa's tool calls on the page", () => {
  it('reads the three tools with their allowed arguments, in order', () => {
    const { calls, debug } = read(
      toolCalls(
        { name: 'show_section', arguments: { section: 'pond' }, id: 'a' },
        { name: 'show_contract', id: 'b' },
        { name: 'show_buy', id: 'c' },
      ),
    );
    expect(calls).toEqual([
      { id: 'a', name: 'show_section', section: 'pond' },
      { id: 'b', name: 'show_contract' },
      { id: 'c', name: 'show_buy' },
    ]);
    expect(debug).not.toHaveBeenCalled();
  });

  it('accepts every section of the allowlist, and arguments given as an object', () => {
    for (const section of ['home', 'talk', 'pond', 'stream', 'lounge', 'grotto']) {
      const message = toolCalls({ name: 'show_section' });
      // Some payloads carry the arguments already parsed.
      (message.toolCallList as Array<{ function: { arguments: unknown } }>)[0]!.function.arguments =
        { section };
      expect(read(message).calls).toEqual([{ id: 'call_0', name: 'show_section', section }]);
    }
  });

  it.each([
    ['an unknown tool', { name: 'open_wallet', arguments: {} }, 'does not have'],
    [
      'a section outside the allowlist',
      { name: 'show_section', arguments: { section: 'footer' } },
      'allowlist',
    ],
    [
      'a selector instead of a section',
      { name: 'show_section', arguments: { section: '#pond, body' } },
      'allowlist',
    ],
    ['a missing section', { name: 'show_section', arguments: {} }, 'allowlist'],
    [
      'an extra argument',
      { name: 'show_section', arguments: { section: 'pond', url: 'https://x.io' } },
      'allowlist',
    ],
    [
      'an argument to show_buy',
      { name: 'show_buy', arguments: { url: 'https://evil.example' } },
      'allowlist',
    ],
    ['arguments that do not parse', { name: 'show_contract', arguments: '{nope' }, 'do not parse'],
    [
      'arguments that are not an object',
      { name: 'show_contract', arguments: '[1]' },
      'do not parse',
    ],
  ])('drops %s with a debug log', (_what, call, reason) => {
    const { calls, debug } = read(toolCalls(call));
    expect(calls).toEqual([]);
    expect(debug).toHaveBeenCalledTimes(1);
    expect(debug.mock.calls[0]?.[0]).toContain(reason);
  });

  it('keeps the allowed calls of a message that also holds a bad one', () => {
    const { calls, debug } = read(
      toolCalls({ name: 'eval', arguments: {} }, { name: 'show_contract', id: 'ok' }),
    );
    expect(calls).toEqual([{ id: 'ok', name: 'show_contract' }]);
    expect(debug).toHaveBeenCalledTimes(1);
  });

  it('never logs the arguments, which could hold anything', () => {
    const { debug } = read(
      toolCalls({ name: 'show_section', arguments: { section: 'secret words here' } }),
    );
    expect(JSON.stringify(debug.mock.calls)).not.toContain('secret words here');
  });

  it('reads nothing from other messages, and drops a tool-calls message without a list', () => {
    expect(read({ type: 'transcript', role: 'assistant' }).calls).toEqual([]);
    const { calls, debug } = read({ type: 'tool-calls' });
    expect(calls).toEqual([]);
    expect(debug).toHaveBeenCalledTimes(1);
  });

  it('tells Pepa what the visitor now sees, and never the address itself', () => {
    expect(visitorSeesNote({ id: '1', name: 'show_section', section: 'pond' })).toMatch(
      /Pepa's Pond/,
    );
    expect(visitorSeesNote({ id: '1', name: 'show_contract' })).toMatch(/card/);
    expect(visitorSeesNote({ id: '1', name: 'show_contract' })).not.toMatch(
      /[1-9A-HJ-NP-Za-km-z]{32}/,
    );
    expect(visitorSeesNote({ id: '1', name: 'show_buy' })).toMatch(/until they press it/);
  });
});
