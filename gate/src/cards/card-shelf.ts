/**
 * The cards a network's visitors made: how many each visitor, their network (/24 or /48) and each
 * conversation made today (their limits), and which card each remark became, so asking twice
 * for one remark gives the same card and costs nothing. The site has CARD_SHELVES of them, a
 * visitor's chosen by their network's key alone, so every visitor of one network, and every
 * conversation of theirs, is counted on one shelf; the court never hears of cards.
 *
 * A card is counted once it is made. An ask under way holds a place (a reservation) until its
 * card is made or refused: while the places held could still come back, a new ask is told to ask
 * again in a moment (card-not-ready), never refused for a limit that may not be reached.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Card } from '../../../generated/gate/types.gen';
import { secondsToNextUtcDay, utcDay } from '../floor/day';
import { Load, type LoadWindow } from '../floor/load';
import { networkBucket, type Visitor } from '../floor/visitor';

/** A card being made is held this long before another ask may make it instead. */
export const MAKING_MS = 30_000;
/** How many shelves share the site's cards. */
export const CARD_SHELVES = 32;
/** When to ask again while other asks hold the last places under a limit. */
export const HELD_RETRY_SECONDS = 2;
/** How long what was asked is kept: past yesterday it is nobody's limit or card any more. */
const KEPT_MS = 2 * 86_400_000;

/**
 * The shelf of a visitor: by their network's key (the /24 or /48, hashed), so one shelf counts
 * the whole network, however many visitors it holds.
 */
export function shelfFor(visitor: Visitor): string {
  return `shelf-${networkBucket(visitor, CARD_SHELVES)}`;
}

/** Every shelf's name, as shelfFor gives them. */
export const SHELF_NAMES: readonly string[] = Array.from(
  { length: CARD_SHELVES },
  (_, bucket) => `shelf-${bucket}`,
);

/** Who asks for a card of which remark: a visitor, their network, and the conversation. */
export interface CardAsk {
  visitor: string;
  network: string;
  /** `call:{id}` or `chat:{id}`. */
  conversation: string;
  /** The remark: `{conversation}:{remark}`. */
  source: string;
}

/** Cards a UTC day, for a visitor, a network and a conversation. */
export interface ShelfLimits {
  perDay: number;
  networkPerDay: number;
  perConversation: number;
}

/** The limit an ask met, as the visitor is told. */
export type LimitScope = 'visitor' | 'network' | 'conversation';

export type Claim =
  | { kind: 'make' }
  | { kind: 'made'; card: Card }
  | { kind: 'making' }
  | { kind: 'held'; retryAfterSeconds: number }
  | { kind: 'limited'; scope: LimitScope; retryAfterSeconds: number };

const SCOPES: ReadonlyArray<{ scope: LimitScope; column: string; limit: keyof ShelfLimits }> = [
  { scope: 'visitor', column: 'visitor', limit: 'perDay' },
  { scope: 'network', column: 'network', limit: 'networkPerDay' },
  { scope: 'conversation', column: 'conversation', limit: 'perConversation' },
];

export class CardShelf extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  /** Every request the shelf hears from the Worker, per second. */
  private readonly requests = new Load();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    // The shelf's first tables counted asks, not cards: what they held is a day's at most.
    this.sql.exec(`DROP TABLE IF EXISTS lines`);
    this.sql.exec(`DROP TABLE IF EXISTS card_days`);
    // A remark is its visitor's: a conversation is proven theirs before the shelf hears of it.
    this.sql.exec(`CREATE TABLE IF NOT EXISTS asks (source TEXT NOT NULL,
      visitor TEXT NOT NULL, network TEXT NOT NULL, conversation TEXT NOT NULL,
      day TEXT NOT NULL, at INTEGER NOT NULL, card TEXT, PRIMARY KEY (source, visitor))`);
    for (const column of ['visitor', 'network', 'conversation']) {
      this.sql.exec(`CREATE INDEX IF NOT EXISTS asks_${column} ON asks (${column}, day)`);
    }
  }

  /** Cards made today in one scope, and asks under way there. */
  private counted(column: string, key: string, day: string, now: number) {
    const row = this.sql
      .exec<{ made: number; held: number }>(
        `SELECT COUNT(card) AS made, COUNT(*) - COUNT(card) AS held FROM asks
         WHERE ${column} = ? AND day = ? AND (card IS NOT NULL OR at > ?)`,
        key,
        day,
        now - MAKING_MS,
      )
      .toArray()[0];
    return { made: row?.made ?? 0, held: row?.held ?? 0 };
  }

  /**
   * A visitor asks for a card of a remark: the card made before, a card of it being made now, a
   * limit reached, places held by asks under way, or the right to make it (a place held at once).
   */
  async claim(ask: CardAsk, limits: ShelfLimits): Promise<Claim> {
    const now = Date.now();
    this.requests.heard(now);
    this.sql.exec(`DELETE FROM asks WHERE at < ?`, now - KEPT_MS);
    // An ask that never said how it ended (its Worker stopped) gives its place back.
    this.sql.exec(`DELETE FROM asks WHERE card IS NULL AND at <= ?`, now - MAKING_MS);
    const asked = this.sql
      .exec<{ card: string | null }>(
        `SELECT card FROM asks WHERE source = ? AND visitor = ?`,
        ask.source,
        ask.visitor,
      )
      .toArray()[0];
    if (asked?.card) return { kind: 'made', card: JSON.parse(asked.card) as Card };
    if (asked) return { kind: 'making' };
    const day = utcDay(now);
    let held = false;
    for (const { scope, column, limit } of SCOPES) {
      const counts = this.counted(column, ask[scope], day, now);
      if (counts.made >= limits[limit]) {
        return { kind: 'limited', scope, retryAfterSeconds: secondsToNextUtcDay(now) };
      }
      if (counts.made + counts.held >= limits[limit]) held = true;
    }
    if (held) return { kind: 'held', retryAfterSeconds: HELD_RETRY_SECONDS };
    this.sql.exec(
      `INSERT INTO asks (source, visitor, network, conversation, day, at, card)
       VALUES (?, ?, ?, ?, ?, ?, NULL)`,
      ask.source,
      ask.visitor,
      ask.network,
      ask.conversation,
      day,
      now,
    );
    return { kind: 'make' };
  }

  /**
   * The card of a remark is made: it counts, and asking for it again gives it (its place is kept
   * even when the ask took longer than it was held).
   */
  async made(ask: CardAsk, card: Card): Promise<void> {
    const now = Date.now();
    this.requests.heard(now);
    this.sql.exec(
      `INSERT INTO asks (source, visitor, network, conversation, day, at, card)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (source, visitor) DO UPDATE SET card = excluded.card`,
      ask.source,
      ask.visitor,
      ask.network,
      ask.conversation,
      utcDay(now),
      now,
      JSON.stringify(card),
    );
  }

  /** No card came of the ask (its words were not found or refused): its place is given back. */
  async unmade(ask: CardAsk): Promise<void> {
    this.requests.heard(Date.now());
    this.sql.exec(
      `DELETE FROM asks WHERE source = ? AND visitor = ? AND card IS NULL`,
      ask.source,
      ask.visitor,
    );
  }

  /** For the owner's report: the requests the shelf heard per second (this ask is not one). */
  async load(): Promise<LoadWindow> {
    return this.requests.recent(Date.now());
  }
}
