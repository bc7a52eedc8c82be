import { describe, expect, it } from 'vitest';
import {
  ALLOWANCE_IDLE_MS,
  AsnAllowances,
  keeperGrant,
  SLICE_MAX_TURNS,
  SLICE_TURNS,
  SPENT_MEMORY_MS,
  type Allowance,
} from './asn-allowances';

/** Noon UTC. */
const NOON = Date.UTC(2030, 0, 15, 12);

/** An ASN's keeper in memory: the turns handed out a day, within `cap`. */
class FakeKeeper {
  readonly drawn = new Map<string, number>();
  readonly asks: number[] = [];
  handedBack = 0;
  down = false;

  constructor(public cap: number) {}

  async draw(day: string, want: number): Promise<number> {
    if (this.down) throw new Error('the keeper cannot be reached');
    this.asks.push(want);
    const granted = keeperGrant(this.drawn.get(day) ?? 0, this.cap, want);
    this.drawn.set(day, (this.drawn.get(day) ?? 0) + granted);
    return granted;
  }

  async handBack(day: string, turns: number): Promise<void> {
    this.handedBack += turns;
    this.drawn.set(day, Math.max(0, (this.drawn.get(day) ?? 0) - turns));
  }
}

function deskOf(keeper: FakeKeeper) {
  const stored = new Map<string, Allowance>();
  const allowances = new AsnAllowances({
    draw: (_asn, day, want) => keeper.draw(day, want),
    handBack: (_asn, day, turns) => keeper.handBack(day, turns),
    store: async (asn, allowance) => {
      if (allowance) stored.set(asn, { ...allowance });
      else stored.delete(asn);
    },
  });
  return { allowances, stored };
}

async function takeMany(allowances: AsnAllowances, n: number, at: number) {
  const taken: string[] = [];
  for (let i = 0; i < n; i += 1) taken.push(await allowances.take('asn:64500', at));
  return taken;
}

describe("a keeper's grant", () => {
  it('gives what is asked for while the day has it, then what is left, then nothing', () => {
    expect(keeperGrant(0, 100, 8)).toBe(8);
    expect(keeperGrant(95, 100, 8)).toBe(5);
    expect(keeperGrant(100, 100, 8)).toBe(0);
    expect(keeperGrant(120, 100, 8)).toBe(0);
  });
});

describe("a desk's allowance of an ASN's turns", () => {
  it('counts turns off locally and asks the keeper once per allowance', async () => {
    const keeper = new FakeKeeper(1000);
    const { allowances } = deskOf(keeper);
    expect(await takeMany(allowances, SLICE_TURNS, NOON)).toEqual(
      Array<string>(SLICE_TURNS).fill('taken'),
    );
    expect(keeper.asks).toEqual([SLICE_TURNS]);
  });

  it('doubles the allowance while the ASN keeps it busy, up to its most', async () => {
    const keeper = new FakeKeeper(100_000);
    const { allowances } = deskOf(keeper);
    await takeMany(allowances, 1000, NOON);
    expect(keeper.asks.slice(0, 5)).toEqual([4, 8, 16, 32, 64]);
    expect(Math.max(...keeper.asks)).toBe(SLICE_MAX_TURNS);
    // A thousand messages cost the keeper a few dozen asks, not a thousand.
    expect(keeper.asks.length).toBeLessThan(25);
  });

  it('asks once for messages that arrive together, and serves them from the one allowance', async () => {
    const keeper = new FakeKeeper(1000);
    const { allowances } = deskOf(keeper);
    const taken = await Promise.all([1, 2, 3].map(() => allowances.take('asn:64500', NOON)));
    expect(taken).toEqual(['taken', 'taken', 'taken']);
    expect(keeper.asks).toEqual([SLICE_TURNS]);
  });

  it('says the day is spent when the keeper has nothing left, and asks again only a minute on', async () => {
    const keeper = new FakeKeeper(6);
    const { allowances } = deskOf(keeper);
    expect(await takeMany(allowances, 7, NOON)).toEqual([
      ...Array<string>(6).fill('taken'),
      'spent',
    ]);
    const asks = keeper.asks.length;
    expect(await allowances.take('asn:64500', NOON + 1000)).toBe('spent');
    expect(allowances.knownSpent('asn:64500', NOON + 1000)).toBe(true);
    expect(keeper.asks.length).toBe(asks);
    // Another desk handed turns back: a minute on, they are drawn.
    keeper.cap = 8;
    expect(await allowances.take('asn:64500', NOON + SPENT_MEMORY_MS)).toBe('taken');
  });

  it('refuses when the keeper cannot be reached, and serves nothing uncounted', async () => {
    const keeper = new FakeKeeper(1000);
    keeper.down = true;
    const { allowances } = deskOf(keeper);
    expect(await allowances.take('asn:64500', NOON)).toBe('unreachable');
    expect(allowances.knownSpent('asn:64500', NOON)).toBe(false);
    keeper.down = false;
    expect(await allowances.take('asn:64500', NOON + 1000)).toBe('taken');
  });

  it('takes a turn given back again without asking the keeper', async () => {
    const keeper = new FakeKeeper(1);
    const { allowances } = deskOf(keeper);
    expect(await allowances.take('asn:64500', NOON)).toBe('taken');
    await allowances.giveBack('asn:64500', '2030-01-15', NOON);
    expect(await allowances.take('asn:64500', NOON)).toBe('taken');
    expect(keeper.asks).toEqual([SLICE_TURNS]);
  });

  it('hands back what an idle allowance has left, and forgets it', async () => {
    const keeper = new FakeKeeper(1000);
    const { allowances, stored } = deskOf(keeper);
    await takeMany(allowances, 1, NOON);
    expect(stored.get('asn:64500')).toMatchObject({ left: SLICE_TURNS - 1 });
    await allowances.handBackIdle(NOON + ALLOWANCE_IDLE_MS - 1);
    expect(allowances.open).toBe(true);
    await allowances.handBackIdle(NOON + ALLOWANCE_IDLE_MS);
    expect(keeper.handedBack).toBe(SLICE_TURNS - 1);
    expect(keeper.drawn.get('2030-01-15')).toBe(1);
    expect(allowances.open).toBe(false);
    expect(stored.size).toBe(0);
  });

  it('lets an allowance of a day gone expire: nothing handed back, and the new day drawn afresh', async () => {
    const keeper = new FakeKeeper(1000);
    const { allowances } = deskOf(keeper);
    const lastMinute = Date.UTC(2030, 0, 15, 23, 59, 50);
    await takeMany(allowances, 1, lastMinute);
    expect(await allowances.take('asn:64500', lastMinute + 20_000)).toBe('taken');
    expect(keeper.drawn.get('2030-01-16')).toBe(SLICE_TURNS);
    await allowances.handBackIdle(lastMinute + 20_000 + ALLOWANCE_IDLE_MS);
    // Only the new day's unused turns go back; the old day's expired with it.
    expect(keeper.handedBack).toBe(SLICE_TURNS - 1);
  });

  it('is restored as stored when its desk wakes', async () => {
    const keeper = new FakeKeeper(1000);
    const first = deskOf(keeper);
    await takeMany(first.allowances, 1, NOON);
    const again = deskOf(keeper);
    again.allowances.restore(first.stored.values());
    expect(await takeMany(again.allowances, SLICE_TURNS - 1, NOON + 1000)).toEqual(
      Array<string>(SLICE_TURNS - 1).fill('taken'),
    );
    expect(keeper.asks).toEqual([SLICE_TURNS]);
  });
});
