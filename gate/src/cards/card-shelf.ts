/**
 * The cards a network's visitors made: how many each made today (their limit), and which card
 * each line became, so asking twice for one line gives the same card and costs nothing. The site
 * has CARD_SHELVES of them, a visitor's chosen by their network as a text desk is; the court never
 * hears of cards.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Card } from '../../../generated/gate/types.gen';
import { utcDay } from '../court-money';
import type { Visitor } from '../visitor';
import { secondsToNextUtcDay } from '../visitor-limits';
import { deskFor } from '../text-records';

/** A card being made is held this long before another ask may make it instead. */
export const MAKING_MS = 30_000;

/** The shelf of a visitor: their text desk's number, so neighbours are counted in one place. */
export function shelfFor(visitor: Visitor): string {
  return deskFor(visitor).replace('desk-', 'shelf-');
}

export type Claim =
  | { kind: 'make' }
  | { kind: 'made'; card: Card }
  | { kind: 'making' }
  | { kind: 'limited'; retryAfterSeconds: number };

export class CardShelf extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS lines (source TEXT PRIMARY KEY, visitor TEXT NOT NULL,
      at INTEGER NOT NULL, card TEXT)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS card_days (visitor TEXT NOT NULL, day TEXT NOT NULL,
      made INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (visitor, day))`);
  }

  private madeToday(visitor: string, day: string): number {
    const row = this.sql
      .exec<{ made: number }>(
        `SELECT made FROM card_days WHERE visitor = ? AND day = ?`,
        visitor,
        day,
      )
      .toArray()[0];
    return row?.made ?? 0;
  }

  /**
   * A visitor asks for a card of `source` (a conversation's line): the card made before, a card
   * being made now, the day's limit reached, or the right to make it (counted at once).
   */
  async claim(visitor: string, source: string, perDay: number): Promise<Claim> {
    const now = Date.now();
    const line = this.sql
      .exec<{ visitor: string; at: number; card: string | null }>(
        `SELECT visitor, at, card FROM lines WHERE source = ?`,
        source,
      )
      .toArray()[0];
    if (line?.card && line.visitor === visitor) {
      return { kind: 'made', card: JSON.parse(line.card) as Card };
    }
    if (line && !line.card && line.at > now - MAKING_MS) return { kind: 'making' };
    const day = utcDay(now);
    if (this.madeToday(visitor, day) >= perDay) {
      return { kind: 'limited', retryAfterSeconds: secondsToNextUtcDay(now) };
    }
    this.sql.exec(
      `INSERT INTO lines (source, visitor, at, card) VALUES (?, ?, ?, NULL)
       ON CONFLICT (source) DO UPDATE SET visitor = excluded.visitor, at = excluded.at, card = NULL`,
      source,
      visitor,
      now,
    );
    this.count(visitor, day, 1);
    return { kind: 'make' };
  }

  /** The card of `source` is made: asking for it again gives it. */
  async made(source: string, card: Card): Promise<void> {
    this.sql.exec(`UPDATE lines SET card = ? WHERE source = ?`, JSON.stringify(card), source);
  }

  /** No card came of `source` (its words were not found or refused): the visitor's count back. */
  async unmade(visitor: string, source: string): Promise<void> {
    this.sql.exec(`DELETE FROM lines WHERE source = ? AND card IS NULL`, source);
    this.count(visitor, utcDay(Date.now()), -1);
  }

  private count(visitor: string, day: string, add: number): void {
    this.sql.exec(
      `INSERT INTO card_days (visitor, day, made) VALUES (?, ?, MAX(0, ?))
       ON CONFLICT (visitor, day) DO UPDATE SET made = MAX(0, made + ?)`,
      visitor,
      day,
      add,
      add,
    );
    // What is older than yesterday is nobody's limit any more.
    const yesterday = Date.now() - 86_400_000;
    this.sql.exec(`DELETE FROM card_days WHERE day < ?`, utcDay(yesterday));
    this.sql.exec(`DELETE FROM lines WHERE at < ?`, yesterday);
  }
}
