/**
 * Type with Pepa: the text conversation's panel, loaded on demand (its own chunk) the first time a
 * visitor chooses text or is offered it. The conversation is a log that announces each finished
 * message (never each streamed word); Pepa's reply shows as it is written, with Stop; the draft
 * survives every refusal, and the focus comes back to the field.
 */
import {
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { useFollowNewest } from '../../../components/ui/use-follow-newest';
import { MaskedNote, ShieldWarning } from '../guards/guard-notes';
import { SITE_LINKS } from '../guards/use-caption-guard';
import { ShareLineButton, useShareHost } from '../share/share-button';
import { chatBotCheck } from '../voice/voice-runtime';
import { gateChatDoor } from './chat-door';
import { ChatSession, hasVisibleText, type ChatLine } from './chat-session';

export { TurnOffer, TURN_MISSED } from './turn-offer';
export { ChatSession };

export const CHAT_HEADING = 'Typing with Pepa';
export const CHAT_LOG_LABEL = 'Your chat with Pepa';
/** The scrolling box around the log (reachable by keyboard). */
export const CHAT_SCROLL_LABEL = 'Conversation';
export const CHAT_FIELD_LABEL = 'Your message to Pepa';
export const CHAT_SEND = 'Send';
export const CHAT_STOP = 'Stop';
export const CHAT_END = 'End chat';
export const CHAT_FRESH = 'Start a new chat';
export const CHAT_RETRY = 'Try again';
export const CHAT_WRITING = 'Pepa is writing…';
export const CHAT_STARTING = 'Opening the letter box…';
export const CHAT_STOPPED = '(stopped)';
export const CHAT_BROKEN = '(her words broke off here)';
/** turnsLeft is shown from this many on. */
export const TURNS_LOW = 3;

export const turnsLeftText = (turns: number) =>
  turns === 1 ? 'One message left in this chat.' : `${turns} messages left in this chat.`;

/** The page's chat: the gate's text operations, the call's bot check, the site's own links. */
export function createPageChat(): ChatSession {
  return new ChatSession(gateChatDoor(chatBotCheck), SITE_LINKS);
}

const SPEAKER: Record<ChatLine['role'], string> = { pepa: 'Pepa', visitor: 'You' };

export interface ChatPanelProps {
  session: ChatSession;
  /** The visitor closes the panel: the chat ends. */
  onClose(): void;
  /** Said at the top of the panel: a place offered in the voice line, or one missed. */
  children?: ReactNode;
  /** An attribute set on the panel, by which the section knows a key was pressed in it. */
  marker?: string;
  /** The visitor opened it: the focus starts in the field (else it stays where it is). */
  focusOnOpen?: boolean;
}

export function ChatPanel({
  session,
  onClose,
  children,
  marker,
  focusOnOpen = false,
}: ChatPanelProps) {
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const { phase, lines, writing, turnsLeft, maxChars, notice, masked } = snapshot;
  const [draft, setDraft] = useState('');
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const fieldId = useId();
  const headingId = useId();
  const noticeId = useId();
  const follow = useFollowNewest(`${lines.length}:${writing.length}`);
  const share = useShareHost();

  // The chat starts when the panel opens (a bot check, then the gate's chat).
  useEffect(() => {
    void session.open();
  }, [session]);
  // Opened at the visitor's press: the whole panel (its heading, the thread, the field and Send)
  // is brought into view once, and the focus starts in the field. Nothing follows it after.
  const panelRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!focusOnOpen) return;
    fieldRef.current?.focus({ preventScroll: true });
    // The page's scroll-behavior decides smooth or instant (instant under reduced motion).
    panelRef.current?.scrollIntoView({ block: 'nearest' });
  }, [focusOnOpen]);

  const writingNow = phase === 'writing';
  // A draft of only spaces or invisible characters is nothing to send.
  const blocked = !hasVisibleText(draft) || writingNow || phase === 'starting';

  const send = async () => {
    if (blocked) return;
    const text = draft;
    // The draft leaves the field as the message goes out, and comes back if it was refused.
    setDraft('');
    // Send gives way to Stop while Pepa writes: the focus stays in the field.
    fieldRef.current?.focus();
    const result = await session.send(text);
    if (result !== 'sent') setDraft((current) => (current === '' ? text : current));
    fieldRef.current?.focus();
  };

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

  const over = maxChars !== null && draft.trim().length > maxChars;

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
          {CHAT_END}
        </button>
      </div>
      {children}
      {/* One height from its first line to its last: a new line scrolls within the box (which
          follows it), so the field under it and the page never move as the chat goes on. */}
      <div
        ref={follow.ref}
        onScroll={follow.onScroll}
        // A scrolling region must be reachable by keyboard.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        role="region"
        aria-label={CHAT_SCROLL_LABEL}
        className="mt-3 h-72 overflow-y-auto overscroll-contain rounded-2xl border border-court-500/40 bg-court-950/70 p-3 text-sm wrap-anywhere"
      >
        {/* The log announces each finished line; the reply being written is outside it. */}
        <div role="log" aria-live="polite" aria-label={CHAT_LOG_LABEL}>
          <ol className="space-y-2">
            {lines.map((item) => (
              <li key={item.id} className={item.role === 'pepa' ? 'text-ivory' : 'text-court-300'}>
                <span className="font-semibold">{SPEAKER[item.role]}: </span>
                {item.text}
                {item.cut && (
                  <span className="text-mist italic">
                    {' '}
                    {item.cut === 'stopped' ? CHAT_STOPPED : CHAT_BROKEN}
                  </span>
                )}
                {item.card && (
                  <ShareLineButton
                    shared={{
                      line: {
                        from: 'chat',
                        conversationId: item.card.chat.id,
                        line: item.card.line,
                        chatSecret: item.card.chat.secret,
                      },
                      words: item.text,
                    }}
                    onShare={share.open}
                  />
                )}
              </li>
            ))}
          </ol>
        </div>
        {writingNow && (
          <p data-testid="chat-writing" className="mt-2 text-ivory">
            <span className="font-semibold">{SPEAKER.pepa}: </span>
            {writing}
            <span className="ml-1 text-gold-200 italic motion-safe:animate-pulse">
              {CHAT_WRITING}
            </span>
          </p>
        )}
        {phase === 'starting' && <p className="text-mist italic">{CHAT_STARTING}</p>}
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
        <p id={noticeId} role="alert" className="mt-3 text-sm text-gold-200">
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
            aria-describedby={notice && !notice.shield ? noticeId : undefined}
            aria-invalid={over || undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              session.dismissNotice();
            }}
            onKeyDown={onKeyDown}
            placeholder="Ask Pepa anything"
            className="mt-1 w-full resize-none rounded-2xl border border-court-500/70 bg-court-950/70 px-4 py-2 text-sm text-ivory placeholder:text-mist/70 focus:border-gold-300"
          />
          {maxChars !== null && draft.length > maxChars * 0.8 && (
            <span className={`mt-1 text-xs ${over ? 'text-gold-200' : 'text-mist'}`}>
              {draft.trim().length} / {maxChars}
            </span>
          )}
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
    </section>
  );
}
