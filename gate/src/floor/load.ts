/**
 * How many requests a Durable Object hears, second by second, over the last ten minutes: the
 * figure that says whether an object's load is bounded (the court's by its places and its line, a
 * desk's or a shelf's by the share of the networks it holds) rather than by the crowd. The court,
 * each desk and each shelf keep one in memory; the owner's report reads them.
 */
const SECONDS = 600;

/** Requests per second, oldest first, over the last ten minutes, and when the first began. */
export interface LoadWindow {
  from: string;
  requestsPerSecond: number[];
}

/** The busiest of several objects of one kind: which it is, and what it heard. */
export interface BusiestLoad extends LoadWindow {
  object: string;
}

export class Load {
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
  recent(now: number): LoadWindow {
    const second = Math.floor(now / 1000);
    this.advance(second);
    const out: number[] = [];
    for (let s = second - SECONDS + 1; s <= second; s += 1) out.push(this.counts[s % SECONDS] ?? 0);
    return { from: new Date((second - SECONDS + 1) * 1000).toISOString(), requestsPerSecond: out };
  }
}

const total = (load: LoadWindow) => load.requestsPerSecond.reduce((sum, n) => sum + n, 0);

/**
 * Of objects `names`, asked all at once, the one that heard the most requests over the last ten
 * minutes (the first named among equals); undefined when none answered. One that fails to answer
 * is left out, so the owner's report does not fail with it.
 */
export async function busiestOf(
  names: readonly string[],
  ask: (name: string) => Promise<LoadWindow>,
): Promise<BusiestLoad | undefined> {
  const loads = await Promise.all(
    names.map(async (object) => {
      try {
        return { object, ...(await ask(object)) };
      } catch {
        return null;
      }
    }),
  );
  let busiest: BusiestLoad | undefined;
  for (const load of loads) {
    if (load && (busiest === undefined || total(load) > total(busiest))) busiest = load;
  }
  return busiest;
}
