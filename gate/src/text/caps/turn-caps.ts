/**
 * Text's caps on messages (turns) by who sends them, beyond a visitor's own day: a visitor's and
 * their network's per minute, their network's (/24 or /48) per UTC day, and their ASN's per UTC
 * day. A network's visitors all meet one desk, so the desk counts the network alone, in its
 * SQLite; an ASN's are spread over many desks, so the desk counts off an allowance drawn from the
 * ASN's keeper (asn-allowances.ts).
 *
 * A turn's network and ASN are counted when the turn is taken, before the reply is asked for, so
 * messages arriving at once cannot pass a day's cap together; a turn that writes no reply gives
 * both back, as it gives back the visitor's. A visitor with no ASN (Cloudflare reported none) is
 * held by their network's caps alone.
 */
import type { ProblemCode } from '../../floor/problem';
import type { TextLimits } from '../../floor/config';
import { DAY_MS, secondsToNextUtcDay, secondsUntil, utcDay } from '../../floor/day';
import type { Visitor } from '../../floor/visitor';
import { AsnAllowances, type Allowance } from './asn-allowances';

/** A cap met: the problem the visitor is answered with. */
export interface CapRefusal {
  code: Extract<ProblemCode, 'rate-limited' | 'text-busy'>;
  detail: string;
  retryAfterSeconds: number;
}

/** A turn counted against its network's and its ASN's day: what giving it back needs. */
export interface TakenTurn {
  day: string;
  network: string | null;
  asn: string | null;
}

/** How long a visitor is asked to wait when their ASN's keeper cannot be reached. */
export const KEEPER_UNREACHABLE_RETRY_SECONDS = 10;

/** Where turns are counted: by the minute (any key), by the day (a network's). */
export interface TurnCounts {
  /** The turns `key` took after `since`, and when the oldest of them was. */
  since(key: string, since: number): { count: number; oldest: number | null };
  /** A turn of each of `keys` at `at`. */
  note(keys: readonly string[], at: number): void;
  /** `key`'s turns on `day`. */
  onDay(key: string, day: string): number;
  /** Adds `turns` (negative: gives back) to `key`'s count on `day`. */
  addToDay(key: string, day: string, turns: number): void;
  /** Forgets turns before `before` and days before `firstDay`. */
  prune(before: number, firstDay: string): void;
}

/** The counts in a desk's SQLite storage. */
export class SqlTurnCounts implements TurnCounts {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS turns (key TEXT NOT NULL, at INTEGER NOT NULL)`);
    sql.exec(`CREATE INDEX IF NOT EXISTS turns_by_key ON turns (key, at)`);
    sql.exec(`CREATE TABLE IF NOT EXISTS network_days (network TEXT NOT NULL, day TEXT NOT NULL,
      turns INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (network, day))`);
  }

  since(key: string, since: number): { count: number; oldest: number | null } {
    return this.sql
      .exec<{ count: number; oldest: number | null }>(
        `SELECT COUNT(*) AS count, MIN(at) AS oldest FROM turns WHERE key = ? AND at > ?`,
        key,
        since,
      )
      .one();
  }

  note(keys: readonly string[], at: number): void {
    for (const key of keys) this.sql.exec(`INSERT INTO turns (key, at) VALUES (?, ?)`, key, at);
  }

  onDay(key: string, day: string): number {
    const row = this.sql
      .exec<{ turns: number }>(
        `SELECT turns FROM network_days WHERE network = ? AND day = ?`,
        key,
        day,
      )
      .toArray()[0];
    return row?.turns ?? 0;
  }

  addToDay(key: string, day: string, turns: number): void {
    this.sql.exec(
      `INSERT INTO network_days (network, day, turns) VALUES (?, ?, MAX(0, ?))
       ON CONFLICT (network, day) DO UPDATE SET turns = MAX(0, turns + ?)`,
      key,
      day,
      turns,
      turns,
    );
  }

  prune(before: number, firstDay: string): void {
    this.sql.exec(`DELETE FROM turns WHERE at < ?`, before);
    this.sql.exec(`DELETE FROM network_days WHERE day < ?`, firstDay);
  }
}

const networkOf = (visitor: Visitor) => visitor.networks.find((key) => key.startsWith('net:'));
const asnOf = (visitor: Visitor) => visitor.networks.find((key) => key.startsWith('asn:'));

/** A network's or an ASN's day spent: rate-limited until the next UTC day. */
function dayRefusal(whose: 'network' | 'asn', now: number): CapRefusal {
  return {
    code: 'rate-limited',
    detail:
      whose === 'network'
        ? 'Your network has talked with Pepa by text as much as it may today'
        : "Your network provider's guests have talked with Pepa by text as much as they may today",
    retryAfterSeconds: secondsToNextUtcDay(now),
  };
}

export class TurnCaps {
  constructor(
    private readonly counts: TurnCounts,
    private readonly allowances: AsnAllowances,
    private readonly limits: () => TextLimits,
  ) {}

  /** Whether an ASN's allowance is still held (to be handed back when idle). */
  get open(): boolean {
    return this.allowances.open;
  }

  /** The visitor's or their network's messages in the last minute at their cap: how long to wait. */
  perMinute(visitor: Visitor, now: number): CapRefusal | null {
    const limits = this.limits();
    const caps: [string, number][] = [[visitor.key, limits.turnsPerMinute]];
    const network = networkOf(visitor);
    if (network) caps.push([network, limits.networkTurnsPerMinute]);
    for (const [key, cap] of caps) {
      const { count, oldest } = this.counts.since(key, now - 60_000);
      if (count >= cap) {
        return {
          code: 'rate-limited',
          detail: 'Pepa needs a moment between messages',
          retryAfterSeconds: secondsUntil((oldest ?? now) + 60_000, now),
        };
      }
    }
    return null;
  }

  /**
   * The visitor's network or ASN known to have spent its day, asking nobody (before a chat is
   * started: an ASN's keeper is asked only when a message is sent).
   */
  spentDay(visitor: Visitor, now: number): CapRefusal | null {
    const network = networkOf(visitor);
    if (network && this.counts.onDay(network, utcDay(now)) >= this.limits().networkTurnsPerDay) {
      return dayRefusal('network', now);
    }
    const asn = asnOf(visitor);
    return asn && this.allowances.knownSpent(asn, now) ? dayRefusal('asn', now) : null;
  }

  /**
   * Counts a turn against the visitor's network's day and their ASN's: the turn, or why it is
   * refused. A keeper that cannot be reached refuses the turn (503 `text-busy`): an ASN's
   * messages are never served uncounted, and visitors of other ASNs are not held back by it.
   */
  async take(visitor: Visitor, now: number): Promise<TakenTurn | CapRefusal> {
    const day = utcDay(now);
    const network = networkOf(visitor) ?? null;
    if (network && this.counts.onDay(network, day) >= this.limits().networkTurnsPerDay) {
      return dayRefusal('network', now);
    }
    // Counted before the keeper is asked: a message arriving meanwhile sees it.
    if (network) this.counts.addToDay(network, day, 1);
    const asn = asnOf(visitor) ?? null;
    const taken = asn ? await this.allowances.take(asn, now) : 'taken';
    if (taken === 'taken') return { day, network, asn };
    if (network) this.counts.addToDay(network, day, -1);
    if (taken === 'spent') return dayRefusal('asn', now);
    return {
      code: 'text-busy',
      detail: "Pepa cannot count your network's messages right now",
      retryAfterSeconds: KEEPER_UNREACHABLE_RETRY_SECONDS,
    };
  }

  /** A turn taken that wrote no reply: its network's and its ASN's again. */
  async giveBack(turn: TakenTurn, now: number): Promise<void> {
    if (turn.network) this.counts.addToDay(turn.network, turn.day, -1);
    if (turn.asn) await this.allowances.giveBack(turn.asn, turn.day, now);
  }

  /** A reply under way: counted in the visitor's and their network's minute. */
  noteTurn(visitor: Visitor, now: number): void {
    const network = networkOf(visitor);
    this.counts.note(network ? [visitor.key, network] : [visitor.key], now);
  }

  /** The desk's sweep: minutes and days gone forgotten, idle allowances handed back. */
  async sweep(now: number): Promise<void> {
    this.counts.prune(now - 60_000, utcDay(now - DAY_MS));
    await this.allowances.handBackIdle(now);
  }
}

/**
 * A desk's caps: its counts in its SQLite, its allowances in its storage (restored before it
 * takes a request), each drawn from and handed back to its ASN's keeper by the keeper's name.
 */
export function deskCaps(ctx: DurableObjectState, env: Env, limits: () => TextLimits): TurnCaps {
  const keeper = (asn: string) => env.ASN_KEEPER.getByName(asn);
  const allowances = new AsnAllowances({
    draw: (asn, day, want) => keeper(asn).draw(day, want),
    handBack: (asn, day, turns) => keeper(asn).handBack(day, turns),
    store: async (asn, allowance) => {
      if (allowance) await ctx.storage.put(`allowance:${asn}`, allowance);
      else await ctx.storage.delete(`allowance:${asn}`);
    },
  });
  void ctx.blockConcurrencyWhile(async () => {
    allowances.restore((await ctx.storage.list<Allowance>({ prefix: 'allowance:' })).values());
  });
  return new TurnCaps(new SqlTurnCounts(ctx.storage.sql), allowances, limits);
}
