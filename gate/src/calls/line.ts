/**
 * The line: tickets in the order they were given, each with its position found in O(log n)
 * (a Fenwick tree over the tickets' sequence numbers), so 10,000 waiters checking in cost no more
 * than ten; and its pace: how often a ticket checks in, and how long it can expect to wait.
 */
import { MAX_CHECK_IN_SECONDS, type CourtLimits } from '../floor/court-limits';

export interface Ticket {
  id: string;
  seq: number;
  visitor: string;
  /** The visitor's network buckets, whose caps the ticket counts against. */
  networks: string[];
  issuedAt: number;
  /** Dropped when it has not checked in by then (ms since the epoch). */
  deadline: number;
  /** The earliest the next check-in is accepted (a faster one is refused). */
  notBefore: number;
  /**
   * When its next check-in is due (its Retry-After and a moment's slack): past it, the ticket is
   * silent. It keeps its position until its deadline, but no free place waits for it.
   */
  dueAt: number;
  /** The longer grace of a hidden page was given once already. */
  hiddenClaimed: boolean;
  /** Its turn came and its place is held for the visitor until then (ms); null: not offered. */
  offeredUntil: null | number;
}

/** How late past its Retry-After a check-in may come and its ticket still count as live. */
export const LIVE_SLACK_MS = 1000;

/** Counts by index with prefix sums in O(log n); grows as indexes do. */
export class Fenwick {
  private tree = new Int32Array(1024);

  private grow(index: number): void {
    if (index < this.tree.length) return;
    let size = this.tree.length;
    while (size <= index) size *= 2;
    // Rebuild: a Fenwick tree's nodes depend on its size.
    const counts = new Int32Array(size);
    for (let i = 1; i < this.tree.length; i += 1) counts[i] = this.pointValue(i);
    this.tree = new Int32Array(size);
    for (let i = 1; i < size; i += 1) if (counts[i]) this.add(i, counts[i] ?? 0);
  }

  private pointValue(index: number): number {
    return this.prefix(index) - this.prefix(index - 1);
  }

  add(index: number, delta: number): void {
    this.grow(index);
    for (let i = index; i < this.tree.length; i += i & -i)
      this.tree[i] = (this.tree[i] ?? 0) + delta;
  }

  prefix(index: number): number {
    let sum = 0;
    for (let i = Math.min(index, this.tree.length - 1); i > 0; i -= i & -i)
      sum += this.tree[i] ?? 0;
    return sum;
  }
}

/** What is kept of a ticket across a restart of the court (its deadlines start afresh). */
export type StoredTicket = Pick<Ticket, 'id' | 'seq' | 'visitor' | 'networks' | 'issuedAt'>;

export class Line {
  private readonly tickets = new Map<string, Ticket>();
  private counts = new Fenwick();
  private nextSeq = 1;
  /** Tickets whose place is held for them (offered): they hold a place as a call does. */
  private offeredCount = 0;
  /** Tickets given and gone since the last {@link takeChanges}, for the court's storage. */
  private readonly added = new Map<string, StoredTicket>();
  private readonly gone = new Set<string>();

  /** Puts stored tickets back in their order, each due to check in by `deadline`. */
  restore(stored: readonly StoredTicket[], deadline: number, now: number): void {
    for (const ticket of [...stored].sort((a, b) => a.seq - b.seq)) {
      this.tickets.set(ticket.id, {
        ...ticket,
        networks: ticket.networks ?? [],
        deadline,
        notBefore: now,
        // After a restart everyone is silent until they check in again.
        dueAt: now,
        hiddenClaimed: true,
        offeredUntil: null,
      });
      this.counts.add(ticket.seq, 1);
      this.nextSeq = Math.max(this.nextSeq, ticket.seq + 1);
    }
  }

  /** The tickets to store and to forget since last asked. */
  takeChanges(): { added: StoredTicket[]; gone: string[] } {
    const changes = { added: [...this.added.values()], gone: [...this.gone] };
    this.added.clear();
    this.gone.clear();
    return changes;
  }

  get size(): number {
    return this.tickets.size;
  }

  /** Tickets whose place is held for them. */
  get offered(): number {
    return this.offeredCount;
  }

  /** Holds a place for `ticket` until `until`; it is dropped (by its deadline) if not taken. */
  offer(ticket: Ticket, until: number): void {
    if (ticket.offeredUntil === null) this.offeredCount += 1;
    ticket.offeredUntil = until;
    ticket.deadline = until;
    ticket.dueAt = until;
  }

  add(ticket: Omit<Ticket, 'seq'>): Ticket {
    const entry = { ...ticket, seq: this.nextSeq };
    this.nextSeq += 1;
    this.tickets.set(entry.id, entry);
    this.counts.add(entry.seq, 1);
    this.added.set(entry.id, {
      id: entry.id,
      seq: entry.seq,
      visitor: entry.visitor,
      networks: entry.networks,
      issuedAt: entry.issuedAt,
    });
    return entry;
  }

  get(id: string): Ticket | undefined {
    return this.tickets.get(id);
  }

  remove(id: string): Ticket | undefined {
    const ticket = this.tickets.get(id);
    if (!ticket) return undefined;
    this.tickets.delete(id);
    this.counts.add(ticket.seq, -1);
    if (ticket.offeredUntil !== null) this.offeredCount -= 1;
    if (!this.added.delete(id)) this.gone.add(id);
    if (this.tickets.size === 0) {
      // An empty line starts numbering again, so the tree stays as small as the busiest spell.
      this.counts = new Fenwick();
      this.nextSeq = 1;
    }
    return ticket;
  }

  /** 1 for the ticket next in line. */
  position(ticket: Ticket): number {
    return this.counts.prefix(ticket.seq);
  }

  /**
   * How many live tickets stand ahead of `ticket`, counting no further than `enough`: silent
   * ones (past their due check-in) keep their positions but are not waited for.
   */
  liveAhead(ticket: Ticket, now: number, enough: number): number {
    let live = 0;
    for (const other of this.tickets.values()) {
      if (other.seq >= ticket.seq || live >= enough) break;
      // A ticket offered a place holds it already: it is not waiting for another.
      if (other.offeredUntil === null && now <= other.dueAt) live += 1;
    }
    return live;
  }

  /** Tickets in line order (oldest first). */
  values(): IterableIterator<Ticket> {
    return this.tickets.values();
  }
}

/**
 * How soon a ticket at `position` checks in: every second or two near the front, slower further
 * back (at most {@link MAX_CHECK_IN_SECONDS}), so 10,000 waiters ask about 600 times a second in
 * all. `freePlaces`: places no lease holds right now.
 */
export function retryAfterFor(position: number, freePlaces: number): number {
  if (position <= freePlaces + 1) return 1;
  return Math.min(MAX_CHECK_IN_SECONDS, 2 + Math.floor(position / 50));
}

/**
 * How long the ticket at `position` can expect to wait, in seconds (rounded to 5): each place
 * frees when its call reaches the typical length (`leaseAges`: how long each held place has been
 * held, in seconds), and each round of `places` tickets ahead waits one more typical call.
 */
export function estimateWait(
  position: number,
  leaseAges: readonly number[],
  typicalSeconds: number,
  places: number,
): number {
  const remaining = leaseAges.map((age) => Math.max(5, typicalSeconds - age)).sort((a, b) => a - b);
  while (remaining.length < places) remaining.unshift(0);
  const index = (position - 1) % places;
  const rounds = Math.floor((position - 1) / places);
  const seconds = (remaining[index] ?? typicalSeconds) + rounds * typicalSeconds;
  return Math.max(5, Math.round(seconds / 5) * 5);
}

/**
 * A hidden page's grace: its timers may be throttled, so it is given longer, once. Near the
 * front, where its turn may come any moment, a quarter of that (at least the visible grace).
 */
export function hiddenGrace(
  position: number,
  limits: Pick<CourtLimits, 'hiddenCheckInGraceSeconds' | 'checkInGraceSeconds' | 'maxConcurrent'>,
): number {
  const { hiddenCheckInGraceSeconds: full, checkInGraceSeconds: visible } = limits;
  if (position > limits.maxConcurrent) return full;
  return Math.max(visible, Math.round(full / 4));
}
