import { useEffect, useRef, useState, type RefObject } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { useFollowNewest } from '../../../components/ui/use-follow-newest';
import type { OpenShare } from '../share/share-button';
import type { TranscriptLine, VoiceState } from '../voice/voice-state';
import { callEntries, threadText, ThreadLine, type ThreadEntry } from './thread';

export { pepaLinePlaces } from './thread';

export const TRANSCRIPT_HEADING = 'Your conversation with Pepa';
export const COPY_TRANSCRIPT = 'Copy transcript';
export const DOWNLOAD_TRANSCRIPT = 'Download transcript';
export const TRANSCRIPT_COPIED = 'Transcript copied';
export const TRANSCRIPT_COPY_REFUSED =
  'Your browser did not allow copying. The transcript is selected: copy it with your device.';
export const TRANSCRIPT_FILE_NAME = 'pepa-conversation.txt';
/** How long the copy button reads 'Copied'. */
export const COPIED_MS = 2000;

/** Sharing a call's lines: the call they are of, and the dialog that shares one. */
export interface CallShare {
  callId: string;
  open: OpenShare;
}

/**
 * The captions of a live call: the chat typed before it (when there was one), every finished
 * line of the call, then what each side is saying right now as it forms (dimmed). One thread,
 * each line marked typed or spoken. The panel is bounded and scrolls; screen readers hear
 * finished lines only.
 */
export function LiveCaptions({
  state,
  share = null,
  earlier = [],
}: {
  state: VoiceState;
  share?: CallShare | null;
  /** The chat's lines, said before the call: above the call's. */
  earlier?: readonly ThreadEntry[];
}) {
  const { transcript, partials } = state;
  const entries = [...earlier, ...callEntries(transcript, share?.callId ?? null)];
  const forming = (['user', 'assistant'] as const).filter((role) => partials[role]);
  const follow = useFollowNewest(`${transcript.length}:${partials.user}:${partials.assistant}`);
  return (
    <div
      ref={follow.ref}
      onScroll={follow.onScroll}
      role="log"
      aria-live="polite"
      aria-label="Captions"
      // The panel scrolls, so it must be reachable by keyboard.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className="max-h-40 w-full space-y-1.5 overflow-y-auto text-left text-sm wrap-anywhere"
    >
      {entries.map((entry) => (
        <ThreadLine key={entry.key} entry={entry} onShare={share?.open ?? null} caption />
      ))}
      {/* Words still forming: shown, not announced (the finished line is). */}
      {forming.map((role) => (
        <ThreadLine
          key={role}
          entry={{
            key: `forming-${role}`,
            who: role === 'assistant' ? 'pepa' : 'visitor',
            via: 'spoken',
            text: partials[role] ?? '',
          }}
          caption
          forming
        />
      ))}
    </div>
  );
}

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

/**
 * After a call the whole conversation stays readable, and can be copied or saved as text, until
 * the next call starts: the call's lines, after the chat's that came before them (when the
 * section shows no chat, which then holds the one thread itself).
 */
export function CallTranscript({
  lines,
  share = null,
  earlier = [],
}: {
  lines: readonly TranscriptLine[];
  share?: CallShare | null;
  earlier?: readonly ThreadEntry[];
}) {
  const textRef = useRef<HTMLDivElement>(null);
  const entries = [...earlier, ...callEntries(lines, share?.callId ?? null)];

  return (
    <section aria-labelledby="transcript-title" className="w-full text-left">
      <h3 id="transcript-title" className="text-sm font-semibold text-gold-200">
        {TRANSCRIPT_HEADING}
      </h3>
      <div
        ref={textRef}
        // A scrollable region must be reachable by keyboard.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        aria-label="Transcript"
        role="region"
        className="mt-2 max-h-48 space-y-1.5 overflow-y-auto rounded-2xl border border-court-500/50 bg-court-950/60 p-3 text-sm wrap-anywhere"
      >
        {entries.map((entry) => (
          <ThreadLine key={entry.key} entry={entry} onShare={share?.open ?? null} />
        ))}
      </div>
      <TranscriptActions text={threadText(entries)} selectRef={textRef} />
    </section>
  );
}
