import { useId, useState, type FormEvent } from 'react';
import { buttonClass } from '../../components/ui/button-styles';

export const TYPE_LABEL = 'Type to Pepa';
export const SEND_LABEL = 'Send';
/** The provider reads a user message of any length; a chat line this long is plenty. */
export const TYPED_MAX_CHARS = 500;

/**
 * During a call, a line the visitor types instead of saying it: sent with `add-message`, and
 * Pepa answers by voice and in the captions. `onSend` returning false keeps the line in the field
 * (it was held back, e.g. by the seed-phrase shield).
 */
export function TypeToPepa({ onSend }: { onSend(text: string): boolean | void }) {
  const [text, setText] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const line = text.trim();
    if (line === '') return;
    if (onSend(line) === false) return;
    setText('');
  };
  return (
    <form onSubmit={submit} className="flex w-full items-end gap-2">
      <div className="flex min-w-0 flex-1 flex-col text-left">
        <label htmlFor={id} className="text-xs font-semibold text-mist">
          {TYPE_LABEL}
        </label>
        <input
          id={id}
          type="text"
          value={text}
          maxLength={TYPED_MAX_CHARS}
          autoComplete="off"
          enterKeyHint="send"
          onChange={(event) => setText(event.target.value)}
          className="mt-1 min-h-11 w-full rounded-full border border-court-500/70 bg-court-950/70 px-4 text-sm text-ivory placeholder:text-mist/70 focus:border-gold-300"
          placeholder="Ask Pepa anything"
        />
      </div>
      <button type="submit" className={buttonClass('gold', 'md')} disabled={text.trim() === ''}>
        {SEND_LABEL}
      </button>
    </form>
  );
}
