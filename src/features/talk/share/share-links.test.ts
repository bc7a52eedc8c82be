import { describe, expect, it } from 'vitest';
import {
  SHARE_TEXT_MAX_CHARS,
  cutAtWord,
  shareText,
  telegramShareUrl,
  xPostUrl,
} from './share-links';
import { remarkExcerpt } from './shared-remark';

describe('the words said with a card', () => {
  it("quote Pepa's words and say whose they are", () => {
    expect(shareText('Ribbit!  Long live\nthe court.')).toBe(
      '“Ribbit! Long live the court.” — Pepa, $PEPA',
    );
  });

  it('are cut at a word, with an ellipsis, to leave room for the link on X', () => {
    const text = shareText('lily '.repeat(100));
    expect(text.length).toBeLessThanOrEqual(SHARE_TEXT_MAX_CHARS);
    expect(text).toMatch(/^“(lily )+lily…” — Pepa, \$PEPA$/);
    expect(cutAtWord('one two three', 9)).toBe('one two…');
    expect(cutAtWord('Croak, croak', 8)).toBe('Croak…');
  });
});

describe('the share screens', () => {
  const page = 'https://pepa.example/q/abc_DEF-0123456789?x=1&y=2';
  const text = '“A & B?” — Pepa, $PEPA #1';

  it("carry the text and the card's page to X, each encoded whole", () => {
    const url = new URL(xPostUrl(text, page));
    expect(`${url.origin}${url.pathname}`).toBe('https://x.com/intent/tweet');
    expect([...url.searchParams.keys()]).toEqual(['text', 'url']);
    expect(url.searchParams.get('text')).toBe(text);
    expect(url.searchParams.get('url')).toBe(page);
  });

  it("carry the card's page and the text to Telegram, each encoded whole", () => {
    const url = new URL(telegramShareUrl(text, page));
    expect(`${url.origin}${url.pathname}`).toBe('https://t.me/share/url');
    expect([...url.searchParams.keys()]).toEqual(['url', 'text']);
    expect(url.searchParams.get('url')).toBe(page);
    expect(url.searchParams.get('text')).toBe(text);
  });
});

describe('a remark named by its first words', () => {
  it('keeps a short remark whole and cuts a long one after six words', () => {
    expect(remarkExcerpt('Ribbit, guest!')).toBe('Ribbit, guest!');
    expect(remarkExcerpt('one two three four five six seven')).toBe('one two three four five six…');
  });
});
