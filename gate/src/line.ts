/**
 * The line: tickets in the order they were given, each with its position found in O(log n)
 * (a Fenwick tree over the tickets' sequence numbers), so 10,000 waiters checking in cost no more
 * than ten.
 */
export interface Ticket {
  id: string;
  seq: number;
  visitor: string;
  issuedAt: number;
  /** Dropped when it has not checked in by then (ms since the epoch). */
  deadline: number;
  /** The earliest the next check-in is accepted (a faster one is refused). */
  notBefore: number;
}

class Fenwick {
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

export class Line {
  private readonly tickets = new Map<string, Ticket>();
  private counts = new Fenwick();
  private nextSeq = 1;

  get size(): number {
    return this.tickets.size;
  }

  add(ticket: Omit<Ticket, 'seq'>): Ticket {
    const entry = { ...ticket, seq: this.nextSeq };
    this.nextSeq += 1;
    this.tickets.set(entry.id, entry);
    this.counts.add(entry.seq, 1);
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

  /** Tickets in line order (oldest first). */
  values(): IterableIterator<Ticket> {
    return this.tickets.values();
  }
}
