/**
 * A stand-in for the chat's gate client (src/api/chat-door.ts), for the text part's component
 * tests: the test plays the gate, reply by reply.
 */
import { vi } from 'vitest';
import type { Chat, ChatDoor, ChatPass, ReplyEnd } from '../../../api/chat-door';

/** The chat the fake door gives (each start's id ends with its count). */
export const CHAT: Chat = {
  id: 'chat-0123456789abcdef',
  secret: 'secret-0123456789abcdef',
  maxMessageChars: 200,
  turnsLeft: 10,
};

/** One message's reply, driven by the test. */
export interface Reply {
  text: string;
  signal: AbortSignal;
  words(piece: string): void;
  finish(end: ReplyEnd): void;
  refuse(error: unknown): void;
}

/**
 * The gate's chat as a test drives it: each start counted, each message's reply held until the
 * test writes its words and ends it (or refuses it), each end recorded.
 */
export class FakeChatDoor implements ChatDoor {
  starts = 0;
  readonly ended: ChatPass[] = [];
  readonly replies: Reply[] = [];
  chat: Chat = CHAT;
  botCheck = vi.fn(() => Promise.resolve('token'));
  start = vi.fn(() => {
    this.starts += 1;
    return Promise.resolve({ ...this.chat, id: `${this.chat.id}${this.starts}` });
  });
  send = (
    _chat: ChatPass,
    text: string,
    signal: AbortSignal,
    onWords: (words: string) => void,
  ): Promise<ReplyEnd> =>
    new Promise<ReplyEnd>((resolve, reject) => {
      signal.addEventListener('abort', () => resolve({ type: 'stopped' }), { once: true });
      this.replies.push({ text, signal, words: onWords, finish: resolve, refuse: reject });
    });
  end = (chat: ChatPass) => {
    this.ended.push(chat);
  };
}
