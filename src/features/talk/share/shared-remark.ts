/**
 * One of Pepa's remarks as the page shares it: where it is (the conversation and its place, by
 * which the gate finds her words) and how its Share buttons are named.
 */
import type { CardRemark } from '../../../api/cards';

export type { CardRemark };

/** One of Pepa's remarks as a card is asked for: its address, and its words as the page shows them. */
export interface SharedRemark {
  remark: CardRemark;
  words: string;
}

/** The attribute naming the remark a Share button shares: the focus comes back to it. */
export const SHARE_REMARK_ATTRIBUTE = 'data-share-remark';

/** One name per remark, the same on every Share button of it (during and after a call). */
export const shareRemarkKey = (remark: CardRemark) =>
  `${remark.from}:${remark.conversationId}:${remark.remark}`;

/** A Share button's accessible name: which remark it shares. */
export const shareRemarkLabel = (words: string) =>
  `Share this remark of Pepa's: “${remarkExcerpt(words)}”`;

/** The first few words of a remark, to name it (a button's accessible name). */
export function remarkExcerpt(words: string, maxWords = 6): string {
  const all = words.replace(/\s+/g, ' ').trim().split(' ');
  return all.length <= maxWords ? all.join(' ') : `${all.slice(0, maxWords).join(' ')}…`;
}
