/**
 * A text desk's record of the openings Pepa has answered today, and her replies to them: the
 * first message of a chat that repeats one is answered from what she said to it before, chosen at
 * random, rather than written again by the model at the model's price. Kept in the desk's own
 * SQLite storage (no request to anyone, and it outlives the desk's eviction), for the UTC day it
 * was kept on, and bounded: at most OPENINGS_KEPT openings (the least recently asked go first),
 * each with at most REPLIES_KEPT replies.
 *
 * An opening is answered from the record as soon as it holds one reply; while it holds fewer than
 * REPLIES_KEPT, every other time it is asked it goes to the model instead, whose reply (finished,
 * and passing the card's checks) joins the others: the record grows while it already serves, and
 * the same words are not always answered the same way.
 */
import { textLimitsFrom, type Settings } from '../../floor/config';
import { utcDay } from '../../floor/day';
import { keepable, openingChecksFrom, openingOf, type OpeningChecks } from './opening-text';

/** Openings a desk keeps at most; the least recently asked is forgotten first. */
export const OPENINGS_KEPT = 64;
/** Pepa's replies kept to one opening at most. */
export const REPLIES_KEPT = 4;

/** What the book needs of the desk's SQLite storage: one statement at a time, and its rows. */
export interface BookStorage {
  exec(query: string, ...bindings: (string | number)[]): { toArray(): unknown[] };
}

export class OpeningBook {
  /** The day whose openings are kept: the rows of any other are forgotten when it changes. */
  private keptDay: string | null = null;
  private cachedChecks: OpeningChecks | null = null;
  private cachedOn: boolean | null = null;

  /**
   * `env`: the Worker's settings (whether openings are answered from the record, and what a kept
   * reply is checked by); `random`: which of an opening's replies is given.
   */
  constructor(
    private readonly sql: BookStorage,
    private readonly env: Settings,
    private readonly random: () => number = Math.random,
  ) {
    // `asked` orders the openings by when they were last asked (a count, not a time: two asks in
    // one millisecond stay in order); `served` counts the answers from the record since the
    // last reply was kept.
    sql.exec(`CREATE TABLE IF NOT EXISTS openings (opening TEXT PRIMARY KEY, day TEXT NOT NULL,
      asked INTEGER NOT NULL, served INTEGER NOT NULL DEFAULT 0)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS opening_replies (opening TEXT NOT NULL,
      reply TEXT NOT NULL, kept_at INTEGER NOT NULL, PRIMARY KEY (opening, reply))`);
  }

  /**
   * Pepa's kept reply to `text`, the first message of a chat (`first`), when she has answered it
   * today and it is not the model's turn to answer it; null: the engine writes the reply.
   */
  replyTo(text: string, first: boolean, now: number): string | null {
    if (!first || !this.on()) return null;
    const opening = openingOf(text);
    if (opening === null) return null;
    this.forgetOtherDays(now);
    const [row] = this.rows<{ served: number }>(
      `SELECT served FROM openings WHERE opening = ?`,
      opening,
    );
    if (!row) return null;
    this.sql.exec(`UPDATE openings SET asked = ? WHERE opening = ?`, this.nextAsk(), opening);
    const replies = this.repliesTo(opening);
    if (replies.length === 0) return null;
    if (replies.length < REPLIES_KEPT && row.served > 0) return null;
    const reply = replies[Math.floor(this.random() * replies.length)] ?? replies[0] ?? null;
    this.sql.exec(`UPDATE openings SET served = served + 1 WHERE opening = ?`, opening);
    return reply;
  }

  /**
   * Pepa's reply to the first message `text` of a chat finished: kept for the openings still to
   * come today when `text` is an opening, the reply may be given again (opening-text.ts
   * `keepable`), and the opening holds fewer than REPLIES_KEPT. Whether it was kept.
   */
  keep(text: string, reply: string, now: number): boolean {
    if (!this.on()) return false;
    const opening = openingOf(text);
    if (opening === null) return false;
    if (!keepable(text, reply, this.checks())) return false;
    this.forgetOtherDays(now);
    if (this.repliesTo(opening).length >= REPLIES_KEPT) return false;
    this.sql.exec(
      `INSERT INTO openings (opening, day, asked, served) VALUES (?, ?, ?, 0)
       ON CONFLICT (opening) DO UPDATE SET asked = excluded.asked, served = 0`,
      opening,
      utcDay(now),
      this.nextAsk(),
    );
    this.sql.exec(
      `INSERT OR IGNORE INTO opening_replies (opening, reply, kept_at) VALUES (?, ?, ?)`,
      opening,
      reply,
      now,
    );
    this.forgetLeastAsked(opening);
    return true;
  }

  /** For tests: the openings kept, each with its replies, the most recently asked first. */
  kept(): { opening: string; replies: string[] }[] {
    return this.rows<{ opening: string }>(`SELECT opening FROM openings ORDER BY asked DESC`).map(
      ({ opening }) => ({ opening, replies: this.repliesTo(opening) }),
    );
  }

  /**
   * Whether openings are answered from the record: the owner's `GATE_CHAT_OPENINGS`, with the
   * model engine only. The provider's chat keeps a chat's history itself, and a reply it did not
   * write is not in it: the chat's next message would go to a chat that never heard the opening.
   * Read once (the variables change only with a deploy).
   */
  private on(): boolean {
    this.cachedOn ??=
      textLimitsFrom(this.env).openings && this.env.GATE_TEXT_ENGINE?.trim() === 'model';
    return this.cachedOn;
  }

  private checks(): OpeningChecks {
    this.cachedChecks ??= openingChecksFrom(this.env);
    return this.cachedChecks;
  }

  private repliesTo(opening: string): string[] {
    return this.rows<{ reply: string }>(
      `SELECT reply FROM opening_replies WHERE opening = ? ORDER BY kept_at, rowid`,
      opening,
    ).map(({ reply }) => reply);
  }

  private nextAsk(): number {
    const [row] = this.rows<{ last: number | null }>(`SELECT MAX(asked) AS last FROM openings`);
    return (row?.last ?? 0) + 1;
  }

  /** A new UTC day: what was kept on another day is forgotten (once a day, when first asked). */
  private forgetOtherDays(now: number): void {
    const day = utcDay(now);
    if (this.keptDay === day) return;
    this.sql.exec(
      `DELETE FROM opening_replies WHERE opening IN (SELECT opening FROM openings WHERE day <> ?)`,
      day,
    );
    this.sql.exec(`DELETE FROM openings WHERE day <> ?`, day);
    this.keptDay = day;
  }

  /** Past OPENINGS_KEPT, the openings least recently asked are forgotten (never `kept`). */
  private forgetLeastAsked(kept: string): void {
    const [row] = this.rows<{ n: number }>(`SELECT COUNT(*) AS n FROM openings`);
    const over = (row?.n ?? 0) - OPENINGS_KEPT;
    if (over <= 0) return;
    const least = `SELECT opening FROM openings WHERE opening <> ? ORDER BY asked LIMIT ?`;
    this.sql.exec(`DELETE FROM opening_replies WHERE opening IN (${least})`, kept, over);
    this.sql.exec(`DELETE FROM openings WHERE opening IN (${least})`, kept, over);
  }

  private rows<T>(query: string, ...bindings: (string | number)[]): T[] {
    return this.sql.exec(query, ...bindings).toArray() as T[];
  }
}
