/**
 * One conversation with Pepa, whichever way each turn was said: the text chat's entries (her
 * greeting, the visitor's typed messages, her written replies) and a call's (spoken turns and
 * messages typed during it) as one thread, each entry marked "typed" or "spoken". Typed before a
 * call, the chat's entries stand above the call's; typed after it, below. Every remark of Pepa's
 * keeps the address a card of it is asked for by: a chat's by its chat and place, a call's by the
 * call and her place among her own remarks there.
 */
import { PEPA_FIRST_MESSAGE } from '../../../config/pepa-first-message';
import { ShareRemarkButton, type OpenShare, type SharedRemark } from '../share/share-button';
import { captionText, type TranscriptEntry } from '../voice/voice-state';

/** An entry of the text chat, as the chat's session keeps it (text/chat-session.ts). */
export interface ChatEntryLike {
  id: number;
  role: 'visitor' | 'pepa';
  text: string;
  cut?: 'stopped' | 'broken';
  card?: { chat: { id: string; secret: string }; remark: number };
}

/** How an entry was said. */
export type Via = 'typed' | 'spoken';

export interface ThreadEntry {
  key: string;
  who: 'visitor' | 'pepa';
  via: Via;
  text: string;
  /** Pepa's written reply was stopped by the visitor, or broke off, before its end. */
  cut?: 'stopped' | 'broken';
  /** One of Pepa's remarks that a card can be asked for. */
  shared?: SharedRemark;
}

export const SPEAKER_NAME: Record<ThreadEntry['who'], string> = { pepa: 'Pepa', visitor: 'You' };
export const CUT_TEXT: Record<NonNullable<ThreadEntry['cut']>, string> = {
  stopped: '(stopped)',
  broken: '(her words broke off here)',
};

/** The key of Pepa's greeting in a text chat: hers, shown at once, never sent to the model. */
export const GREETING_KEY = 'chat-greeting';

/**
 * Each of Pepa's remarks' place among her remarks (1 for her first): the place a card of it is
 * asked for by, as the provider numbers the remarks it recorded her saying.
 */
export function pepaRemarkPlaces(entries: readonly TranscriptEntry[]): Map<number, number> {
  const places = new Map<number, number>();
  for (const entry of entries) {
    if (entry.role === 'assistant') places.set(entry.id, places.size + 1);
  }
  return places;
}

/** A text chat's entries as the thread shows them, after Pepa's greeting. */
export function chatEntries(entries: readonly ChatEntryLike[]): ThreadEntry[] {
  const greeting: ThreadEntry = {
    key: GREETING_KEY,
    who: 'pepa',
    via: 'typed',
    text: PEPA_FIRST_MESSAGE,
  };
  return [
    greeting,
    ...entries.map((entry): ThreadEntry => ({
      key: `chat-${entry.id}`,
      who: entry.role,
      via: 'typed',
      text: entry.text,
      ...(entry.cut ? { cut: entry.cut } : {}),
      ...(entry.card
        ? {
            shared: {
              remark: {
                from: 'chat',
                conversationId: entry.card.chat.id,
                remark: entry.card.remark,
                chatSecret: entry.card.chat.secret,
              },
              words: entry.text,
            },
          }
        : {}),
    })),
  ];
}

/** A call's entries as the thread shows them; Pepa's shareable when the call is known. */
export function callEntries(
  entries: readonly TranscriptEntry[],
  callId: string | null,
): ThreadEntry[] {
  const places = pepaRemarkPlaces(entries);
  return entries.map((entry): ThreadEntry => {
    const place = places.get(entry.id);
    return {
      key: `call-${entry.id}`,
      who: entry.role === 'assistant' ? 'pepa' : 'visitor',
      via: entry.typed ? 'typed' : 'spoken',
      text: entry.text,
      ...(callId !== null && place !== undefined
        ? {
            shared: {
              remark: { from: 'call', conversationId: callId, remark: place },
              words: entry.text,
            },
          }
        : {}),
    };
  });
}

/**
 * The one thread: the chat's first `chatBefore` entries (those said before the call), the
 * call's, then the rest of the chat's.
 */
export function mergeThread(
  chat: readonly ThreadEntry[],
  call: readonly ThreadEntry[],
  chatBefore: number,
): ThreadEntry[] {
  return [...chat.slice(0, chatBefore), ...call, ...chat.slice(chatBefore)];
}

/**
 * The thread as plain text, one line of text per entry, for copying or saving: a typed one says so
 * ("You (typed): …"); a spoken one reads as a call's transcript always has ("Pepa: …").
 */
export function threadText(entries: readonly ThreadEntry[]): string {
  return entries
    .map((entry) => {
      const how = entry.via === 'typed' ? ' (typed)' : '';
      const cut = entry.cut ? ` ${CUT_TEXT[entry.cut]}` : '';
      return `${SPEAKER_NAME[entry.who]}${how}: ${entry.text}${cut}`;
    })
    .join('\n');
}

/** The accessible names of the marks. */
export const VIA_LABEL: Record<Via, string> = { typed: 'typed', spoken: 'spoken' };

const VIA_PATH: Record<Via, string> = {
  // A keyboard.
  typed: 'M3 7h18v10H3zM6 10h1M9 10h1M12 10h1M15 10h1M18 10h0M8 14h8',
  // A voice's wave.
  spoken: 'M4 10v4M8 7v10M12 4v16M16 7v10M20 10v4',
};

/**
 * The small mark before an entry of how it was said: a keyboard for typed, a voice's wave for
 * spoken, named "typed" or "spoken" for a screen reader (no text: an entry reads "You: …" as
 * ever).
 */
export function ViaMark({ via }: { via: Via }) {
  return (
    <svg
      role="img"
      aria-label={VIA_LABEL[via]}
      data-via={via}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className="mr-1.5 inline-block size-3.5 align-[-0.15em] text-mist"
    >
      <path d={VIA_PATH[via]} />
    </svg>
  );
}

export interface ThreadEntryRowProps {
  entry: ThreadEntry;
  /** Opens the share dialog for one of Pepa's remarks; no Share buttons without it. */
  onShare?: OpenShare | null;
  /** A live call's caption: a long one shows its end. */
  caption?: boolean;
  /** Words still forming: dimmed, with an ellipsis. */
  forming?: boolean;
  as?: 'p' | 'li';
}

/** One entry of the thread: who, how, the words, and Share for Pepa's. */
export function ThreadEntryRow({
  entry,
  onShare = null,
  caption = false,
  forming = false,
  as: Tag = 'p',
}: ThreadEntryRowProps) {
  const tone = entry.who === 'pepa' ? 'text-ivory' : 'text-court-300';
  return (
    <Tag
      data-thread-entry={entry.key}
      {...(forming ? { 'aria-hidden': true, 'data-testid': 'partial-caption' } : {})}
      className={forming ? `italic opacity-75 ${tone}` : tone}
    >
      <ViaMark via={entry.via} />
      <span className="font-semibold">{SPEAKER_NAME[entry.who]}: </span>
      {caption ? captionText(entry.text) : entry.text}
      {forming && '…'}
      {entry.cut && <span className="text-mist italic"> {CUT_TEXT[entry.cut]}</span>}
      {entry.shared && onShare && <ShareRemarkButton shared={entry.shared} onShare={onShare} />}
    </Tag>
  );
}
