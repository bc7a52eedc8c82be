/**
 * How many requests the court hears, second by second, over the last ten minutes: the figure
 * that says whether the court's load is bounded by its places rather than by its visitors.
 */
const SECONDS = 600;

export class CourtLoad {
  private readonly counts = new Uint32Array(SECONDS);
  private latest = 0;

  heard(now: number): void {
    const second = Math.floor(now / 1000);
    this.advance(second);
    const slot = second % SECONDS;
    this.counts[slot] = (this.counts[slot] ?? 0) + 1;
  }

  private advance(second: number): void {
    if (second <= this.latest) return;
    const gap = Math.min(SECONDS, second - this.latest);
    for (let i = 1; i <= gap; i += 1) this.counts[(this.latest + i) % SECONDS] = 0;
    this.latest = second;
  }

  /** Requests per second, oldest first, over the last ten minutes, and when the first began. */
  recent(now: number): { from: string; requestsPerSecond: number[] } {
    const second = Math.floor(now / 1000);
    this.advance(second);
    const out: number[] = [];
    for (let s = second - SECONDS + 1; s <= second; s += 1) out.push(this.counts[s % SECONDS] ?? 0);
    return { from: new Date((second - SECONDS + 1) * 1000).toISOString(), requestsPerSecond: out };
  }
}
