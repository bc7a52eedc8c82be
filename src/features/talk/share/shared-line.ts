/**
 * One of Pepa's lines as the page shares it: where it is (the conversation and its place, by
 * which the gate finds her words) and how its Share buttons are named.
 */
import type { CardLine } from '../../../api/cards';

export type { CardLine };

/** One of Pepa's lines as a card is asked for: its address, and its words as the page shows them. */
export interface SharedLine {
  line: CardLine;
  words: string;
}

/** The attribute naming the line a Share button shares: the focus comes back to it. */
export const SHARE_LINE_ATTRIBUTE = 'data-share-line';

/** One name per line, the same on every Share button of that line (during and after a call). */
export const shareLineKey = (line: CardLine) => `${line.from}:${line.conversationId}:${line.line}`;

/** A Share button's accessible name: which line it shares. */
export const shareLineLabel = (words: string) =>
  `Share this line of Pepa's: “${lineExcerpt(words)}”`;

/** The first few words of a line, to name it (a button's accessible name). */
export function lineExcerpt(words: string, maxWords = 6): string {
  const all = words.replace(/\s+/g, ' ').trim().split(' ');
  return all.length <= maxWords ? all.join(' ') : `${all.slice(0, maxWords).join(' ')}…`;
}
