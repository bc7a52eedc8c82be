/**
 * A text desk's grants of the day's budget: drawn (and topped up) from the court one draw at a
 * time, each reply's worst case reserved against the newest, settled at what the reply cost, and
 * the grants gone idle or old handed back to the court. What the court answered "closed" is
 * repeated for a while without asking it again.
 */
import type { Draw, TextCounts } from '../calls/court-text';
import { cents } from '../calls/court-money';
import { secondsUntil, utcDay } from '../floor/day';
import type { TextRefusal } from './text-records';

/** A grant is settled when its desk has been idle this long, or when it is this old. */
export const SETTLE_IDLE_MS = 30_000;
export const GRANT_ROTATE_MS = 5 * 60_000;
/**
 * A grant is drawn for this many replies' worst case (a chat's first few messages), and grows
 * while they go fast: what is asked of the day's budget follows what is being asked of Pepa.
 */
const SLICE_TURNS = 8;
const SLICE_MAX_TURNS = 400;
/**
 * How long a desk repeats the court's refusal before asking again ("busy" only while its grant
 * has spent nothing more: the court judges "closed" from what the grant spent).
 */
export const CLOSED_MEMORY_MS = 30_000;

export interface GrantState {
  id: string;
  day: string;
  usd: number;
  /** Reserved for replies under way plus spent. */
  committed: number;
  spent: number;
  turns: number;
  chats: number;
  /** Of its turns, the replies answered from the record of openings (none in grants stored before). */
  fromRecord?: number;
  inFlight: number;
  drawnAt: number;
  usedAt: number;
}

/** What the grants need of their desk. */
export interface GrantDesk {
  /** The court's `drawText`, for this desk (`grantSpent`: what the grant's replies cost so far). */
  draw(grantId: string | null, need: number, want: number, grantSpent: number): Promise<Draw>;
  /** The court's `settleText`: a grant settled at what its replies cost, with what it counted. */
  settle(grant: GrantState): Promise<unknown>;
  /** The court's `countText`: what was counted with no grant left to carry it. */
  count(counts: TextCounts): Promise<unknown>;
  /** Stores the grants (the desk's storage). */
  store(grants: readonly GrantState[]): Promise<void>;
  /** Keeps background work alive past the request that began it. */
  waitUntil(work: Promise<unknown>): void;
}

export class DeskGrants {
  private grants: GrantState[] = [];
  private drawing: Promise<unknown> = Promise.resolve();
  private sliceTurns = SLICE_TURNS;
  /**
   * The court's last refusal, repeated until `until` rather than asked again: `liftsAt` is when it
   * said to come back (each repetition says how long is left of it), and `spent` what the grant
   * it was asked for had spent (a reply settled since is news to the court).
   */
  private closedAnswer: {
    until: number;
    liftsAt: number;
    spent: number;
    refusal: TextRefusal;
  } | null = null;
  /**
   * What was counted while no grant of today was open (chats started, replies answered from the
   * record): counted with the next grant drawn, or told the court once none is left to settle.
   */
  private pending = { turns: 0, chats: 0, fromRecord: 0 };

  constructor(private readonly desk: GrantDesk) {}

  /** The grants as stored: replies under way died with the desk, their reservations kept. */
  restore(stored: GrantState[] | undefined): void {
    this.grants = stored ?? [];
    for (const grant of this.grants) grant.inFlight = 0;
  }

  get open(): boolean {
    const { turns, chats } = this.pending;
    return this.grants.length > 0 || turns + chats > 0;
  }

  list(): GrantState[] {
    return this.grants.map((grant) => ({ ...grant }));
  }

  /**
   * A chat began: counted with the newest grant (or the next one drawn). Nothing is drawn for it:
   * a chat that never sends a message holds none of the day's budget.
   */
  chatStarted(): void {
    const grant = this.grants.at(-1);
    if (grant) grant.chats += 1;
    else this.pending.chats += 1;
  }

  /**
   * Settles the grants due with the court (`takeDue`), then, once no grant is open, tells it what
   * was counted with none to carry it (the court is not asked when there is nothing).
   */
  async settleDue(now: number): Promise<void> {
    for (const grant of await this.takeDue(now)) await this.desk.settle(grant);
    const { turns, chats } = this.pending;
    if (this.grants.length > 0 || turns + chats === 0) return;
    const counts = this.pending;
    this.pending = { turns: 0, chats: 0, fromRecord: 0 };
    await this.desk.count(counts);
  }

  /**
   * Holds `usd` against the newest grant of today. A grant running low is topped up from the
   * court in the background, so a reply waits for the court only when its grant cannot hold it.
   * The grant held, or the court's refusal.
   */
  async reserve(usd: number, now: number): Promise<GrantState | TextRefusal> {
    const day = utcDay(now);
    const holds = (grant: GrantState | undefined) =>
      grant !== undefined && grant.day === day && grant.usd - grant.committed + 1e-9 >= usd;
    let grant = this.grants.at(-1);
    if (!holds(grant)) {
      const drawn = await this.draw(usd, now);
      if (!('id' in drawn)) return drawn;
      grant = drawn;
    }
    if (!grant) return { code: 'court-closed' };
    grant.committed = cents(grant.committed + usd);
    grant.inFlight += 1;
    grant.usedAt = Date.now();
    await this.desk.store(this.grants);
    // Half the grant spoken for: the next slice is asked for now, while replies go on.
    if (grant.usd - grant.committed < grant.usd / 2) {
      this.desk.waitUntil(this.draw(usd, now).catch(() => undefined));
    }
    return grant;
  }

  /**
   * Draws (or tops up) today's grant from the court, one draw at a time: a draw already under
   * way is waited for rather than doubled. The grant, or the court's refusal.
   */
  private draw(need: number, now: number): Promise<GrantState | TextRefusal> {
    const run = async (): Promise<GrantState | TextRefusal> => {
      const day = utcDay(now);
      const current = this.grants.at(-1);
      const holds =
        current && current.day === day && current.usd - current.committed + 1e-9 >= need;
      const remembered = this.closedAnswer;
      if (
        !holds &&
        remembered &&
        Date.now() < remembered.until &&
        (remembered.refusal.code !== 'text-busy' || (current?.spent ?? 0) === remembered.spent)
      ) {
        const left = secondsUntil(remembered.liftsAt, Date.now());
        return { ...remembered.refusal, retryAfterSeconds: left };
      }
      if (current && holds && current.usd - current.committed >= current.usd / 2) return current;
      const reuse =
        current && current.day === day && now - current.drawnAt < GRANT_ROTATE_MS ? current : null;
      // A grant topped up within the last half minute ran out fast: the next slice is larger.
      if (reuse && Date.now() - reuse.drawnAt < 30_000) {
        this.sliceTurns = Math.min(SLICE_MAX_TURNS, this.sliceTurns * 2);
      }
      // Sized to what is asked: this many replies like the one waiting for it.
      const want = this.sliceTurns * need;
      // What the grant had spent when the court was asked (its replies may settle meanwhile).
      const spentTold = reuse?.spent ?? 0;
      const answer = await this.desk.draw(reuse?.id ?? null, need, want, spentTold);
      if (!answer.ok) {
        if (current && holds) return current;
        // The day spent closes text until midnight, the pace rests it until its next release;
        // reservations alone make Pepa busy a while.
        const refusal: TextRefusal =
          answer.why === 'held'
            ? { code: 'text-busy', retryAfterSeconds: answer.retryAfterSeconds }
            : {
                code: answer.why === 'closed' ? 'court-closed' : 'court-resting',
                reopensAt: answer.reopensAt,
                retryAfterSeconds: answer.retryAfterSeconds,
              };
        const memory = Math.min(CLOSED_MEMORY_MS, answer.retryAfterSeconds * 1000);
        this.closedAnswer = {
          until: Date.now() + memory,
          liftsAt: Date.now() + answer.retryAfterSeconds * 1000,
          spent: spentTold,
          refusal,
        };
        return refusal;
      }
      this.closedAnswer = null;
      if (reuse && reuse.id === answer.grantId) {
        reuse.usd = cents(reuse.usd + answer.usd);
        reuse.drawnAt = Date.now();
        await this.desk.store(this.grants);
        return reuse;
      }
      const grant: GrantState = {
        id: answer.grantId,
        day,
        usd: answer.usd,
        committed: 0,
        spent: 0,
        ...this.pending,
        inFlight: 0,
        drawnAt: Date.now(),
        usedAt: Date.now(),
      };
      this.pending = { turns: 0, chats: 0, fromRecord: 0 };
      this.grants.push(grant);
      await this.desk.store(this.grants);
      return grant;
    };
    const drawn = this.drawing.then(run, run);
    this.drawing = drawn.catch(() => undefined);
    return drawn;
  }

  /**
   * A reply's reservation settled at what it cost (`counted`: a turn of the visitor's). A reply
   * answered from the record (`grant` null) reserved nothing and cost nothing: it is counted with
   * the newest grant of today, which holds nothing for it, or with the next.
   */
  async settle(grant: GrantState | null, reserved: number, charged: number, counted: boolean) {
    if (!grant) return this.countFromRecord(counted);
    grant.committed = cents(grant.committed - reserved + charged);
    grant.spent = cents(grant.spent + charged);
    grant.inFlight = Math.max(0, grant.inFlight - 1);
    grant.usedAt = Date.now();
    if (counted) grant.turns += 1;
    await this.desk.store(this.grants);
  }

  private async countFromRecord(counted: boolean) {
    if (!counted) return;
    const newest = this.grants.at(-1);
    if (newest?.day !== utcDay(Date.now())) {
      this.pending.turns += 1;
      this.pending.fromRecord += 1;
      return;
    }
    newest.turns += 1;
    newest.fromRecord = (newest.fromRecord ?? 0) + 1;
    await this.desk.store(this.grants);
  }

  /**
   * The grants due to be settled with the court (idle, old, or not the newest, with no reply
   * under way), taken out of use first: no reply may reserve against a grant being settled (one
   * that did would be spent unmetered). A settlement that then fails leaves the grant to the
   * court, which charges it in full when it expires.
   */
  async takeDue(now: number): Promise<GrantState[]> {
    const newest = this.grants.at(-1);
    const due = this.grants.filter((grant) => {
      const idle = now - grant.usedAt >= SETTLE_IDLE_MS;
      const old = now - grant.drawnAt >= GRANT_ROTATE_MS || grant.day !== utcDay(now);
      return grant.inFlight === 0 && (idle || old || grant !== newest);
    });
    this.grants = this.grants.filter((grant) => !due.includes(grant));
    await this.desk.store(this.grants);
    return due;
  }
}
