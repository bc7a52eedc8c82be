/**
 * The share dialog: a chunk of its own, loaded the first time a visitor shares one of Pepa's
 * remarks. It asks the gate for the remark's card, shows it, and offers X, Telegram, the link to
 * copy and the device's own share sheet where the browser has one. A modal dialog: the focus goes
 * in, stays in, and comes back to the Share button it came from; Escape closes it.
 */
// The page's own pieces below are ones the call view already takes from the page's entry: the
// entry's exports, and so the first screen's bytes, stay as they are (`npm run budget`).
import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { buttonClass } from '../../../components/ui/button-styles';
import { ExternalLink } from '../../../components/ui/external-link';
import { CheckIcon, CopyIcon } from '../../../components/ui/icons';
import type { Card } from '../../../api/cards';
import type { SharedRemark } from './shared-remark';
import { shareText, telegramShareUrl, xPostUrl } from './share-links';
import { useCard, type AskForCard, type CardView } from './use-card';
import { waitWords } from '../../../lib/wait-words';

export const SHARE_HEADING = "Share Pepa's words";
export const SHARE_MAKING = 'Making your card…';
export const SHARE_READY = 'Your card is ready.';
export const SHARE_CLOSE = 'Close';
export const SHARE_RETRY = 'Try again';
export const SHARE_ON_X = 'Post on X';
export const SHARE_ON_TELEGRAM = 'Share on Telegram';
export const SHARE_COPY = 'Copy link';
export const SHARE_COPIED = 'Link copied';
export const SHARE_DEVICE = 'Share…';
export const SHARE_LINK_LABEL = 'Link to your card';
export const SHARE_NEW_TAB = '(opens in a new tab)';
export const SHARE_COPY_REFUSED =
  'Your browser did not allow copying. The link is selected: copy it with your device.';
/** How long the copy button reads 'Link copied'. */
export const SHARE_COPIED_MS = 2000;

/** What went wrong, in the court's words. */
export const SHARE_TEXT = {
  refused: "The court won't put these words on a card.",
  refusedWhy: (reason: string) => `Why: ${reason}`,
  notReady: (seconds: number) =>
    `Pepa's words are still being written down. Try again in ${waitWords(seconds)}.`,
  notReadyOver: "Pepa's words should be written down by now. Try again.",
  notFound: "The court has no record of that remark, so it can't go on a card.",
  rateLimited: "You've made all the cards the court allows for now.",
  tryAgainIn: (seconds: number) => `Try again in ${waitWords(seconds)}.`,
  network: "Couldn't reach the court. Check your connection and try again.",
  failed: "The card couldn't be made just now. Try again in a moment.",
} as const;

/** The words of a view that did not end in a card, and whether Try again is offered. */
function trouble(view: CardView): { text: string; why?: string; retry: boolean } | null {
  switch (view.state) {
    case 'refused':
      return {
        text: SHARE_TEXT.refused,
        ...(view.reason ? { why: SHARE_TEXT.refusedWhy(view.reason) } : {}),
        retry: false,
      };
    case 'not-ready':
      return {
        text: view.ready ? SHARE_TEXT.notReadyOver : SHARE_TEXT.notReady(view.retryAfterSeconds),
        retry: true,
      };
    case 'not-found':
      return { text: SHARE_TEXT.notFound, retry: false };
    case 'rate-limited':
      return {
        text:
          view.retryAfterSeconds === null
            ? SHARE_TEXT.rateLimited
            : `${SHARE_TEXT.rateLimited} ${SHARE_TEXT.tryAgainIn(view.retryAfterSeconds)}`,
        retry: false,
      };
    case 'failed':
      return { text: view.network ? SHARE_TEXT.network : SHARE_TEXT.failed, retry: true };
    default:
      return null;
  }
}

const FOCUSABLE = 'a[href], button, input, [tabindex]:not([tabindex="-1"])';

/**
 * What the dialog is given by the host that opens it. Only the host imports the gate's client and
 * knows the page's Share buttons: the dialog's chunk carries the dialog alone.
 */
export interface ShareDialogProps {
  shared: SharedRemark;
  /** How the card is asked for (the gate's `makeCard`). */
  ask: AskForCard;
  onClose(): void;
  /** Gives the focus back to the Share button the dialog came from, as it goes. */
  returnFocus(): void;
}

export function ShareDialog({ shared, ask, onClose, returnFocus }: ShareDialogProps) {
  const { view, retry } = useCard(shared.remark, ask);
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const returnRef = useRef(returnFocus);
  returnRef.current = returnFocus;

  // In on open, back on close. While open, Escape closes and Tab goes round inside: listened
  // for on the window, ahead of the page's own keys (Escape also ends a call).
  useEffect(() => {
    const dialog = dialogRef.current;
    dialog?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (!dialog) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const first = focusable[0];
      const last = focusable.at(-1);
      if (!first || !last) return;
      const active = document.activeElement;
      const inside = active instanceof Node && dialog.contains(active) && active !== dialog;
      if (event.shiftKey && (!inside || active === first)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (!inside || active === last)) {
        event.preventDefault();
        first.focus();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      returnRef.current();
    };
  }, []);

  const onRetry = () => {
    // Try again gives way to 'Making your card…': the focus waits on the dialog meanwhile.
    dialogRef.current?.focus();
    retry();
  };

  const problem = trouble(view);

  return createPortal(
    <div className="fixed inset-0 z-[60] grid place-items-center bg-court-950/85 p-4">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="max-h-[calc(100svh-4rem)] w-full max-w-lg overflow-y-auto rounded-3xl border border-gold-400/40 bg-court-900 p-4 text-left shadow-[0_20px_50px_-25px_rgba(0,0,0,0.8)] sm:p-5"
      >
        <div className="flex items-center justify-between gap-3">
          <h2 id={titleId} className="font-display text-lg font-bold text-gold-200">
            {SHARE_HEADING}
          </h2>
          <button
            type="button"
            onClick={onClose}
            className={buttonClass('outline', 'md', 'whitespace-nowrap')}
          >
            {SHARE_CLOSE}
          </button>
        </div>
        <p role="status" className="mt-3 text-sm text-mist">
          {view.state === 'making' ? SHARE_MAKING : view.state === 'made' ? SHARE_READY : ''}
        </p>
        {view.state === 'made' && <CardShare card={view.card} />}
        {problem && (
          <div className="mt-2">
            <p role="alert" className="text-sm text-gold-200">
              {problem.text}
              {problem.why && (
                <>
                  {' '}
                  <span className="font-semibold text-ivory">{problem.why}</span>
                </>
              )}
            </p>
            {problem.retry && (
              <RetryButton resting={view.state === 'not-ready' && !view.ready} onRetry={onRetry} />
            )}
          </div>
        )}
      </div>
    </div>,
    document.body,
  );
}

function RetryButton({ resting, onRetry }: { resting: boolean; onRetry(): void }) {
  return (
    <button
      type="button"
      // Resting, not disabled: the focus stays on it until the wait is over.
      aria-disabled={resting || undefined}
      onClick={resting ? undefined : onRetry}
      className={buttonClass(
        'gold',
        'md',
        'mt-3 aria-disabled:cursor-not-allowed aria-disabled:opacity-60',
      )}
    >
      {SHARE_RETRY}
    </button>
  );
}

type CopyState = 'idle' | 'copied' | 'refused';

/** The card made: its preview, its words, and the ways to share it. */
function CardShare({ card }: { card: Card }) {
  const [copy, setCopy] = useState<CopyState>('idle');
  const linkRef = useRef<HTMLInputElement>(null);
  const linkId = useId();
  const text = shareText(card.words);
  const canShare = typeof navigator.share === 'function';

  // 'Link copied' reverts after a moment; no timer outlives the dialog.
  useEffect(() => {
    if (copy !== 'copied') return;
    const timer = setTimeout(() => setCopy('idle'), SHARE_COPIED_MS);
    return () => clearTimeout(timer);
  }, [copy]);

  const onCopy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(card.pageUrl);
      setCopy('copied');
    } catch {
      // Selected for the visitor's own copy command.
      setCopy('refused');
      linkRef.current?.focus();
      linkRef.current?.select();
    }
  };

  const onDeviceShare = () => {
    // Closing the sheet without sharing rejects: nothing to say.
    navigator.share({ title: SHARE_HEADING, text, url: card.pageUrl }).catch(() => undefined);
  };

  return (
    <div className="mt-2">
      <img
        src={card.imageUrl}
        alt={card.words}
        width={card.imageWidth}
        height={card.imageHeight}
        className="h-auto w-full rounded-2xl border border-court-500/50"
      />
      <blockquote className="mt-3 text-sm text-ivory">“{card.words}”</blockquote>
      <div className="mt-4 flex flex-wrap gap-3">
        <ExternalLink href={xPostUrl(text, card.pageUrl)} className={buttonClass('outline', 'md')}>
          {SHARE_ON_X}
          <span className="sr-only"> {SHARE_NEW_TAB}</span>
        </ExternalLink>
        <ExternalLink
          href={telegramShareUrl(text, card.pageUrl)}
          className={buttonClass('outline', 'md')}
        >
          {SHARE_ON_TELEGRAM}
          <span className="sr-only"> {SHARE_NEW_TAB}</span>
        </ExternalLink>
        <button
          type="button"
          onClick={() => void onCopy()}
          className={buttonClass('outline', 'md')}
        >
          {copy === 'copied' ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
          {copy === 'copied' ? SHARE_COPIED : SHARE_COPY}
        </button>
        {canShare && (
          <button type="button" onClick={onDeviceShare} className={buttonClass('outline', 'md')}>
            {SHARE_DEVICE}
          </button>
        )}
      </div>
      <label htmlFor={linkId} className="mt-4 block text-xs font-semibold text-mist">
        {SHARE_LINK_LABEL}
      </label>
      <input
        ref={linkRef}
        id={linkId}
        type="text"
        readOnly
        value={card.pageUrl}
        onFocus={(event) => event.currentTarget.select()}
        className="mt-1 w-full rounded-2xl border border-court-500/70 bg-court-950/70 px-4 py-2 text-sm text-ivory focus:border-gold-300"
      />
      {copy === 'refused' && <p className="mt-2 text-sm text-gold-200">{SHARE_COPY_REFUSED}</p>}
      <p aria-live="polite" className="sr-only">
        {copy === 'copied' ? SHARE_COPIED : copy === 'refused' ? SHARE_COPY_REFUSED : ''}
      </p>
    </div>
  );
}
