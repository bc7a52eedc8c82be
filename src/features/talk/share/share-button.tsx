/**
 * Sharing one of Pepa's remarks: the small Share button beside each of her finished remarks, and
 * the host that opens the share dialog for it. The dialog is a chunk of its own, loaded the first
 * time a visitor shares; the host hands it the gate's client, which the call view has already.
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { askForCard } from '../../../api/cards';
import { lazyOnce } from '../../../lib/lazy-once';
import type * as DialogChunk from './share-dialog';
import {
  SHARE_REMARK_ATTRIBUTE,
  shareRemarkKey,
  shareRemarkLabel,
  type CardRemark,
  type SharedRemark,
} from './shared-remark';

export type { CardRemark, SharedRemark };

type DialogModule = typeof DialogChunk;

/** The dialog's chunk, loaded once. */
export const loadShareDialog = lazyOnce<DialogModule>(() => import('./share-dialog'));

export const SHARE_LOAD_FAILED =
  "The sharing tools didn't load. Check your connection and try again.";

/** Opens the share dialog for a remark; `opener` gets the focus back when it closes. */
export type OpenShare = (shared: SharedRemark, opener: HTMLElement) => void;

export interface ShareHost {
  open: OpenShare;
  /** The dialog while it is open (in a portal), or the word that it did not load. */
  dialog: ReactNode;
}

/** Back to the Share button the dialog came from, or, once that is gone, to its remark's new one. */
function returnFocus(opener: HTMLElement, key: string): void {
  const target = opener.isConnected
    ? opener
    : [...document.querySelectorAll<HTMLElement>(`[${SHARE_REMARK_ATTRIBUTE}]`)].find(
        (element) => element.getAttribute(SHARE_REMARK_ATTRIBUTE) === key,
      );
  target?.focus();
}

/**
 * The share dialog of a conversation's remarks. Kept by what outlives the remarks themselves (the
 * call's controls, the chat's panel), so a call that ends under an open dialog leaves it open.
 */
export function useShareHost(): ShareHost {
  const [module, setModule] = useState<DialogModule | null>(null);
  const [shown, setShown] = useState<{ shared: SharedRemark; opener: HTMLElement } | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  // The latest tap wins: a slow load answers only the tap that is still wanted.
  const asked = useRef(0);

  const open = useCallback<OpenShare>((shared, opener) => {
    const ask = ++asked.current;
    setLoadFailed(false);
    loadShareDialog().then(
      (loaded) => {
        if (asked.current !== ask) return;
        setModule(loaded);
        setShown({ shared, opener });
      },
      () => {
        if (asked.current === ask) setLoadFailed(true);
      },
    );
  }, []);

  const close = useCallback(() => setShown(null), []);
  const Dialog = module?.ShareDialog;

  return {
    open,
    dialog: (
      <>
        {Dialog && shown && (
          <Dialog
            shared={shown.shared}
            ask={askForCard}
            onClose={close}
            returnFocus={() => returnFocus(shown.opener, shareRemarkKey(shown.shared.remark))}
          />
        )}
        {loadFailed && (
          <p role="alert" className="text-sm text-gold-200">
            {SHARE_LOAD_FAILED}
          </p>
        )}
      </>
    ),
  };
}

function ShareIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className="size-4"
    >
      <path d="M12 15V4M8 8l4-4 4 4M5 12v7h14v-7" />
    </svg>
  );
}

/** The small Share button after one of Pepa's finished remarks. */
export function ShareRemarkButton({
  shared,
  onShare,
}: {
  shared: SharedRemark;
  onShare: OpenShare;
}) {
  return (
    <button
      type="button"
      {...{ [SHARE_REMARK_ATTRIBUTE]: shareRemarkKey(shared.remark) }}
      aria-label={shareRemarkLabel(shared.words)}
      onClick={(event) => onShare(shared, event.currentTarget)}
      className="ml-1 inline-flex size-7 items-center justify-center rounded-full border border-gold-400/50 text-gold-200 hover:border-gold-200 hover:text-gold-100"
    >
      {/* An icon and a name, no text: the remark's words stay the remark's own, as the live log
          announces them and as a selection copies them. */}
      <ShareIcon />
    </button>
  );
}
