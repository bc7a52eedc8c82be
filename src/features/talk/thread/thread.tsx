/**
 * One conversation with Pepa, whichever way each turn was said: the text chat's lines (her first
 * line, the visitor's typed messages, her written replies) and a call's (spoken turns and lines
 * typed during it) as one thread, each line marked "typed" or "spoken". Typed before a call, the
 * chat's lines stand above the call's; typed after it, below. Every line of Pepa's keeps the
 * address a card of it is asked for by: a chat's line by its chat and place, a call's by the
 * call and her place among her own lines there.
 */
import { PEPA_FIRST_MESSAGE } from '../../../config/pepa-first-message';
import { ShareLineButton, type OpenShare, type SharedLine } from '../share/share-button';
import { captionText, type TranscriptLine } from '../voice/voice-state';

/** A line of the text chat, as the chat's session keeps it (text/chat-session.ts). */
export interface ChatLineLike {
  id: number;
  role: 'visitor' | 'pepa';
  text: string;
  cut?: 'stopped' | 'broken';
  card?: { chat: { id: string; secret: string }; line: number };
}

/** How a line was said. */
export type Via = 'typed' | 'spoken';

export interface ThreadEntry {
  key: string;
  who: 'visitor' | 'pepa';
  via: Via;
  text: string;
  /** Pepa's written reply was stopped by the visitor, or broke off, before its end. */
  cut?: 'stopped' | 'broken';
  /** One of Pepa's lines that a card can be asked for. */
  shared?: SharedLine;
}

export const SPEAKER_NAME: Record<ThreadEntry['who'], string> = { pepa: 'Pepa', visitor: 'You' };
export const CUT_TEXT: Record<NonNullable<ThreadEntry['cut']>, string> = {
  stopped: '(stopped)',
  broken: '(her words broke off here)',
};

/** The key of Pepa's first line in a text chat: hers, shown at once, never sent to the model. */
export const GREETING_KEY = 'chat-greeting';

/**
 * Each of Pepa's lines' place among her lines (1 for her first): the place a card of it is asked
 * for by, as the provider numbers the lines it recorded her saying.
 */
export function pepaLinePlaces(lines: readonly TranscriptLine[]): Map<number, number> {
  const places = new Map<number, number>();
  for (const line of lines) if (line.role === 'assistant') places.set(line.id, places.size + 1);
  return places;
}

/** A text chat's lines as the thread shows them, after Pepa's first line. */
export function chatEntries(lines: readonly ChatLineLike[]): ThreadEntry[] {
  const greeting: ThreadEntry = {
    key: GREETING_KEY,
    who: 'pepa',
    via: 'typed',
    text: PEPA_FIRST_MESSAGE,
  };
  return [
    greeting,
    ...lines.map((line): ThreadEntry => ({
      key: `chat-${line.id}`,
      who: line.role,
      via: 'typed',
      text: line.text,
      ...(line.cut ? { cut: line.cut } : {}),
      ...(line.card
        ? {
            shared: {
              line: {
                from: 'chat',
                conversationId: line.card.chat.id,
                line: line.card.line,
                chatSecret: line.card.chat.secret,
              },
              words: line.text,
            },
          }
        : {}),
    })),
  ];
}

/** A call's lines as the thread shows them; Pepa's shareable when the call is known. */
export function callEntries(
  lines: readonly TranscriptLine[],
  callId: string | null,
): ThreadEntry[] {
  const places = pepaLinePlaces(lines);
  return lines.map((line): ThreadEntry => {
    const place = places.get(line.id);
    return {
      key: `call-${line.id}`,
      who: line.role === 'assistant' ? 'pepa' : 'visitor',
      via: line.typed ? 'typed' : 'spoken',
      text: line.text,
      ...(callId !== null && place !== undefined
        ? {
            shared: {
              line: { from: 'call', conversationId: callId, line: place },
              words: line.text,
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
 * The thread as plain text, one line per turn, for copying or saving: a typed line says so
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
 * The small mark before a line of how it was said: a keyboard for typed, a voice's wave for
 * spoken, named "typed" or "spoken" for a screen reader (no text: a line reads "You: …" as ever).
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

export interface ThreadLineProps {
  entry: ThreadEntry;
  /** Opens the share dialog for one of Pepa's lines; no Share buttons without it. */
  onShare?: OpenShare | null;
  /** A live call's caption: a long line shows its end. */
  caption?: boolean;
  /** Words still forming: dimmed, with an ellipsis. */
  forming?: boolean;
  as?: 'p' | 'li';
}

/** One line of the thread: who, how, the words, and Share for Pepa's. */
export function ThreadLine({
  entry,
  onShare = null,
  caption = false,
  forming = false,
  as: Tag = 'p',
}: ThreadLineProps) {
  const tone = entry.who === 'pepa' ? 'text-ivory' : 'text-court-300';
  return (
    <Tag
      data-thread-line={entry.key}
      {...(forming ? { 'aria-hidden': true, 'data-testid': 'partial-caption' } : {})}
      className={forming ? `italic opacity-75 ${tone}` : tone}
    >
      <ViaMark via={entry.via} />
      <span className="font-semibold">{SPEAKER_NAME[entry.who]}: </span>
      {caption ? captionText(entry.text) : entry.text}
      {forming && '…'}
      {entry.cut && <span className="text-mist italic"> {CUT_TEXT[entry.cut]}</span>}
      {entry.shared && onShare && <ShareLineButton shared={entry.shared} onShare={onShare} />}
    </Tag>
  );
}
