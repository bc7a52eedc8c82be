/**
 * The keeper of one ASN's text messages a day (`AsnKeeper`, one object per ASN, by the name
 * `asn:<number>`): the turns it has handed out to desks that day, never more than the owner's
 * `GATE_CHAT_ASN_TURNS_PER_DAY`. Desks draw allowances of it and count them off themselves
 * (asn-allowances.ts), so it hears of an ASN a few times a minute at most, however busy.
 *
 * Why an object of its own and not the court or a desk by another name: the court is the one
 * object every call and every text grant goes through, and an ASN's count needs nothing of it;
 * a desk is sharded by network, and one named for an ASN would carry chats, grants and an alarm
 * it never uses. A keeper per ASN spreads the ASNs over as many objects as there are, each with
 * one small table, and a busy ASN's keeper is busy alone.
 */
import { DurableObject } from 'cloudflare:workers';
import { textLimitsFrom } from '../../floor/config';
import { DAY_MS, utcDay } from '../../floor/day';
import { keeperGrant } from './asn-allowances';

export class AsnKeeper extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS days (day TEXT PRIMARY KEY,
      drawn INTEGER NOT NULL DEFAULT 0)`);
  }

  private drawn(day: string): number {
    const row = this.sql
      .exec<{ drawn: number }>(`SELECT drawn FROM days WHERE day = ?`, day)
      .toArray()[0];
    return row?.drawn ?? 0;
  }

  /**
   * Hands out up to `want` of `day`'s turns: how many (0 when the day's are all out). Days
   * before yesterday are forgotten as it goes.
   */
  async draw(day: string, want: number): Promise<number> {
    const cap = textLimitsFrom(this.env).asnTurnsPerDay;
    const granted = keeperGrant(this.drawn(day), cap, want);
    if (granted > 0) {
      this.sql.exec(
        `INSERT INTO days (day, drawn) VALUES (?, ?)
         ON CONFLICT (day) DO UPDATE SET drawn = drawn + ?`,
        day,
        granted,
        granted,
      );
    }
    this.sql.exec(`DELETE FROM days WHERE day < ?`, utcDay(Date.now() - DAY_MS));
    return granted;
  }

  /** `turns` of `day` a desk drew and did not use: the ASN's to hand out again. */
  async handBack(day: string, turns: number): Promise<void> {
    this.sql.exec(
      `UPDATE days SET drawn = MAX(0, drawn - ?) WHERE day = ?`,
      Math.max(0, Math.floor(turns)),
      day,
    );
  }

  /** For tests: the turns handed out on `day`. */
  async drawnOn(day: string): Promise<number> {
    return this.drawn(day);
  }
}
