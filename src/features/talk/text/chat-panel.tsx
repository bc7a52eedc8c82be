/**
 * Write to Pepa: the text conversation's panel, loaded on demand (its own chunk) the first time a
 * visitor chooses text or is offered it. It opens in view with the focus in the field, Pepa's
 * greeting and a few openings to start from. The conversation is a log that announces each
 * finished message (never each streamed word), and the one thread of the visit: after a call it
 * holds the call's entries too, where they came. Pepa's reply shows as it is written, with Stop;
 * the draft survives every refusal, and the focus comes back to the field.
 */
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { useFollowNewest } from '../../../components/ui/use-follow-newest';
import { isOverLimit, MESSAGE_LABEL, showsLimit } from '../thread/draft';
import { DraftLimit } from '../thread/draft-limit';
import {
  chatEntries,
  CUT_TEXT,
  mergeThread,
  SPEAKER_NAME,
  threadText,
  ThreadEntryRow,
  ViaMark,
  type ThreadEntry,
} from '../thread/thread';
import { TranscriptActions } from '../thread/transcript-actions';
import { MaskedNote, ShieldWarning } from '../guards/guard-notes';
import { SITE_LINKS } from '../guards/use-caption-guard';
import { useShareHost } from '../share/share-button';
import { gateChatDoor } from '../../../api/chat-door';
import { chatBotCheck } from '../../../api/page-bot-check';
import { ChatSession, hasVisibleText } from './chat-session';

export { TurnOffer, TURN_MISSED } from './turn-offer';
export { ChatSession };

export const CHAT_HEADING = 'Writing to Pepa';
export const CHAT_LOG_LABEL = 'Your conversation with Pepa';
/** The scrolling box around the log (reachable by keyboard). */
export const CHAT_SCROLL_LABEL = 'Conversation';
export const CHAT_FIELD_LABEL = MESSAGE_LABEL;
export const CHAT_SEND = 'Send';
export const CHAT_STOP = 'Stop';
export const CHAT_CLOSE = 'Close chat';
export const CHAT_FRESH = 'Start a new chat';
export const CHAT_RETRY = 'Try again';
export const CHAT_WRITING = 'Pepa is writing…';
export const CHAT_STARTING = 'Opening the letter box…';
export const CHAT_STOPPED = CUT_TEXT.stopped;
export const CHAT_BROKEN = CUT_TEXT.broken;
/** Openings offered before the visitor's first message: pressing one sends it. */
export const CHAT_OPENINGS = ['Who are you?', 'What is $PEPA?', 'Tell me about your pond'] as const;
export const CHAT_OPENINGS_LABEL = 'Ways to begin';
/** turnsLeft is shown from this many on. */
export const TURNS_LOW = 3;

export const turnsLeftText = (turns: number) =>
  turns === 1 ? 'One message left in this chat.' : `${turns} messages left in this chat.`;

/** The page's chat: the gate's text operations, the page's one bot check, the site's own links. */
export function createPageChat(): ChatSession {
  return new ChatSession(gateChatDoor(chatBotCheck), SITE_LINKS);
}

export interface ChatPanelProps {
  session: ChatSession;
  /** The visitor closes the panel: the chat ends. */
  onClose(): void;
  /**
   * Said above the thread, in the thread's own room: a place offered in the voice line, or one
   * missed. One element or nothing.
   */
  children?: ReactNode;
  /** An attribute set on the panel, by which the section knows a key was pressed in it. */
  marker?: string;
  /**
   * The visitor's last call, in the thread: its entries, after the chat's first `chatBefore`
   * entries (Pepa's greeting counts as one).
   */
  call?: { entries: readonly ThreadEntry[]; chatBefore: number } | null;
  /** The visitor opened the chat just now: it comes into view with the focus in the field. */
  focusOnOpen?: boolean;
}

export function ChatPanel({
  session,
  onClose,
  children,
  marker,
  call = null,
  focusOnOpen = false,
}: ChatPanelProps) {
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const { phase, entries, writing, turnsLeft, maxChars, notice, masked } = snapshot;
  const [draft, setDraft] = useState('');
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  const headingId = useId();
  const noticeId = useId();
  const limitId = useId();
  const panelRef = useRef<HTMLElement>(null);
  // What is said above the thread takes its room from the thread's box: the newest entry is kept
  // in view as it comes and as it goes, as for a new line.
  const aside = children !== null && children !== undefined && children !== false;
  const follow = useFollowNewest(
    `${entries.length}:${writing.length}:${call?.entries.length ?? 0}:${aside}`,
  );
  const share = useShareHost();

  // The chat starts when the panel opens (a bot check, then the gate's chat).
  useEffect(() => {
    void session.open();
  }, [session]);
  // Opened at the visitor's press: the whole panel (its heading, the thread, the field and Send)
  // is brought into view once, and the focus starts in the field, in the same task as their tap
  // (a phone brings its keyboard up only for a focus its tap gave). Nothing follows it after.
  useLayoutEffect(() => {
    if (!focusOnOpen) return;
    fieldRef.current?.focus({ preventScroll: true });
    panelRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [focusOnOpen]);

  const writingNow = phase === 'writing';
  const over = isOverLimit(draft, maxChars);
  // A draft of only spaces or invisible characters is nothing to send; one past the limit waits.
  // A chat still opening is no reason to rest: what is sent meanwhile goes once it is open.
  const blocked = !hasVisibleText(draft) || over || writingNow;

  const say = async (text: string) => {
    // Send gives way to Stop while Pepa writes: the focus stays in the field.
    fieldRef.current?.focus();
    const result = await session.send(text);
    // A refused message comes back to the draft, unless the visitor has typed another meanwhile.
    if (result !== 'sent') setDraft((current) => (current === '' ? text : current));
    fieldRef.current?.focus();
  };

  const send = async () => {
    if (blocked) return;
    const text = draft;
    // The draft leaves the field as the message goes out, and comes back if it was refused.
    setDraft('');
    // Pressed while the chat is still opening (as an opening may be): said once it is open, and
    // back in the field if it never opens.
    if (phase === 'starting' && !(await session.open())) {
      setDraft((current) => (current === '' ? text : current));
      return;
    }
    await say(text);
  };

  const opening = async (text: string) => {
    if (writingNow) return;
    // Pressed while the chat is still opening: it is said once the chat is open.
    if (phase === 'starting' && !(await session.open())) return;
    await say(text);
  };

  const chat = chatEntries(entries);
  const thread = call ? mergeThread(chat, call.entries, call.chatBefore) : chat;
  const begun = thread.some((entry) => entry.who === 'visitor');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter is a new line.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  const onStop = () => {
    session.stop();
    fieldRef.current?.focus();
  };

  return (
    <section
      ref={panelRef}
      {...(marker ? { [marker]: '' } : {})}
      aria-labelledby={headingId}
      className="relative mx-auto mt-6 w-full max-w-xl rounded-3xl border border-court-500/60 bg-court-950/60 p-4 text-left sm:p-5"
    >
      <div className="flex items-center justify-between gap-3">
        <h3 id={headingId} className="font-display text-lg font-bold text-gold-200">
          {CHAT_HEADING}
        </h3>
        <button
          type="button"
          onClick={onClose}
          className={buttonClass('outline', 'md', 'whitespace-nowrap')}
        >
          {CHAT_CLOSE}
        </button>
      </div>
      {/* The thread's room, one height from its first line to its last: a new line scrolls
          within the box (which follows it), and what is said above the thread (a place offered)
          takes its room from the box, so the field under it and the page never move as the chat
          goes on. */}
      <div className="mt-3 flex h-72 flex-col gap-3">
        {children}
        <div
          ref={follow.ref}
          onScroll={follow.onScroll}
          // A scrolling region must be reachable by keyboard.
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
          tabIndex={0}
          role="region"
          aria-label={CHAT_SCROLL_LABEL}
          className="min-h-0 flex-1 thread-scroll overflow-y-auto overscroll-contain rounded-2xl border border-court-500/40 bg-court-950/70 p-3 text-sm wrap-anywhere"
        >
          {/* The log announces each finished entry; the reply being written is outside it. */}
          <div role="log" aria-live="polite" aria-label={CHAT_LOG_LABEL}>
            <ol className="space-y-2">
              {thread.map((entry) => (
                <ThreadEntryRow key={entry.key} entry={entry} onShare={share.open} as="li" />
              ))}
            </ol>
          </div>
          {writingNow && (
            <p data-testid="chat-writing" className="mt-2 text-ivory">
              <ViaMark via="typed" />
              <span className="font-semibold">{SPEAKER_NAME.pepa}: </span>
              {writing}
              <span className="ml-1 text-gold-200 italic motion-safe:animate-pulse">
                {CHAT_WRITING}
              </span>
            </p>
          )}
          {phase === 'starting' && <p className="text-mist italic">{CHAT_STARTING}</p>}
          {/* Within the box: once the chat has begun they go, and the field under it stays put. */}
          {!begun && phase !== 'ended' && (
            <div
              role="group"
              aria-label={CHAT_OPENINGS_LABEL}
              className="mt-3 flex flex-wrap gap-2"
            >
              {CHAT_OPENINGS.map((text) => (
                <button
                  key={text}
                  type="button"
                  aria-disabled={writingNow || undefined}
                  onClick={() => void opening(text)}
                  className={buttonClass('outline', 'md', 'aria-disabled:opacity-60')}
                >
                  {text}
                </button>
              ))}
            </div>
          )}
        </div>
      </div>
      {masked && (
        <div className="mt-2">
          <MaskedNote />
        </div>
      )}
      {notice?.shield && (
        <div className="mt-3">
          <ShieldWarning kind="typed" />
        </div>
      )}
      {notice && !notice.shield && (
        <p
          id={noticeId}
          role={notice.polite ? 'status' : 'alert'}
          className="mt-3 text-sm text-gold-200"
        >
          {notice.text}{' '}
          {notice.fresh && (
            <button
              type="button"
              onClick={() => {
                void session.fresh();
                fieldRef.current?.focus();
              }}
              className={buttonClass('outline', 'md', 'mt-2')}
            >
              {notice.retry ? CHAT_RETRY : CHAT_FRESH}
            </button>
          )}
        </p>
      )}
      {share.dialog}
      {turnsLeft !== null && turnsLeft > 0 && turnsLeft <= TURNS_LOW && (
        <p className="mt-2 text-xs text-mist">{turnsLeftText(turnsLeft)}</p>
      )}
      <form onSubmit={onSubmit} className="mt-3 flex items-end gap-2">
        <div className="flex min-w-0 flex-1 flex-col">
          <label htmlFor={fieldId} className="text-xs font-semibold text-mist">
            {CHAT_FIELD_LABEL}
          </label>
          <textarea
            ref={fieldRef}
            id={fieldId}
            rows={2}
            value={draft}
            autoComplete="off"
            enterKeyHint="send"
            aria-describedby={
              [
                notice && !notice.shield ? noticeId : null,
                showsLimit(draft, maxChars) ? limitId : null,
              ]
                .filter(Boolean)
                .join(' ') || undefined
            }
            aria-invalid={over || undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              session.dismissNotice();
            }}
            onKeyDown={onKeyDown}
            placeholder="Ask Pepa anything"
            className="mt-1 w-full resize-none rounded-2xl border border-court-500/70 bg-court-950/70 px-4 py-2 text-sm text-ivory placeholder:text-mist/70 focus:border-gold-300"
          />
          <DraftLimit id={limitId} draft={draft} limit={maxChars} />
        </div>
        {/* Keyed apart: Stop must never become the Send button under the visitor's press (the
            reply can end within that very click, and a reused element would submit the form). */}
        {writingNow ? (
          <button
            key="stop"
            type="button"
            onClick={onStop}
            className={buttonClass('outline', 'md', 'whitespace-nowrap')}
          >
            {CHAT_STOP}
          </button>
        ) : (
          <button
            key="send"
            type="submit"
            aria-disabled={blocked || undefined}
            className={buttonClass(
              'gold',
              'md',
              'whitespace-nowrap aria-disabled:cursor-not-allowed aria-disabled:opacity-60',
            )}
          >
            {CHAT_SEND}
          </button>
        )}
      </form>
      {/* Under the field: appearing with the first entry, they move nothing above them. */}
      {begun && <TranscriptActions text={threadText(thread)} selectRef={follow.ref} />}
    </section>
  );
}
