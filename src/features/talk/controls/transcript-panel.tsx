import { useEffect, useRef, useState } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { useFollowNewest } from '../../../components/ui/use-follow-newest';
import { ShareLineButton, type OpenShare } from '../share/share-button';
import {
  captionText,
  transcriptText,
  type Speaker,
  type TranscriptLine,
  type VoiceState,
} from '../voice/voice-state';

export const TRANSCRIPT_HEADING = 'Your conversation with Pepa';
export const COPY_TRANSCRIPT = 'Copy transcript';
export const DOWNLOAD_TRANSCRIPT = 'Download transcript';
export const TRANSCRIPT_COPIED = 'Transcript copied';
export const TRANSCRIPT_COPY_REFUSED =
  'Your browser did not allow copying. The transcript is selected: copy it with your device.';
export const TRANSCRIPT_FILE_NAME = 'pepa-conversation.txt';
/** How long the copy button reads 'Copied'. */
export const COPIED_MS = 2000;

const SPEAKER: Record<Speaker, string> = { assistant: 'Pepa: ', user: 'You: ' };
const SPEAKER_CLASS: Record<Speaker, string> = {
  assistant: 'text-ivory',
  user: 'text-court-300',
};

/** Sharing a call's lines: the call they are of, and the dialog that shares one. */
export interface CallShare {
  callId: string;
  open: OpenShare;
}

/**
 * Each of Pepa's lines' place among her lines (1 for her first): the place a card of it is asked
 * for by, as the provider numbers the lines it recorded her saying.
 */
export function pepaLinePlaces(lines: readonly TranscriptLine[]): Map<number, number> {
  const places = new Map<number, number>();
  for (const line of lines) if (line.role === 'assistant') places.set(line.id, places.size + 1);
  return places;
}

/** The Share button after one of Pepa's finished lines, when the call's lines can be shared. */
function ShareButtonOf({
  line,
  places,
  share,
}: {
  line: TranscriptLine;
  places: Map<number, number>;
  share: CallShare | null;
}) {
  const place = places.get(line.id);
  if (!share || place === undefined) return null;
  return (
    <ShareLineButton
      shared={{
        line: { from: 'call', conversationId: share.callId, line: place },
        words: line.text,
      }}
      onShare={share.open}
    />
  );
}

/**
 * The captions of a live call: every finished line, then what each side is saying right now as
 * it forms (dimmed). The panel is bounded and scrolls; screen readers hear finished lines only.
 */
export function LiveCaptions({
  state,
  share = null,
}: {
  state: VoiceState;
  share?: CallShare | null;
}) {
  const { transcript, partials } = state;
  const places = pepaLinePlaces(transcript);
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
      {transcript.map((line) => (
        <p key={line.id} className={SPEAKER_CLASS[line.role]}>
          <span className="font-semibold">{SPEAKER[line.role]}</span>
          {captionText(line.text)}
          <ShareButtonOf line={line} places={places} share={share} />
        </p>
      ))}
      {/* Words still forming: shown, not announced (the finished line is). */}
      {forming.map((role) => (
        <p
          key={role}
          aria-hidden="true"
          data-testid="partial-caption"
          className={`italic opacity-75 ${SPEAKER_CLASS[role]}`}
        >
          <span className="font-semibold">{SPEAKER[role]}</span>
          {captionText(partials[role] ?? '')}…
        </p>
      ))}
    </div>
  );
}

type CopyState = 'idle' | 'copied' | 'refused';

/**
 * After a call the whole conversation stays readable, and can be copied or saved as text, until
 * the next call starts. Nothing leaves the browser.
 */
export function CallTranscript({
  lines,
  share = null,
}: {
  lines: readonly TranscriptLine[];
  share?: CallShare | null;
}) {
  const places = pepaLinePlaces(lines);
  const [copy, setCopy] = useState<CopyState>('idle');
  const [announcement, setAnnouncement] = useState('');
  const textRef = useRef<HTMLDivElement>(null);
  const text = transcriptText(lines);

  // 'Copied' reverts after a moment; no timer outlives the panel.
  useEffect(() => {
    if (copy !== 'copied') return;
    const timer = window.setTimeout(() => setCopy('idle'), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copy]);

  useEffect(() => {
    if (copy !== 'refused' || !textRef.current) return;
    // Selected for the visitor's own copy command.
    const selection = window.getSelection();
    const range = document.createRange();
    range.selectNodeContents(textRef.current);
    selection?.removeAllRanges();
    selection?.addRange(range);
  }, [copy]);

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
        {lines.map((line) => (
          <p key={line.id} className={SPEAKER_CLASS[line.role]}>
            <span className="font-semibold">{SPEAKER[line.role]}</span>
            {line.text}
            <ShareButtonOf line={line} places={places} share={share} />
          </p>
        ))}
      </div>
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
    </section>
  );
}
