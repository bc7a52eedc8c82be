import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../src/floor/day';
import { OPENINGS_KEPT, OpeningBook, REPLIES_KEPT } from '../src/text/openings/opening-book';
import { gateEnv, T0 } from './bench';
import { desk } from './visitor-chats';

const REPLIES = [
  'Ribbit! A royal good morning.',
  'Good morning, honoured guest!',
  'The pond wakes, and so do I.',
  'Morning! The lilies are open.',
  'A fifth morning, never kept.',
];

let books = 0;

/**
 * Runs `use` with a book in a desk's own SQLite storage (a desk of its own, never one a chat
 * uses), as the model engine with openings on, or as `vars` say; `draws` are the random picks.
 */
async function withBook<T>(
  use: (book: OpeningBook) => T,
  { draws = [] as number[], vars = {} as Record<string, string> } = {},
): Promise<T> {
  books += 1;
  const env = { ...gateEnv, GATE_TEXT_ENGINE: 'model', GATE_CHAT_OPENINGS: 'on', ...vars };
  const random = () => draws.shift() ?? 0;
  return runInDurableObject(desk(`opening-book-${books}`), (_desk, state) =>
    use(new OpeningBook(state.storage.sql, env, random)),
  );
}

/** Keeps `count` of REPLIES to "gm", each as a first message's finished reply. */
function keepMornings(book: OpeningBook, count: number, at = T0): void {
  for (const reply of REPLIES.slice(0, count)) expect(book.keep('gm', reply, at)).toBe(true);
}

describe("a desk's record of openings", () => {
  it('answers an opening it holds a reply to, written any way that reads the same', async () => {
    await withBook((book) => {
      expect(book.replyTo('gm', true, T0)).toBeNull();
      keepMornings(book, 1);
      expect(book.replyTo('GM!', true, T0)).toBe(REPLIES[0]);
      expect(book.replyTo('hello', true, T0)).toBeNull();
    });
  });

  it("answers only a chat's first message", async () => {
    await withBook((book) => {
      keepMornings(book, REPLIES_KEPT);
      expect(book.replyTo('gm', false, T0)).toBeNull();
      expect(book.replyTo('gm', true, T0)).not.toBeNull();
    });
  });

  it('chooses at random among the replies an opening holds', async () => {
    const draws = [0, 0.3, 0.6, 0.99];
    const given = await withBook(
      (book) => {
        keepMornings(book, REPLIES_KEPT);
        return draws.map(() => book.replyTo('gm', true, T0));
      },
      { draws: [...draws] },
    );
    expect(given).toEqual(REPLIES.slice(0, REPLIES_KEPT));
  });

  it('gives every other ask of an opening to the model until it holds its replies, then none', async () => {
    await withBook((book) => {
      keepMornings(book, 1);
      expect(book.replyTo('gm', true, T0)).toBe(REPLIES[0]);
      // The model's turn: its reply, kept, joins the first.
      expect(book.replyTo('gm', true, T0)).toBeNull();
      expect(book.replyTo('gm', true, T0)).toBeNull();
      expect(book.keep('gm', REPLIES[1] ?? '', T0)).toBe(true);
      expect(book.replyTo('gm', true, T0)).not.toBeNull();
      keepMornings(book, REPLIES_KEPT);
      for (let ask = 0; ask < 6; ask += 1) expect(book.replyTo('gm', true, T0)).not.toBeNull();
    });
  });

  it(`keeps at most ${REPLIES_KEPT} replies to an opening`, async () => {
    await withBook((book) => {
      keepMornings(book, REPLIES_KEPT);
      expect(book.keep('gm', REPLIES[REPLIES_KEPT] ?? '', T0)).toBe(false);
      expect(book.kept()).toEqual([{ opening: 'gm', replies: REPLIES.slice(0, REPLIES_KEPT) }]);
    });
  });

  it(`keeps at most ${OPENINGS_KEPT} openings, forgetting the least recently asked`, async () => {
    await withBook((book) => {
      for (let n = 0; n < OPENINGS_KEPT; n += 1) {
        expect(book.keep(`hello ${n}`, 'Ribbit! Hello.', T0)).toBe(true);
      }
      // Asked again, the first is the most recent: the second is now the least.
      expect(book.replyTo('hello 0', true, T0)).toBe('Ribbit! Hello.');
      expect(book.keep('one more', 'Ribbit! Hello.', T0)).toBe(true);
      const openings = book.kept().map(({ opening }) => opening);
      expect(openings).toHaveLength(OPENINGS_KEPT);
      expect(openings).toContain('hello 0');
      expect(openings).toContain('one more');
      expect(openings).not.toContain('hello 1');
    });
  });

  it('forgets what it kept when the UTC day turns', async () => {
    await withBook((book) => {
      keepMornings(book, REPLIES_KEPT);
      const midnight = Math.ceil(T0 / DAY_MS) * DAY_MS;
      expect(book.replyTo('gm', true, midnight - 1)).not.toBeNull();
      expect(book.replyTo('gm', true, midnight)).toBeNull();
      expect(book.kept()).toEqual([]);
      // The new day keeps its own.
      expect(book.keep('gm', 'A new day in the pond.', midnight)).toBe(true);
      expect(book.replyTo('gm', true, midnight)).toBe('A new day in the pond.');
    });
  });

  it("never keeps a reply a card would refuse, one cut off, or a long message's", async () => {
    await withBook((book) => {
      expect(book.keep('wen moon', '$PEPA will 100x, guaranteed returns!', T0)).toBe(false);
      expect(book.keep('hi', 'Write to me at pepa@example.com today.', T0)).toBe(false);
      expect(book.keep('who are you', 'I am Pepa, queen of the pond and', T0)).toBe(false);
      expect(book.keep('tell me '.repeat(10), 'Ribbit! Hello.', T0)).toBe(false);
      expect(book.kept()).toEqual([]);
      expect(book.replyTo('wen moon', true, T0)).toBeNull();
    });
  });

  it('neither keeps nor answers when the owner turned openings off, or with the provider chat', async () => {
    const settings: Record<string, string>[] = [
      { GATE_CHAT_OPENINGS: 'off' },
      { GATE_TEXT_ENGINE: 'provider-chat' },
    ];
    for (const vars of settings) {
      await withBook(
        (book) => {
          expect(book.keep('gm', REPLIES[0] ?? '', T0)).toBe(false);
          expect(book.replyTo('gm', true, T0)).toBeNull();
          expect(book.kept()).toEqual([]);
        },
        { vars },
      );
    }
  });
});
