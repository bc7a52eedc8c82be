import { useEffect, useRef, useState } from 'react';
import { EARLY_COPY_EVENT } from '../../app/early-taps';
import { CheckIcon, CopyIcon } from '../../components/ui/icons';

/** How long the button reads 'Copied' after a copy. */
export const COPIED_MS = 2000;

export const COPY_LABEL = 'Copy contract address';
export const COPIED_ANNOUNCEMENT = 'Contract address copied';
export const COPY_REFUSED_ANNOUNCEMENT =
  'Your browser did not allow copying. The address is selected: copy it with your device.';

/** "PEPAx…pump": the start and end a visitor compares against their wallet. */
export function shortAddress(address: string, keep = 4): string {
  return address.length <= keep * 2 + 1
    ? address
    : `${address.slice(0, keep)}…${address.slice(-keep)}`;
}

type CopyState = 'idle' | 'copied' | 'refused';

/**
 * The token's contract address: shortened, the whole address shown on hover and on the button's
 * focus, and a
 * copy button. When the browser refuses the clipboard the full address appears selected in a
 * read-only field, so the visitor's own copy command works.
 */
export function TokenAddress({ address }: { address: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const [announcement, setAnnouncement] = useState('');
  const fieldRef = useRef<HTMLInputElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  // 'Copied' reverts after a moment; no timer outlives the component.
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = window.setTimeout(() => setState('idle'), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [state]);

  useEffect(() => {
    if (state !== 'refused') return;
    fieldRef.current?.focus();
    fieldRef.current?.select();
  }, [state]);

  /** Copies the address, or shows how a copy the page already made went (`written`). */
  const copy = async (written?: Promise<boolean>) => {
    try {
      if (written) {
        if (!(await written)) throw new Error('copy refused');
      } else {
        if (!navigator.clipboard) throw new Error('no clipboard');
        await navigator.clipboard.writeText(address);
      }
      setState('copied');
      // The same words twice in a row are announced again only if the text changes in between.
      setAnnouncement('');
      queueMicrotask(() => setAnnouncement(COPIED_ANNOUNCEMENT));
    } catch {
      setState('refused');
      setAnnouncement(COPY_REFUSED_ANNOUNCEMENT);
    }
  };
  const copyRef = useRef(copy);
  copyRef.current = copy;

  // A tap made before the app started copied then, in the tap itself (scripts/lib/early-taps.mjs):
  // the app shows how that copy went.
  useEffect(() => {
    const button = buttonRef.current;
    if (!button) return;
    const copied = (event: Event) => {
      if (event instanceof CustomEvent && event.detail instanceof Promise) {
        void copyRef.current(event.detail as Promise<boolean>);
      }
    };
    button.addEventListener(EARLY_COPY_EVENT, copied);
    return () => button.removeEventListener(EARLY_COPY_EVENT, copied);
  }, []);

  return (
    <div className="mt-7 flex flex-col items-center gap-2 md:items-start">
      {/* Hovering the row or focusing the button shows the whole address (screen readers get it
          from the address itself). */}
      <div className="group relative flex max-w-full flex-wrap items-center justify-center gap-x-3 gap-y-2">
        <span className="font-display text-xs font-bold tracking-[0.25em] text-gold-300 uppercase">
          Contract
        </span>
        {/* In the brand sans, not a monospace: base58 has no 0, O, I or l to tell apart, and the
            monospace stack costs the first layout a system-font lookup per family it tries. */}
        <code className="rounded-full border border-gold-400/35 bg-court-950/60 px-3 py-1.5 font-sans text-sm font-semibold text-ivory">
          <span aria-hidden="true">{shortAddress(address)}</span>
          <span className="sr-only">{address}</span>
        </code>
        <button
          ref={buttonRef}
          type="button"
          data-early=""
          data-copy={address}
          onClick={() => void copy()}
          className="inline-flex h-11 min-w-11 items-center justify-center gap-1.5 rounded-full border border-gold-400/50 px-3 text-sm font-semibold text-gold-200 transition hover:border-gold-200 hover:bg-gold-300/10"
        >
          {state === 'copied' ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
          <span aria-hidden="true">{state === 'copied' ? 'Copied' : 'Copy'}</span>
          <span className="sr-only">{COPY_LABEL}</span>
        </button>
        <span
          aria-hidden="true"
          data-testid="full-address"
          className="pointer-events-none invisible absolute top-full left-1/2 z-10 mt-2 w-max max-w-[min(calc(100vw-2.5rem),28rem)] -translate-x-1/2 rounded-xl border border-gold-400/40 bg-court-950 px-3 py-2 font-sans text-xs break-all text-ivory opacity-0 shadow-lg transition-opacity group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100 md:left-0 md:translate-x-0"
        >
          {address}
        </span>
      </div>
      {state === 'refused' && (
        <label className="flex w-full max-w-md flex-col gap-1 text-left text-sm text-mist">
          Contract address
          <input
            ref={fieldRef}
            readOnly
            value={address}
            onFocus={(event) => event.currentTarget.select()}
            className="w-full rounded-lg border border-gold-400/50 bg-court-950 px-3 py-2 font-mono text-xs text-ivory"
          />
        </label>
      )}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}
