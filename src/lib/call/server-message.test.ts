import { describe, expect, it } from 'vitest';
import {
  isEndedStatus,
  isSpeechUpdateMessage,
  isTranscriptMessage,
  parseServerMessage,
} from './server-message';

describe('parseServerMessage', () => {
  it('parses JSON objects that carry a string type', () => {
    expect(parseServerMessage('{"type":"hang"}')).toEqual({ type: 'hang' });
  });

  it('returns null for malformed or foreign data', () => {
    for (const data of ['{oops', '42', '"text"', 'null', '[1]', '{"type":3}', 7, undefined]) {
      expect(parseServerMessage(data)).toBeNull();
    }
  });
});

describe('server message guards', () => {
  it('recognise transcripts, speech updates and the ended status', () => {
    const transcript = parseServerMessage(
      '{"type":"transcript","role":"user","transcriptType":"partial","transcript":"hi"}',
    )!;
    expect(isTranscriptMessage(transcript)).toBe(true);
    expect(isTranscriptMessage({ type: 'transcript', role: 'frog' })).toBe(false);
    expect(
      isSpeechUpdateMessage({ type: 'speech-update', status: 'started', role: 'assistant' }),
    ).toBe(true);
    expect(isEndedStatus({ type: 'status-update', status: 'ended' })).toBe(true);
    expect(isEndedStatus({ type: 'status-update', status: 'in-progress' })).toBe(false);
  });
});
