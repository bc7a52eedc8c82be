/**
 * A text conversation with Pepa, framework-free: it starts the chat (a bot-check token, then the
 * gate's chat), sends one message at a time and gathers Pepa's reply as it streams, stops a reply,
 * and ends the chat. Its state is a snapshot the panel subscribes to. Pepa's words are guarded as
 * the captions are (secrets hidden, foreign links and addresses masked) before the state holds
 * them.
 */
import type { Problem } from '../../../../generated/gate/types.gen';
import { GateApiError } from '../../../api/gate-client';
import { backText, reopensText } from '../recovery/start-failure';
import { waitWords } from '../../../lib/wait-words';
import { containsSecret, redactSecrets } from '../guards/seed-shield';
import { maskUnofficial } from '../guards/site-facts';
import { draftLength, draftTooLong, hasVisibleText } from '../thread/draft';
import type { ChatDoor, ChatPass, ReplyEnd } from '../../../api/chat-door';

export { hasVisibleText };

/** Who said an entry: the visitor or Pepa. */
export type ChatRole = 'visitor' | 'pepa';

export interface ChatEntry {
  id: number;
  role: ChatRole;
  text: string;
  /** Pepa's reply was stopped by the visitor, or broke off, before its end. */
  cut?: 'stopped' | 'broken';
  /**
   * A finished reply of Pepa's: the chat that wrote it and its place there (the `done` event's
   * `remark`), by which a card of its words is asked for.
   */
  card?: { chat: ChatPass; remark: number };
}

/** Why the last thing the visitor asked for did not happen, in the panel's words. */
export interface ChatNotice {
  text: string;
  /** The chat is over: the panel offers a fresh one. */
  fresh?: boolean;
  /** The chat did not start: the panel offers to try again. */
  retry?: boolean;
  /** The typed message held a recovery phrase or key: the shield's own warning says so. */
  shield?: boolean;
  /** Said politely to screen readers (a status, not an alert): the court is pacing its day. */
  polite?: boolean;
}

export type ChatPhase = 'starting' | 'open' | 'writing' | 'ended';

export interface ChatSnapshot {
  phase: ChatPhase;
  /** The finished entries, oldest first. */
  entries: readonly ChatEntry[];
  /** Pepa's reply as it is written (guarded), while `phase` is `writing`. */
  writing: string;
  /** Messages the chat may still send, once the gate has said. */
  turnsLeft: number | null;
  /** The longest message the gate takes, once the gate has said. */
  maxChars: number | null;
  notice: ChatNotice | null;
  /** Something in Pepa's words was masked (a foreign link or an address). */
  masked: boolean;
}

/** What became of a message the visitor sent: only `sent` takes it out of their draft. */
export type SendResult = 'sent' | 'refused' | 'stopped';

/** The panel's words for what went wrong: each problem the text operations declare. */
export const CHAT_TEXT = {
  // The same words the field says as the draft passes the limit.
  tooLong: draftTooLong,
  replyInFlight: 'Pepa is still answering your last message. Send this one once she has finished.',
  rateLimited: "You're writing faster than the court can read.",
  chatGone: 'This chat has ended.',
  courtClosed: 'Pepa has read all the letters she can for today: text is closed.',
  courtResting: 'Pepa has put her pen down for a rest: the court spreads its budget over the day.',
  textBusy: 'Pepa is answering as many guests as she can right now.',
  providerError: 'Pepa lost her words. Try again.',
  network: "Couldn't reach the court. Check your connection and try again.",
  botCheck: "Your browser didn't pass the court's bot check. Reload the page and try again.",
  gateDown: "The court's gate can't take messages right now. Try again in a moment.",
  other: "Pepa couldn't read that. Try again.",
  noTurnsLeft: 'This chat has said all it can. Start a new chat to go on.',
  tryAgainIn: (seconds: number) => `Try again in ${waitWords(seconds)}.`,
} as const;

/** What the panel reads of a failed request: the gate's code, its wait, when text reopens. */
export type ChatFailure = Pick<GateApiError, 'code' | 'kind' | 'retryAfterMs' | 'reopensAt'>;

function withWait(text: string, failure: ChatFailure): string {
  if (failure.retryAfterMs === null) return text;
  return `${text} ${CHAT_TEXT.tryAgainIn(Math.max(1, Math.ceil(failure.retryAfterMs / 1000)))}`;
}

/** A gate problem in the panel's words. */
export function chatNotice(failure: ChatFailure, maxChars: number | null): ChatNotice {
  switch (failure.code) {
    case 'message-too-long':
      return { text: maxChars === null ? CHAT_TEXT.other : CHAT_TEXT.tooLong(maxChars) };
    case 'reply-in-flight':
      return { text: CHAT_TEXT.replyInFlight };
    case 'rate-limited':
      return { text: withWait(CHAT_TEXT.rateLimited, failure) };
    case 'chat-gone':
      return { text: CHAT_TEXT.chatGone, fresh: true };
    case 'court-closed':
      return { text: `${CHAT_TEXT.courtClosed}${reopensText(failure.reopensAt ?? undefined)}` };
    case 'court-resting':
      return { text: `${CHAT_TEXT.courtResting}${backText(failure.reopensAt)}`, polite: true };
    case 'text-busy':
      return { text: withWait(CHAT_TEXT.textBusy, failure) };
    case 'provider-error':
      return { text: withWait(CHAT_TEXT.providerError, failure) };
    case 'bot-check-failed':
    case 'bot-check-unavailable':
      return { text: CHAT_TEXT.botCheck };
    case 'gate-unavailable':
      return { text: CHAT_TEXT.gateDown };
    default:
      return { text: failure.kind === 'network' ? CHAT_TEXT.network : CHAT_TEXT.other };
  }
}

/** Any failure as the panel reads it: the gate's own, or no answer at all. */
function failureOf(error: unknown): ChatFailure {
  if (error instanceof GateApiError) return error;
  return { code: null, kind: 'network', retryAfterMs: null, reopensAt: null };
}

/** A reply's `failed` event as the panel reads it. */
function failureOfProblem(problem: Problem): ChatFailure {
  return {
    code: problem.code,
    kind: 'http',
    retryAfterMs:
      typeof problem.retryAfterSeconds === 'number' ? problem.retryAfterSeconds * 1000 : null,
    reopensAt: problem.reopensAt ?? null,
  };
}

/** Pepa's words as the page may show them: secrets hidden, foreign links and addresses masked. */
export function guardReply(
  text: string,
  official: ReadonlySet<string>,
): { text: string; masked: boolean } {
  const secret = redactSecrets(text);
  return maskUnofficial(secret.text, official);
}

const INITIAL: ChatSnapshot = {
  phase: 'starting',
  entries: [],
  writing: '',
  turnsLeft: null,
  maxChars: null,
  notice: null,
  masked: false,
};

export class ChatSession {
  private snapshot: ChatSnapshot = INITIAL;
  private readonly listeners = new Set<() => void>();
  private chat: ChatPass | null = null;
  private starting: Promise<boolean> | null = null;
  private controller: AbortController | null = null;
  private nextId = 1;
  private ended = false;

  constructor(
    private readonly door: ChatDoor,
    private readonly official: ReadonlySet<string>,
  ) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): ChatSnapshot => this.snapshot;

  /** The chat under way, for the line's check-ins and a call's start; null before or after. */
  pass(): ChatPass | null {
    return this.ended ? null : this.chat;
  }

  /** Starts the chat (once; again after it is gone). True when it is open. */
  open(): Promise<boolean> {
    if (this.chat && !this.ended) return Promise.resolve(true);
    this.starting ??= this.begin().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** A fresh chat after the last one ended: the entries stay on screen. */
  fresh(): Promise<boolean> {
    this.endChat();
    this.ended = false;
    return this.open();
  }

  private async begin(): Promise<boolean> {
    this.ended = false;
    this.update({ phase: 'starting', notice: null });
    const controller = new AbortController();
    this.controller = controller;
    try {
      const token = await this.door.botCheck(controller.signal);
      const chat = await this.door.start(token, controller.signal);
      if (controller.signal.aborted) {
        this.door.end(chat);
        return false;
      }
      this.chat = { id: chat.id, secret: chat.secret };
      this.update({
        phase: 'open',
        turnsLeft: chat.turnsLeft,
        maxChars: chat.maxMessageChars,
        notice: chat.turnsLeft === 0 ? { text: CHAT_TEXT.noTurnsLeft, fresh: true } : null,
      });
      return true;
    } catch (error) {
      if (controller.signal.aborted) return false;
      const notice = chatNotice(failureOf(error), null);
      // A chat that did not start can be asked for again.
      this.update({ phase: 'ended', notice: { ...notice, fresh: true, retry: true } });
      return false;
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  /**
   * Says `text` to Pepa. Refused before it goes out: a recovery phrase or key (the shield), a
   * message over the limit, or a reply still being written. The visitor's draft stays unless
   * the result is `sent`.
   */
  async send(raw: string): Promise<SendResult> {
    const text = raw.trim();
    const { phase, maxChars, turnsLeft } = this.snapshot;
    if (!hasVisibleText(text) || phase === 'writing' || phase === 'starting') return 'refused';
    if (containsSecret(text)) {
      this.update({ notice: { text: '', shield: true } });
      return 'refused';
    }
    if (maxChars !== null && draftLength(text) > maxChars) {
      this.update({ notice: { text: CHAT_TEXT.tooLong(maxChars) } });
      return 'refused';
    }
    if (turnsLeft === 0) {
      this.update({ notice: { text: CHAT_TEXT.noTurnsLeft, fresh: true } });
      return 'refused';
    }
    if (!(await this.open())) return 'refused';
    const chat = this.chat;
    if (!chat || this.snapshot.phase !== 'open') return 'refused';

    const visitorEntry: ChatEntry = { id: this.nextId++, role: 'visitor', text };
    const controller = new AbortController();
    this.controller = controller;
    let reply = '';
    this.update({
      phase: 'writing',
      entries: [...this.snapshot.entries, visitorEntry],
      writing: '',
      notice: null,
    });
    const pepaEntry = (end?: Pick<ChatEntry, 'cut'> | Pick<ChatEntry, 'card'>): ChatEntry[] => {
      if (reply.trim() === '') return [];
      const guarded = guardReply(reply, this.official);
      return [{ id: this.nextId++, role: 'pepa', text: guarded.text.trim(), ...end }];
    };
    let end: ReplyEnd;
    try {
      end = await this.door.send(chat, text, controller.signal, (words) => {
        if (controller.signal.aborted) return;
        reply += words;
        const guarded = guardReply(reply, this.official);
        this.update({ writing: guarded.text, masked: this.snapshot.masked || guarded.masked });
      });
    } catch (error) {
      if (this.controller === controller) this.controller = null;
      if (this.ended) return 'refused';
      const notice = chatNotice(failureOf(error), this.snapshot.maxChars);
      const heard = reply.trim() !== '';
      // Refused before a word: the message was not said, so it leaves the conversation.
      const entries = heard
        ? [...this.snapshot.entries, ...pepaEntry({ cut: 'broken' })]
        : this.snapshot.entries.filter((entry) => entry !== visitorEntry);
      this.update({
        phase: notice.fresh ? 'ended' : 'open',
        entries,
        writing: '',
        notice,
      });
      if (notice.fresh) this.forgetChat();
      return 'refused';
    }
    if (this.controller === controller) this.controller = null;
    if (this.ended) return 'refused';
    if (end.type === 'stopped') {
      this.update({
        phase: 'open',
        entries: [...this.snapshot.entries, ...pepaEntry({ cut: 'stopped' })],
        writing: '',
      });
      return 'stopped';
    }
    if (end.type === 'failed') {
      // What arrived stands; the message was not counted, and may be sent again.
      this.update({
        phase: 'open',
        entries: [...this.snapshot.entries, ...pepaEntry({ cut: 'broken' })],
        writing: '',
        notice: chatNotice(failureOfProblem(end.problem), this.snapshot.maxChars),
      });
      return 'refused';
    }
    this.update({
      phase: 'open',
      entries: [
        ...this.snapshot.entries,
        ...pepaEntry(end.remark === undefined ? {} : { card: { chat, remark: end.remark } }),
      ],
      writing: '',
      turnsLeft: end.turnsLeft,
      notice: end.turnsLeft === 0 ? { text: CHAT_TEXT.noTurnsLeft, fresh: true } : null,
    });
    return 'sent';
  }

  /** Stops Pepa's reply under way: the fetch is aborted, and the gate stops the provider. */
  stop(): void {
    if (this.snapshot.phase === 'writing') this.controller?.abort();
  }

  /** Clears the notice (the visitor edited their draft). */
  dismissNotice(): void {
    if (this.snapshot.notice && !this.snapshot.notice.fresh) this.update({ notice: null });
  }

  /** Ends the chat: a reply under way is stopped, and the gate is told. */
  end(): void {
    this.endChat();
    this.update({ phase: 'ended', writing: '' });
  }

  private endChat(): void {
    this.ended = true;
    this.controller?.abort();
    this.controller = null;
    this.forgetChat();
  }

  private forgetChat(): void {
    const chat = this.chat;
    this.chat = null;
    if (chat) this.door.end(chat);
  }

  private update(change: Partial<ChatSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}
