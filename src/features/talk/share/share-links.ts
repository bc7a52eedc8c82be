/**
 * Where a card goes: the words said with it, and the addresses of X's and Telegram's own share
 * screens, which take the text and the card's page as they are (no script of theirs on ours).
 */

/** The words a post carries beside the link: X counts a link as 23 characters of its 280. */
export const SHARE_TEXT_MAX_CHARS = 200;

const SIGNATURE = ' — Pepa, $PEPA';

/** `words` cut at a word to at most `max` characters, with an ellipsis when cut. */
export function cutAtWord(words: string, max: number): string {
  const text = words.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const lastSpace = room.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? room.slice(0, lastSpace) : room).replace(/[\s,;:.!?-]+$/, '')}…`;
}

/** What a post says with the card's link: Pepa's words, quoted, and whose they are. */
export function shareText(words: string): string {
  return `“${cutAtWord(words, SHARE_TEXT_MAX_CHARS - SIGNATURE.length - 2)}”${SIGNATURE}`;
}

/** X's post screen, with the text and the card's page filled in. */
export function xPostUrl(text: string, pageUrl: string): string {
  return `https://x.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(pageUrl)}`;
}

/** Telegram's share screen, with the card's page and the text filled in. */
export function telegramShareUrl(text: string, pageUrl: string): string {
  return `https://t.me/share/url?url=${encodeURIComponent(pageUrl)}&text=${encodeURIComponent(text)}`;
}
