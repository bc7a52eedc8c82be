import { describe, expect, it } from 'vitest';
import { GateConfigError, textLimitsFrom, type TextLimits } from '../../floor/config';
import type { Visitor } from '../../floor/visitor';
import { AsnAllowances, keeperGrant } from './asn-allowances';
import { KEEPER_UNREACHABLE_RETRY_SECONDS, TurnCaps, type TurnCounts } from './turn-caps';

/** Noon UTC: twelve hours to the next day. */
const NOON = Date.UTC(2030, 0, 15, 12);
const HALF_A_DAY = 12 * 3600;

const LIMITS: TextLimits = {
  messageChars: 500,
  turnsPerChat: 40,
  turnsPerMinute: 8,
  turnsPerDay: 120,
  networkTurnsPerMinute: 1000,
  networkTurnsPerDay: 5,
  asnTurnsPerDay: 12,
  startsPerDay: 20,
  turnWorstUsd: 0.02,
  visitorDailyUsd: 0.5,
  maxConcurrentReplies: 0,
  openings: true,
};

/** The desk's counts in memory: the same questions its SQLite answers. */
class MemoryCounts implements TurnCounts {
  private readonly turns: { key: string; at: number }[] = [];
  private readonly days = new Map<string, number>();

  since(key: string, since: number) {
    const ats = this.turns.filter((t) => t.key === key && t.at > since).map((t) => t.at);
    return { count: ats.length, oldest: ats.length > 0 ? Math.min(...ats) : null };
  }
  note(keys: readonly string[], at: number) {
    for (const key of keys) this.turns.push({ key, at });
  }
  onDay(key: string, day: string) {
    return this.days.get(`${key} ${day}`) ?? 0;
  }
  addToDay(key: string, day: string, turns: number) {
    this.days.set(`${key} ${day}`, Math.max(0, this.onDay(key, day) + turns));
  }
  prune() {}
}

/** The ASNs' keepers, shared by every desk of a test: each day's turns handed out, within the cap. */
function keeperOf(cap: number) {
  const keeper = {
    drawn: new Map<string, number>(),
    down: false,
    draw: async (asn: string, _day: string, want: number) => {
      if (keeper.down) throw new Error('the keeper cannot be reached');
      const granted = keeperGrant(keeper.drawn.get(asn) ?? 0, cap, want);
      keeper.drawn.set(asn, (keeper.drawn.get(asn) ?? 0) + granted);
      return granted;
    },
    handBack: async (asn: string, _day: string, turns: number) => {
      keeper.drawn.set(asn, (keeper.drawn.get(asn) ?? 0) - turns);
    },
  };
  return keeper;
}

/** A desk's caps, over a keeper the test's desks share. */
function deskCaps(keeper: ReturnType<typeof keeperOf>, limits: Partial<TextLimits> = {}) {
  const allowances = new AsnAllowances({ ...keeper, store: async () => undefined });
  return new TurnCaps(new MemoryCounts(), allowances, () => ({ ...LIMITS, ...limits }));
}

/** A visitor of network `net` and ASN `asn` (none: Cloudflare reported none). */
function visitor(n: number, net: string, asn?: number): Visitor {
  return { key: `visitor-${n}`, networks: [`net:${net}`, ...(asn ? [`asn:${asn}`] : [])] };
}

describe("a network's messages a day", () => {
  it('refuses the message past the cap, until the next UTC day, and no other network', async () => {
    const caps = deskCaps(keeperOf(1000), { asnTurnsPerDay: 1000 });
    for (let n = 0; n < 5; n += 1) {
      expect(await caps.take(visitor(n, 'aa', 64500), NOON)).toMatchObject({ network: 'net:aa' });
    }
    const refused = await caps.take(visitor(9, 'aa', 64500), NOON + 1000);
    expect(refused).toEqual({
      code: 'rate-limited',
      detail: 'Your network has talked with Pepa by text as much as it may today',
      retryAfterSeconds: HALF_A_DAY - 1,
    });
    expect(caps.spentDay(visitor(9, 'aa'), NOON)).toMatchObject({ code: 'rate-limited' });
    expect(await caps.take(visitor(10, 'bb', 64500), NOON)).toMatchObject({ network: 'net:bb' });
    // The next day, the network may talk again.
    expect(await caps.take(visitor(9, 'aa', 64500), NOON + HALF_A_DAY * 1000)).toMatchObject({
      day: '2030-01-16',
    });
  });

  it('gets a turn back when no reply was written', async () => {
    const caps = deskCaps(keeperOf(1000), { networkTurnsPerDay: 1 });
    const first = await caps.take(visitor(1, 'aa', 64500), NOON);
    if (!('day' in first)) throw new Error('the first turn was refused');
    expect(await caps.take(visitor(2, 'aa', 64500), NOON)).toMatchObject({ code: 'rate-limited' });
    await caps.giveBack(first, NOON);
    expect(await caps.take(visitor(2, 'aa', 64500), NOON)).toMatchObject({ network: 'net:aa' });
  });
});

describe("an ASN's messages a day", () => {
  it('are counted across desks: their networks together get the cap and no more', async () => {
    const keeper = keeperOf(12);
    const desks = [deskCaps(keeper), deskCaps(keeper), deskCaps(keeper)];
    const answers = [];
    // Sixty networks of one ASN, a message each in turn, spread over three desks.
    for (let n = 0; n < 60; n += 1) {
      const desk = desks[n % 3] as TurnCaps;
      answers.push(await desk.take(visitor(n, `net-${n}`, 64500), NOON));
    }
    expect(answers.filter((answer) => 'day' in answer)).toHaveLength(12);
    expect(answers.at(-1)).toEqual({
      code: 'rate-limited',
      detail:
        "Your network provider's guests have talked with Pepa by text as much as they may today",
      retryAfterSeconds: HALF_A_DAY,
    });
    // Another ASN's visitors, on the same desks, go on.
    expect(await desks[0]?.take(visitor(100, 'other', 64501), NOON)).toMatchObject({
      asn: 'asn:64501',
    });
  });

  it("gives an ASN's turns back when no reply was written, for its other visitors", async () => {
    const keeper = keeperOf(1);
    const caps = deskCaps(keeper, { asnTurnsPerDay: 1 });
    const first = await caps.take(visitor(1, 'aa', 64500), NOON);
    if (!('day' in first)) throw new Error('the first turn was refused');
    await caps.giveBack(first, NOON);
    expect(await caps.take(visitor(2, 'bb', 64500), NOON)).toMatchObject({ asn: 'asn:64500' });
  });

  it('refuses its visitors while its keeper cannot be reached, and gives the network its turn back', async () => {
    const keeper = keeperOf(1000);
    keeper.down = true;
    const caps = deskCaps(keeper, { networkTurnsPerDay: 1 });
    expect(await caps.take(visitor(1, 'aa', 64500), NOON)).toEqual({
      code: 'text-busy',
      detail: "Pepa cannot count your network's messages right now",
      retryAfterSeconds: KEEPER_UNREACHABLE_RETRY_SECONDS,
    });
    // A visitor Cloudflare knows no ASN of is held by the network's caps alone.
    expect(await caps.take(visitor(2, 'aa'), NOON)).toMatchObject({ network: 'net:aa', asn: null });
  });

  it('is known spent before a chat starts, once a desk has heard so', async () => {
    const caps = deskCaps(keeperOf(0));
    expect(caps.spentDay(visitor(1, 'aa', 64500), NOON)).toBeNull();
    expect(await caps.take(visitor(1, 'aa', 64500), NOON)).toMatchObject({
      code: 'rate-limited',
    });
    expect(caps.spentDay(visitor(2, 'bb', 64500), NOON)).toMatchObject({ code: 'rate-limited' });
    expect(caps.spentDay(visitor(3, 'cc', 64501), NOON)).toBeNull();
  });
});

describe('messages a minute', () => {
  it("holds a visitor and their network to their minute's, and says when the next may go", () => {
    const caps = deskCaps(keeperOf(1000), { turnsPerMinute: 2, networkTurnsPerMinute: 3 });
    caps.noteTurn(visitor(1, 'aa'), NOON);
    caps.noteTurn(visitor(1, 'aa'), NOON + 20_000);
    expect(caps.perMinute(visitor(1, 'aa'), NOON + 30_000)).toMatchObject({
      code: 'rate-limited',
      retryAfterSeconds: 30,
    });
    expect(caps.perMinute(visitor(2, 'aa'), NOON + 30_000)).toBeNull();
    caps.noteTurn(visitor(2, 'aa'), NOON + 30_000);
    expect(caps.perMinute(visitor(3, 'aa'), NOON + 30_000)).toMatchObject({
      retryAfterSeconds: 30,
    });
    expect(caps.perMinute(visitor(3, 'aa'), NOON + 60_000)).toBeNull();
  });
});

describe("the owner's caps by network and by ASN", () => {
  const settings = {
    GATE_CHAT_MESSAGE_CHARS: '500',
    GATE_CHAT_TURNS_PER_CHAT: '40',
    GATE_CHAT_TURNS_PER_MINUTE: '8',
    GATE_CHAT_TURNS_PER_DAY: '120',
    GATE_CHAT_NETWORK_TURNS_PER_MINUTE: '60',
    GATE_CHAT_NETWORK_TURNS_PER_DAY: '2000',
    GATE_CHAT_ASN_TURNS_PER_DAY: '10000',
    GATE_CHAT_STARTS_PER_DAY: '20',
    GATE_CHAT_TURN_WORST_USD: '0.02',
    GATE_CHAT_VISITOR_DAILY_USD: '0.5',
    GATE_MAX_CONCURRENT_REPLIES: '0',
    GATE_CHAT_OPENINGS: 'on',
  };

  it('are read as whole numbers a day', () => {
    expect(textLimitsFrom(settings)).toMatchObject({
      networkTurnsPerDay: 2000,
      asnTurnsPerDay: 10_000,
    });
  });

  it.each([
    ['GATE_CHAT_NETWORK_TURNS_PER_DAY', '0'],
    ['GATE_CHAT_NETWORK_TURNS_PER_DAY', ''],
    ['GATE_CHAT_ASN_TURNS_PER_DAY', '2.5'],
    ['GATE_CHAT_ASN_TURNS_PER_DAY', '20000000'],
  ])('refuse %s="%s" with an error naming it', (name, value) => {
    const read = () => textLimitsFrom({ ...settings, [name]: value });
    expect(read).toThrow(GateConfigError);
    expect(read).toThrow(name);
  });
});
