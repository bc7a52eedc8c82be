import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { DraftLimit } from './draft-limit';
import { hasVisibleText, isOverLimit, MESSAGE_LABEL, showsLimit } from './draft';

/** The message field's name, in a call and in the text chat alike. */
export const TYPE_LABEL = MESSAGE_LABEL;
export const SEND_LABEL = 'Send';
/** What Send says while Pepa has not answered the last typed message. */
export const SEND_WAITING_LABEL = 'Waiting for Pepa';
/**
 * The longest message typed in a call: the provider reads any length, but a message this long is
 * plenty, and it is the text chat's own limit by default (the gate's GATE_CHAT_MESSAGE_CHARS).
 */
export const TYPED_MAX_CHARS = 500;
/**
 * How long Send waits for Pepa's answer at most: an answer lost on the way must not keep the
 * visitor from typing for the rest of the call.
 */
export const REPLY_WAIT_MAX_MS = 10_000;
/** Marks the field, so focus can come back to it when the control that held it goes away. */
export const TYPE_FIELD_ATTRIBUTE = 'data-type-to-pepa';

export interface TypeToPepaProps {
  /** Sends the line; false when it could not go out (the call ended meanwhile). */
  onSend(text: string): boolean;
  /** The last entry in the conversation is one the visitor typed, and Pepa has not answered. */
  awaitingReply: boolean;
  /** Send cannot work right now (the connection is being restored): the draft waits. */
  unavailable?: boolean;
}

/**
 * During a call, a message the visitor types instead of saying it: sent with `add-message`, and
 * Pepa answers by voice and in the captions. One message at a time: each one is a reply Pepa speaks
 * (and the provider bills), so Send waits for her answer, and says so. Send never disables
 * itself (a disabled button would drop the keyboard focus to the page); after a send the focus
 * is in the field, for the next message. A message past the limit is flagged as it is typed (the
 * count, then the error) and Send rests until it is shortened; nothing is cut off. Escape in the
 * field clears the draft and never ends the call.
 */
export function TypeToPepa({ onSend, awaitingReply, unavailable = false }: TypeToPepaProps) {
  const [text, setText] = useState('');
  const [waiting, setWaiting] = useState(false);
  // Presses come faster than renders: the guard is read and set synchronously.
  const waitingNow = useRef(false);
  const fieldRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const limitId = useId();

  useEffect(() => {
    if (!waiting) return;
    const release = () => {
      waitingNow.current = false;
      setWaiting(false);
    };
    if (!awaitingReply) {
      release();
      return;
    }
    const timer = setTimeout(release, REPLY_WAIT_MAX_MS);
    return () => clearTimeout(timer);
  }, [waiting, awaitingReply]);

  const message = text.trim();
  const over = isOverLimit(text, TYPED_MAX_CHARS);
  // Nothing to see, or too long: Send rests (as the chat's does), and says why beside the field.
  const blocked = !hasVisibleText(message) || over || waiting || unavailable;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!hasVisibleText(message) || over || waitingNow.current || unavailable) return;
    if (!onSend(message)) return;
    waitingNow.current = true;
    setWaiting(true);
    setText('');
    fieldRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Escape') return;
    // The field's Escape: it clears the draft, and the call goes on.
    event.preventDefault();
    setText('');
  };

  return (
    <form onSubmit={submit} className="flex w-full items-end gap-2">
      <div className="flex min-w-0 flex-1 flex-col text-left">
        <label htmlFor={id} className="text-xs font-semibold text-mist">
          {TYPE_LABEL}
        </label>
        <input
          ref={fieldRef}
          id={id}
          type="text"
          value={text}
          aria-invalid={over || undefined}
          aria-describedby={showsLimit(text, TYPED_MAX_CHARS) ? limitId : undefined}
          autoComplete="off"
          enterKeyHint="send"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          {...{ [TYPE_FIELD_ATTRIBUTE]: '' }}
          className="mt-1 min-h-11 w-full rounded-full border border-court-500/70 bg-court-950/70 px-4 text-sm text-ivory placeholder:text-mist/70 focus:border-gold-300"
          placeholder="Ask Pepa anything"
        />
        <DraftLimit id={limitId} draft={text} limit={TYPED_MAX_CHARS} />
      </div>
      <button
        type="submit"
        aria-disabled={blocked || undefined}
        className={buttonClass(
          'gold',
          'md',
          'whitespace-nowrap aria-disabled:cursor-not-allowed aria-disabled:opacity-60',
        )}
      >
        {waiting ? SEND_WAITING_LABEL : SEND_LABEL}
      </button>
    </form>
  );
}
