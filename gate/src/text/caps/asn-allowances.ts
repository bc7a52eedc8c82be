/**
 * An ASN's text messages a day, counted across desks without asking one object per message. The
 * visitors of one ASN fall into many desks (a desk is chosen by the /24 or /48), so no desk alone
 * can hold the ASN's count. Its keeper (asn-keeper.ts, one object per ASN) holds it instead, as
 * turns handed out: a desk draws an allowance of a few turns, counts them off locally, and draws
 * again when they run out; while an ASN keeps it busy the allowance doubles (at most
 * `SLICE_MAX_TURNS`), so the keeper hears of a busy ASN a few times a minute, not once a message.
 * What a desk has not used when it falls idle is handed back; what is left at midnight expires
 * with the day the keeper counted it in.
 *
 * The keeper's count is of turns handed out, so an allowance lost (a desk restarted mid-day, a
 * hand-back that failed) leaves the ASN fewer turns that day, never more. A keeper that cannot be
 * reached serves nobody of its ASN (see `AllowanceTake`): never a message unmetered.
 */
import { nextUtcMidnight, utcDay } from '../../floor/day';

/** A first allowance, and the most a busy ASN's allowance grows to, in turns. */
export const SLICE_TURNS = 4;
export const SLICE_MAX_TURNS = 64;
/** An allowance drawn again this soon after the last one doubles. */
const GROW_WITHIN_MS = 30_000;
/** An allowance unused this long is handed back to its keeper. */
export const ALLOWANCE_IDLE_MS = 30_000;
/**
 * How long a desk repeats its keeper's "spent" before asking again: turns handed back by other
 * desks may free a few, but the keeper is not asked by every message meanwhile.
 */
export const SPENT_MEMORY_MS = 60_000;

/** The turns a keeper may grant: what was asked for, within what the day has left. */
export function keeperGrant(drawn: number, cap: number, want: number): number {
  return Math.max(0, Math.min(Math.floor(want), cap - drawn));
}

/** A desk's allowance of one ASN's turns. */
export interface Allowance {
  asn: string;
  day: string;
  /** Turns drawn and not yet taken. */
  left: number;
  /** What the next draw asks for. */
  slice: number;
  drawnAt: number;
  usedAt: number;
}

/** What the allowances need of their desk. */
export interface AllowanceDesk {
  /**
   * Asks the ASN's keeper for `want` turns of `day`: the turns granted (0: the day is spent).
   * Throws when the keeper cannot be reached.
   */
  draw(asn: string, day: string, want: number): Promise<number>;
  /** Gives `turns` of `day` back to the ASN's keeper. */
  handBack(asn: string, day: string, turns: number): Promise<void>;
  /** Stores an allowance (the desk's storage), or forgets it (null). */
  store(asn: string, allowance: Allowance | null): Promise<void>;
}

/**
 * A turn taken from the ASN's allowance; or the ASN's day is spent; or its keeper could not be
 * reached (or kept being outrun by the desk's other messages), and the message is refused.
 */
export type AllowanceTake = 'taken' | 'spent' | 'unreachable';

/** A desk's allowances, one per ASN it has served lately. */
export class AsnAllowances {
  private readonly allowances = new Map<string, Allowance>();
  /** A draw under way, per ASN: a second message waits for it rather than asking again. */
  private readonly drawing = new Map<string, Promise<AllowanceTake | 'drawn'>>();
  /** Until when an ASN's day is known spent. */
  private readonly spentUntil = new Map<string, number>();

  constructor(private readonly desk: AllowanceDesk) {}

  /** The allowances as stored, when the desk wakes. */
  restore(stored: Iterable<Allowance>): void {
    for (const allowance of stored) this.allowances.set(allowance.asn, allowance);
  }

  get open(): boolean {
    return this.allowances.size > 0;
  }

  list(): Allowance[] {
    return [...this.allowances.values()].map((allowance) => ({ ...allowance }));
  }

  /** Whether the ASN's day is known spent, without asking its keeper. */
  knownSpent(asn: string, now: number): boolean {
    const until = this.spentUntil.get(asn);
    return until !== undefined && now < until;
  }

  /** Takes one of the ASN's turns for today, drawing an allowance when the desk has none left. */
  async take(asn: string, now: number): Promise<AllowanceTake> {
    const day = utcDay(now);
    // A draw another message asked for may be used up before this one gets a turn of it.
    for (let tries = 0; tries < 3; tries += 1) {
      const allowance = this.allowances.get(asn);
      if (allowance && allowance.day === day && allowance.left > 0) {
        allowance.left -= 1;
        allowance.usedAt = now;
        await this.desk.store(asn, allowance);
        return 'taken';
      }
      if (this.knownSpent(asn, now)) return 'spent';
      const drawn = await this.draw(asn, now);
      if (drawn !== 'drawn') return drawn;
    }
    return 'unreachable';
  }

  /** A turn taken on `day` that was not used (no reply was written): it is the ASN's again. */
  async giveBack(asn: string, day: string, now: number): Promise<void> {
    const allowance = this.allowances.get(asn);
    if (allowance && allowance.day !== day) return;
    const kept = allowance ?? { asn, day, left: 0, slice: SLICE_TURNS, drawnAt: 0, usedAt: now };
    kept.left += 1;
    this.allowances.set(asn, kept);
    await this.desk.store(asn, kept);
  }

  private draw(asn: string, now: number): Promise<AllowanceTake | 'drawn'> {
    const running = this.drawing.get(asn);
    if (running) return running;
    const run = async (): Promise<AllowanceTake | 'drawn'> => {
      const day = utcDay(now);
      const before = this.allowances.get(asn);
      const current = before?.day === day ? before : undefined;
      const slice = current
        ? now - current.drawnAt < GROW_WITHIN_MS
          ? Math.min(SLICE_MAX_TURNS, current.slice * 2)
          : current.slice
        : SLICE_TURNS;
      let granted: number;
      try {
        granted = await this.desk.draw(asn, day, slice);
      } catch {
        return 'unreachable';
      }
      if (granted <= 0) {
        this.spentUntil.set(asn, Math.min(now + SPENT_MEMORY_MS, nextUtcMidnight(now)));
        return 'spent';
      }
      this.spentUntil.delete(asn);
      // The allowance as it is now: a turn may have been given back while the keeper answered.
      const latest = this.allowances.get(asn);
      const allowance: Allowance =
        latest?.day === day ? latest : { asn, day, left: 0, slice, drawnAt: now, usedAt: now };
      allowance.left += granted;
      allowance.slice = slice;
      allowance.drawnAt = now;
      this.allowances.set(asn, allowance);
      await this.desk.store(asn, allowance);
      return 'drawn';
    };
    const drawn = run().finally(() => this.drawing.delete(asn));
    this.drawing.set(asn, drawn);
    return drawn;
  }

  /**
   * Hands back what the allowances idle for `ALLOWANCE_IDLE_MS` have left (those of a day gone
   * are only forgotten), each taken out of use first so no message counts against one being
   * handed back. A hand-back that fails leaves those turns spent: fewer for the ASN, never more.
   */
  async handBackIdle(now: number): Promise<void> {
    const today = utcDay(now);
    for (const [asn, allowance] of [...this.allowances]) {
      const idle = now - allowance.usedAt >= ALLOWANCE_IDLE_MS;
      if (this.drawing.has(asn) || (!idle && allowance.day === today)) continue;
      this.allowances.delete(asn);
      await this.desk.store(asn, null);
      if (allowance.day === today && allowance.left > 0) {
        await this.desk.handBack(asn, allowance.day, allowance.left).catch(() => undefined);
      }
    }
    for (const [asn, until] of this.spentUntil) if (until <= now) this.spentUntil.delete(asn);
  }
}
