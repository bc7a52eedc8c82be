import { useEffect, useId, useRef, useState } from 'react';
import {
  RATING_COMMENT_MAX_CHARS,
  submitRating,
  type RatingResult,
  type RatingScore,
} from '../../../api/ratings';
import { buttonClass } from '../../../components/ui/button-styles';
import { SHIELD_WARNING, containsSecret } from '../guards/seed-shield';

export const RATING_QUESTION = 'How was your audience with the Queen?';
export const RATING_CHOICES: ReadonlyArray<{ score: RatingScore; label: string }> = [
  { score: 'delighted', label: 'Royally delighted' },
  { score: 'content', label: 'Content' },
  { score: 'displeased', label: 'Not amused' },
];
export const RATING_COMMENT_LABEL = 'A word for the court (optional)';
export const RATING_SKIP = 'Skip';
export const RATING_THANKS = 'Thank you! The court has noted it.';
export const RATING_FAILED =
  'Your rating could not be sent. You can try again, or simply start another call.';
export const RATING_RATE_LIMITED =
  'Too many ratings right now: your rating was not sent. Try again in a moment.';
export const RATING_GONE = 'This call can no longer be rated.';
export const RATING_NOT_SENT = 'Your rating was not sent.';

type RatingView =
  'choosing' | 'sending' | 'thanked' | 'gone' | 'failed' | 'rate-limited' | 'secret';

function viewOf(result: RatingResult): RatingView {
  switch (result.status) {
    case 'sent':
    case 'already-rated':
      return 'thanked';
    case 'unknown-call':
      return 'gone';
    case 'rate-limited':
      return 'rate-limited';
    case 'invalid':
    case 'failed':
      return 'failed';
  }
}

/**
 * The one-tap rating after a call: three choices, an optional short comment, Skip. Sends the call
 * id, the choice and the comment, nothing else. A failure is said plainly and blocks nothing.
 */
export function CallRating({ callId, onDone }: { callId: string; onDone(): void }) {
  const [comment, setComment] = useState('');
  const [view, setView] = useState<RatingView>('choosing');
  const controller = useRef<AbortController | null>(null);
  const commentId = useId();

  // A send still under way when the panel goes (the next call starts) is abandoned.
  useEffect(() => () => controller.current?.abort(), []);

  const rate = (score: RatingScore) => {
    if (view === 'sending') return;
    // The shield guards the comment too: a recovery phrase or key never leaves the browser.
    if (containsSecret(comment)) {
      setView('secret');
      return;
    }
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setView('sending');
    const trimmed = comment.trim();
    submitRating({ callId, score, ...(trimmed ? { comment: trimmed } : {}) }, abort.signal).then(
      (result) => {
        if (!abort.signal.aborted) setView(viewOf(result));
      },
      () => undefined,
    );
  };

  if (view === 'thanked' || view === 'gone') {
    return (
      <p role="note" className="text-sm font-semibold text-gold-200">
        {view === 'thanked' ? RATING_THANKS : RATING_GONE}
      </p>
    );
  }

  return (
    <section
      aria-labelledby="rating-title"
      className="w-full rounded-2xl border border-gold-400/40 bg-court-950/60 p-4"
    >
      <h3 id="rating-title" className="text-sm font-semibold text-gold-200">
        {RATING_QUESTION}
      </h3>
      <div className="mt-3 flex flex-col text-left">
        <label htmlFor={commentId} className="text-xs font-semibold text-mist">
          {RATING_COMMENT_LABEL}
        </label>
        <input
          id={commentId}
          type="text"
          value={comment}
          maxLength={RATING_COMMENT_MAX_CHARS}
          autoComplete="off"
          onChange={(event) => setComment(event.target.value)}
          className="mt-1 min-h-11 w-full rounded-full border border-court-500/70 bg-court-950/70 px-4 text-sm text-ivory focus:border-gold-300"
        />
      </div>
      <div className="mt-3 flex flex-wrap justify-center gap-2">
        {RATING_CHOICES.map(({ score, label }) => (
          <button
            key={score}
            type="button"
            aria-disabled={view === 'sending' || undefined}
            onClick={() => rate(score)}
            className={buttonClass('outline', 'md', 'aria-disabled:opacity-70')}
          >
            {label}
          </button>
        ))}
        <button type="button" onClick={onDone} className={buttonClass('ghost', 'md')}>
          {RATING_SKIP}
        </button>
      </div>
      {(view === 'failed' || view === 'rate-limited' || view === 'secret') && (
        <p role="alert" className="mt-3 text-sm text-gold-200">
          {view === 'failed'
            ? RATING_FAILED
            : view === 'rate-limited'
              ? RATING_RATE_LIMITED
              : `${SHIELD_WARNING} ${RATING_NOT_SENT}`}
        </p>
      )}
    </section>
  );
}
