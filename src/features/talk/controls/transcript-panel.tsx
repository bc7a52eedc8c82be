import { useRef } from 'react';
import { useFollowNewest } from '../../../components/ui/use-follow-newest';
import type { OpenShare } from '../share/share-button';
import type { TranscriptEntry, VoiceState } from '../voice/voice-state';
import { callEntries, threadText, ThreadEntryRow, type ThreadEntry } from '../thread/thread';
import { TranscriptActions } from '../thread/transcript-actions';

export { pepaRemarkPlaces } from '../thread/thread';

export const TRANSCRIPT_HEADING = 'Your conversation with Pepa';
export {
  COPIED_MS,
  COPY_TRANSCRIPT,
  DOWNLOAD_TRANSCRIPT,
  TRANSCRIPT_COPIED,
  TRANSCRIPT_COPY_REFUSED,
  TRANSCRIPT_FILE_NAME,
} from '../thread/transcript-actions';

/** Sharing Pepa's remarks in a call: the call they are of, and the dialog that shares one. */
export interface CallShare {
  callId: string;
  open: OpenShare;
}

/**
 * The captions of a live call: the chat typed before it (when there was one), every finished
 * entry of the call, then what each side is saying right now as it forms (dimmed). One thread,
 * each entry marked typed or spoken. The panel is bounded and scrolls; screen readers hear
 * finished entries only.
 */
export function LiveCaptions({
  state,
  share = null,
  earlier = [],
}: {
  state: VoiceState;
  share?: CallShare | null;
  /** The chat's entries, said before the call: above the call's. */
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
      className="h-40 w-full space-y-1.5 thread-scroll overflow-y-auto text-left text-sm wrap-anywhere"
    >
      {entries.map((entry) => (
        <ThreadEntryRow key={entry.key} entry={entry} onShare={share?.open ?? null} caption />
      ))}
      {/* Words still forming: shown, not announced (the finished entry is). */}
      {forming.map((role) => (
        <ThreadEntryRow
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

/**
 * After a call the whole conversation stays readable, and can be copied or saved as text, until
 * the next call starts: the call's entries, after the chat's that came before them (when the
 * section shows no chat, which then holds the one thread itself).
 */
export function CallTranscript({
  transcript,
  share = null,
  earlier = [],
}: {
  transcript: readonly TranscriptEntry[];
  share?: CallShare | null;
  earlier?: readonly ThreadEntry[];
}) {
  const textRef = useRef<HTMLDivElement>(null);
  const entries = [...earlier, ...callEntries(transcript, share?.callId ?? null)];

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
        className="mt-2 max-h-48 space-y-1.5 thread-scroll overflow-y-auto rounded-2xl border border-court-500/50 bg-court-950/60 p-3 text-sm wrap-anywhere"
      >
        {entries.map((entry) => (
          <ThreadEntryRow key={entry.key} entry={entry} onShare={share?.open ?? null} />
        ))}
      </div>
      <TranscriptActions text={threadText(entries)} selectRef={textRef} />
    </section>
  );
}
