/**
 * A reply's stream, relayed: the engine's server-sent events (the provider's chat, or the model
 * endpoint's chunks) read as they come and passed on as the gate's own (Pepa's words, then `done`
 * or `failed`), a comment every second while the engine is quiet (a write that finds the visitor
 * gone), and the reply settled once however it ends: finished, broken off, ended at the gate's
 * own bounds, or stopped by the visitor.
 */
import type { ChatStreamEvent } from '../../../../generated/gate/types.gen';
import { EventStreamReader, eventOf } from './event-stream';
import { STATUS } from '../../floor/problem';
import type { ReplyPiece } from '../../floor/turn-retries';

/** The engine may pause this long between two pieces of a reply before it is given up. */
export const STREAM_IDLE_MS = 20_000;
/** While the engine is quiet, the stream says so this often (and finds a visitor gone). */
export const HEARTBEAT_MS = 1000;

/**
 * The most of one reply the gate relays, in characters (code points). Pepa's `maxTokens` (150,
 * assistant/pepa.ts) makes some 600 characters of prose; this bound is the gate's own, should the
 * provider or the assistant's settings let a reply run on. Past it the reply is ended.
 */
export const REPLY_MAX_CHARS = 1200;
/** The longest a reply may take from the engine's first answer before the gate ends it. */
export const REPLY_MAX_MS = 30_000;

/**
 * The head of `text` that fits in `room` characters (code points), cut between graphemes: a
 * letter and its marks, or an emoji sequence, are never parted.
 */
export function headWithin(text: string, room: number): string {
  let head = '';
  let used = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(
    text,
  )) {
    const size = [...segment].length;
    if (used + size > room) break;
    head += segment;
    used += size;
  }
  return head;
}

/** How a reply ended. */
export type ReplyEnd = 'done' | 'failed' | 'stopped';

/** How an engine's `data:` lines are read; null for a line that is not one of its pieces. */
export type PieceReader = (data: string) => ReplyPiece | null;

/** How a reply ended, and what the engine told of it on the way. */
export interface ReplyOutcome {
  how: ReplyEnd;
  /** The reply's id at the engine, from the first piece that named one. */
  replyId: string | null;
  /** What was relayed to the visitor: Pepa's words as the gate passed them on. */
  said: string;
  /** The last usage the stream reported, if it reported one. */
  usage: unknown;
}

/** A reply settled: the messages its chat may still send, and the reply's place in the chat. */
export interface ReplySettled {
  turnsLeft: number;
  remark: number;
}

/**
 * The visitor's stream of `upstream`, whose `data:` lines `read` understands. `settle` is called
 * once, with how the reply ended and what the stream told; it answers the turns left.
 * `controller` aborts the engine's request.
 */
export function relayReply(
  upstream: ReadableStream<Uint8Array>,
  controller: AbortController,
  read: PieceReader,
  settle: (outcome: ReplyOutcome) => Promise<ReplySettled>,
): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const events = new EventStreamReader();
  let replyId: string | null = null;
  let usage: unknown = null;
  let said = '';
  let saidChars = 0;
  const startedAt = Date.now();
  let finishing: Promise<ReplySettled> | null = null;
  const finish = (how: ReplyEnd): Promise<ReplySettled> => {
    finishing ??= settle({ how, replyId, said, usage });
    return finishing;
  };
  /** The engine's next piece, or 'idle' when none came in time; a read once begun is kept. */
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  let quietSince = Date.now();
  const readWithin = async (): Promise<ReadableStreamReadResult<Uint8Array> | 'idle' | 'tick'> => {
    pending ??= reader.read();
    let timer: number | undefined;
    const tick = new Promise<'tick'>((done) => {
      timer = setTimeout(() => done('tick'), HEARTBEAT_MS);
    });
    try {
      const next = await Promise.race([pending, tick]);
      if (next === 'tick') return Date.now() - quietSince >= STREAM_IDLE_MS ? 'idle' : 'tick';
      pending = null;
      quietSince = Date.now();
      return next;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  };
  const send = (out: ReadableStreamDefaultController<Uint8Array>, event: ChatStreamEvent) =>
    out.enqueue(encoder.encode(eventOf(event)));
  const failed = (detail = "Pepa's text service broke off her reply"): ChatStreamEvent => ({
    type: 'failed',
    problem: {
      code: 'provider-error',
      title: 'The voice service could not create the call',
      status: STATUS['provider-error'],
      detail,
    },
  });
  /**
   * The reply passed a bound of the gate's own: the engine's request ends, and the visitor is
   * told as for a reply broken off. What was relayed stands, is recorded, and is charged.
   */
  const endAtBound = async (out: ReadableStreamDefaultController<Uint8Array>, bound: string) => {
    console.warn(`gate: a reply passed the gate's bound on its ${bound} and was ended`);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    await finish('failed');
    send(out, failed(`Pepa's reply ran past the longest the gate lets one run (${bound})`));
    out.close();
  };
  return new ReadableStream<Uint8Array>({
    pull: async (out) => {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof readWithin>>;
        try {
          chunk = await readWithin();
        } catch {
          if (controller.signal.aborted) {
            // Stopped: the visitor left, or ended the chat.
            await finish('stopped');
            out.close();
            return;
          }
          chunk = 'idle';
        }
        // Time is checked before anything more is relayed: a piece that comes late is not.
        if (Date.now() - startedAt >= REPLY_MAX_MS) {
          await endAtBound(out, 'time');
          return;
        }
        if (chunk === 'tick') {
          // A comment while Pepa thinks: a visitor who left is found at the next write.
          out.enqueue(encoder.encode(': writing\n\n'));
          return;
        }
        if (chunk === 'idle') {
          await reader.cancel().catch(() => undefined);
          await finish('failed');
          send(out, failed());
          out.close();
          return;
        }
        const datas = chunk.done
          ? [...events.feed(decoder.decode()), ...events.end()]
          : events.feed(decoder.decode(chunk.value, { stream: true }));
        let sent = false;
        let ended = chunk.done;
        let tooLong = false;
        for (const data of datas) {
          if (data.trim() === '[DONE]') {
            ended = true;
            continue;
          }
          const piece = read(data);
          if (!piece) continue;
          if (piece.id) replyId ??= piece.id;
          if (piece.usage !== null && piece.usage !== undefined) usage = piece.usage;
          if (piece.words) {
            const size = [...piece.words].length;
            tooLong = saidChars + size > REPLY_MAX_CHARS;
            const words = tooLong
              ? headWithin(piece.words, REPLY_MAX_CHARS - saidChars)
              : piece.words;
            if (words) {
              said += words;
              saidChars += tooLong ? [...words].length : size;
              send(out, { type: 'words', text: words });
              sent = true;
            }
            if (tooLong) break;
          }
        }
        if (tooLong) {
          await endAtBound(out, 'length');
          return;
        }
        if (ended) {
          await reader.cancel().catch(() => undefined);
          const outcome = said ? 'done' : 'failed';
          const { turnsLeft, remark } = await finish(outcome);
          send(out, outcome === 'done' ? { type: 'done', turnsLeft, remark } : failed());
          out.close();
          return;
        }
        if (sent) return;
      }
    },
    cancel: async () => {
      // The visitor stopped the reply or left: the engine's request ends now.
      controller.abort();
      await reader.cancel().catch(() => undefined);
      await finish('stopped');
    },
  });
}
