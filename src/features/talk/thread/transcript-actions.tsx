/**
 * Copy and Download of a conversation (the one thread, or a call's transcript): nothing leaves
 * the browser.
 */
import { useEffect, useState, type RefObject } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';

export const COPY_TRANSCRIPT = 'Copy transcript';
export const DOWNLOAD_TRANSCRIPT = 'Download transcript';
export const TRANSCRIPT_COPIED = 'Transcript copied';
export const TRANSCRIPT_COPY_REFUSED =
  'Your browser did not allow copying. The transcript is selected: copy it with your device.';
export const TRANSCRIPT_FILE_NAME = 'pepa-conversation.txt';
/** How long the copy button reads 'Copied'. */
export const COPIED_MS = 2000;

type CopyState = 'idle' | 'copied' | 'refused';

/**
 * Copy and Download of a conversation's text. Nothing leaves the browser. A refused copy selects
 * the conversation (`selectRef`) for the visitor's own copy command.
 */
export function TranscriptActions({
  text,
  selectRef,
}: {
  text: string;
  selectRef: RefObject<HTMLElement | null>;
}) {
  const [copy, setCopy] = useState<CopyState>('idle');
  const [announcement, setAnnouncement] = useState('');

  // 'Copied' reverts after a moment; no timer outlives the panel.
  useEffect(() => {
    if (copy !== 'copied') return;
    const timer = window.setTimeout(() => setCopy('idle'), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copy]);

  useEffect(() => {
    if (copy !== 'refused' || !selectRef.current) return;
    // Selected for the visitor's own copy command.
    const selection = window.getSelection();
    const range = document.createRange();
    range.selectNodeContents(selectRef.current);
    selection?.removeAllRanges();
    selection?.addRange(range);
  }, [copy, selectRef]);

  const onCopy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setCopy('copied');
      setAnnouncement('');
      queueMicrotask(() => setAnnouncement(TRANSCRIPT_COPIED));
    } catch {
      setCopy('refused');
      setAnnouncement(TRANSCRIPT_COPY_REFUSED);
    }
  };

  const onDownload = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = TRANSCRIPT_FILE_NAME;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    // The download has its own copy of the data once started.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  return (
    <>
      <div className="mt-3 flex flex-wrap justify-center gap-3">
        <button
          type="button"
          onClick={() => void onCopy()}
          className={buttonClass('outline', 'md')}
        >
          {copy === 'copied' ? 'Copied' : COPY_TRANSCRIPT}
        </button>
        <button type="button" onClick={onDownload} className={buttonClass('outline', 'md')}>
          {DOWNLOAD_TRANSCRIPT}
        </button>
      </div>
      {/* A live region, not a second status: the panel's one status is the call's. */}
      <p aria-live="polite" className="sr-only" data-testid="transcript-announcement">
        {announcement}
      </p>
    </>
  );
}
