/**
 * A visitor's limits and their neighbours': calls or places held at once, starts per window,
 * and per day starts and money. What must outlive a restart of the court (the start windows,
 * the day's counts) is kept in the court's SQLite storage and pruned as it expires.
 */
import { secondsToNextUtcDay } from '../floor/day';
import type { VisitorLimitSettings } from '../floor/court-limits';
import type { Visitor } from '../floor/visitor';

/** Where starts and the day's money per visitor are kept. */
export interface StartLedger {
  /** How many starts `key` made at or after `since`, and the oldest of them. */
  startsSince(key: string, since: number): { count: number; oldest: number | null };
  /** A visitor's starts and committed money on `day`. */
  day(key: string, day: string): { starts: number; usd: number };
  recordStart(keys: readonly string[], visitor: string, at: number, day: string): void;
  addUsd(visitor: string, day: string, usd: number): void;
  /** Forgets starts before `before` and days before `firstDay`. */
  prune(before: number, firstDay: string): void;
}

/** The ledger in the court's SQLite storage. */
export class SqlLedger implements StartLedger {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS starts (key TEXT NOT NULL, at INTEGER NOT NULL)`);
    sql.exec(`CREATE INDEX IF NOT EXISTS starts_by_key ON starts (key, at)`);
    sql.exec(`CREATE INDEX IF NOT EXISTS starts_by_time ON starts (at)`);
    sql.exec(
      `CREATE TABLE IF NOT EXISTS visitor_days (visitor TEXT NOT NULL, day TEXT NOT NULL,
        starts INTEGER NOT NULL DEFAULT 0, usd REAL NOT NULL DEFAULT 0,
        PRIMARY KEY (visitor, day))`,
    );
  }

  startsSince(key: string, since: number): { count: number; oldest: number | null } {
    const row = this.sql
      .exec<{ count: number; oldest: number | null }>(
        `SELECT COUNT(*) AS count, MIN(at) AS oldest FROM starts WHERE key = ? AND at >= ?`,
        key,
        since,
      )
      .one();
    return { count: row.count, oldest: row.oldest };
  }

  day(visitor: string, day: string): { starts: number; usd: number } {
    const rows = this.sql
      .exec<{ starts: number; usd: number }>(
        `SELECT starts, usd FROM visitor_days WHERE visitor = ? AND day = ?`,
        visitor,
        day,
      )
      .toArray();
    return rows[0] ?? { starts: 0, usd: 0 };
  }

  recordStart(keys: readonly string[], visitor: string, at: number, day: string): void {
    for (const key of keys) this.sql.exec(`INSERT INTO starts (key, at) VALUES (?, ?)`, key, at);
    this.sql.exec(
      `INSERT INTO visitor_days (visitor, day, starts) VALUES (?, ?, 1)
       ON CONFLICT (visitor, day) DO UPDATE SET starts = starts + 1`,
      visitor,
      day,
    );
  }

  addUsd(visitor: string, day: string, usd: number): void {
    this.sql.exec(
      `INSERT INTO visitor_days (visitor, day, usd) VALUES (?, ?, MAX(0, ?))
       ON CONFLICT (visitor, day) DO UPDATE SET usd = MAX(0, usd + ?)`,
      visitor,
      day,
      usd,
      usd,
    );
  }

  prune(before: number, firstDay: string): void {
    this.sql.exec(`DELETE FROM starts WHERE at < ?`, before);
    this.sql.exec(`DELETE FROM visitor_days WHERE day < ?`, firstDay);
  }
}

/**
 * Whether a visitor may start now; when not, how long until they may. `holds` counts the calls
 * and places held by each of the keys asked about (the visitor's and their networks').
 */
export function visitorRefusal(
  visitor: Visitor,
  {
    limits,
    ledger,
    holds,
    now,
    day,
    worstCaseUsd,
  }: {
    limits: VisitorLimitSettings;
    ledger: StartLedger;
    holds: (keys: readonly string[]) => Map<string, number>;
    now: number;
    day: string;
    worstCaseUsd: number;
  },
): { retryAfterSeconds: number } | null {
  const held = holds([visitor.key, ...visitor.networks]);
  const capOf = (key: string): number =>
    key === visitor.key
      ? limits.visitorConcurrent
      : key.startsWith('asn:')
        ? limits.asnConcurrent
        : limits.networkConcurrent;
  for (const [key, count] of held) {
    if (count >= capOf(key)) return { retryAfterSeconds: 30 };
  }
  const windowMs = limits.visitorWindowSeconds * 1000;
  const windowed: [string, number][] = [[visitor.key, limits.visitorStartsPerWindow]];
  for (const key of visitor.networks) {
    if (key.startsWith('net:')) windowed.push([key, limits.networkStartsPerWindow]);
  }
  for (const [key, cap] of windowed) {
    const { count, oldest } = ledger.startsSince(key, now - windowMs + 1);
    if (count >= cap) {
      const wait = (oldest ?? now) + windowMs - now;
      return { retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    }
  }
  const today = ledger.day(visitor.key, day);
  if (
    today.starts >= limits.visitorStartsPerDay ||
    today.usd + worstCaseUsd > limits.visitorDailyUsd + 1e-9
  ) {
    return { retryAfterSeconds: secondsToNextUtcDay(now) };
  }
  return null;
}

/** The keys a start is counted under in the windows: the visitor's and their network's. */
export function windowKeys(visitor: Visitor): string[] {
  return [visitor.key, ...visitor.networks.filter((key) => key.startsWith('net:'))];
}
