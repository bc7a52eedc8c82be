import { describe, expect, it } from 'vitest';
import { EventStreamReader, eventOf } from './event-stream';

describe('reading server-sent events', () => {
  it('gives each event its data, however the chunks split lines and line ends', () => {
    const text =
      'data: {"a":1}\r\n\r\n: a comment\ndata: two\ndata: lines\n\nevent: x\ndata: [DONE]\n\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      const reader = new EventStreamReader();
      const events = [...reader.feed(text.slice(0, cut)), ...reader.feed(text.slice(cut))];
      expect(events, `cut at ${cut}`).toEqual(['{"a":1}', 'two\nlines', '[DONE]']);
    }
  });

  it('keeps an event the stream ended before its blank line', () => {
    const reader = new EventStreamReader();
    expect(reader.feed('data: one\n\ndata: la')).toEqual(['one']);
    expect(reader.end()).toEqual(['la']);
  });

  it('ignores fields other than data, and data without a space after its colon is still data', () => {
    const reader = new EventStreamReader();
    expect(reader.feed('id: 7\nretry: 10\ndata:tight\n\n')).toEqual(['tight']);
  });

  it('writes one data line an event', () => {
    expect(eventOf({ type: 'words', text: 'hi\nthere' })).toBe(
      'data: {"type":"words","text":"hi\\nthere"}\n\n',
    );
  });
});
