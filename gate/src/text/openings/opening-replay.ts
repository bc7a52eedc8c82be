/**
 * A kept reply, given again: as a stream of the same server-sent events an engine sends, so it is
 * relayed to the visitor by the one relay every reply goes through (text-relay.ts: the gate's own
 * `words` events, then `done` with the chat's turns left and the reply's remark) and recorded as
 * any finished reply is.
 */
import type { ReplyPiece } from '../../floor/turn-retries';

/** The pieces a kept reply is given in: a word and the space after it, as a model streams. */
export function replyPieces(reply: string): string[] {
  return reply.split(/(?<=\s)(?=\S)/u).filter(Boolean);
}

/** The kept reply as an engine's event stream: one event a piece, then the end. */
export function replayedStream(reply: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const events = [...replyPieces(reply).map((words) => JSON.stringify(words)), '[DONE]'];
  return new ReadableStream<Uint8Array>({
    pull(out) {
      const next = events.shift();
      if (next === undefined) out.close();
      else out.enqueue(encoder.encode(`data: ${next}\n\n`));
    },
  });
}

/** How the replayed stream's `data:` lines are read: each one a piece of the kept words. */
export function replayedPiece(data: string): ReplyPiece | null {
  let words: unknown;
  try {
    words = JSON.parse(data);
  } catch {
    return null;
  }
  return typeof words === 'string' ? { id: null, words, usage: null } : null;
}
