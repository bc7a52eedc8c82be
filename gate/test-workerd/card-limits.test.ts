/**
 * The cards' limits: a visitor's, their network's (/24, /48) and a conversation's cards a day,
 * held exactly under a race (a card counts once made; an ask under way holds a place, and an ask
 * meeting only held places is told to ask again, never refused), and the site's configured
 * origin named on every card whatever host was asked.
 */
import { SELF } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Problem } from '../../generated/gate/types.gen';
import { painter } from '../src/cards/card-render';
import { cardOfCall, emptyCards, madeCard, pepaSays, race, recordCall } from './card-support';
import { setVars } from './bench';
import { body } from './gate-fetch';
import { admit } from './visitor-calls';

const REMARKS = Array.from({ length: 15 }, (_, n) => `Ribbit number ${n + 1} of the court.`);
/** A remark every check refuses (personal data). */
const REFUSED = 'Write to me at pepa@example.com, darling.';

beforeEach(async () => {
  await emptyCards();
  setVars({ GATE_MAX_CONCURRENT_CALLS: '50', GATE_NETWORK_CONCURRENT: '50' });
});

/** Each of `addresses` in a call whose Pepa says `remarks`; the calls' ids. */
async function callsFrom(addresses: string[], remarks: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const address of addresses) {
    const callId = await admit(address);
    recordCall(callId, pepaSays(remarks));
    ids.push(callId);
  }
  return ids;
}

/** Asks for Pepa's remarks 1…`each` of every call, all at once. */
function asksOf(callIds: string[], each: number) {
  return callIds.flatMap((callId) =>
    Array.from({ length: each }, (_, n) => () => cardOfCall(callId, n + 1)),
  );
}

/** What every race must show: exactly `limit` made, and no 429 while fewer were. */
function heldExactly(outcome: Awaited<ReturnType<typeof race>>, limit: number) {
  expect(outcome.made).toBe(limit);
  // Refused for the limit only once the limit's cards were all made: never in the first round,
  // where every ask's place was held or free.
  expect(outcome.firstRound.filter((status) => status === 429)).toEqual([]);
  expect(outcome.answers.every((statuses) => [201, 429].includes(statuses.at(-1) ?? 0))).toBe(true);
}

describe('a race of 15 asks', () => {
  it('makes exactly a visitor’s 10, refusing none before 10 are made', async () => {
    setVars({ GATE_CARDS_PER_DAY: '10', GATE_CARDS_PER_CONVERSATION: '100' });
    const [callId = ''] = await callsFrom(['198.51.100.20'], REMARKS);
    heldExactly(await race(asksOf([callId], 15)), 10);
  });

  it('gives the place of an ask whose words are refused to another', async () => {
    setVars({ GATE_CARDS_PER_DAY: '10', GATE_CARDS_PER_CONVERSATION: '100' });
    // Three refused among the first ten: ten cards are still made of the other twelve.
    const remarks = REMARKS.map((remark, n) => (n % 4 === 1 && n < 10 ? REFUSED : remark));
    const [callId = ''] = await callsFrom(['198.51.100.20'], remarks);
    const outcome = await race(asksOf([callId], 15));
    // Ten made though three asks were refused: a refused ask that held a place is answered 422
    // and its place goes to another; one that came when every place was held waited (409) and
    // may find the limit reached by then (429). Which arrives first is the race's.
    const last = outcome.answers.map((statuses) => statuses.at(-1));
    expect(last.filter((status) => status !== 201).every((s) => s === 422 || s === 429)).toBe(true);
    expect(last.filter((status) => status === 422).length).toBeLessThanOrEqual(3);
    expect(outcome.made).toBe(10);
    expect(outcome.firstRound.filter((status) => status === 429)).toEqual([]);
  });

  it('holds a /24 to its cards, whichever of its visitors ask', async () => {
    setVars({ GATE_CARDS_NETWORK_PER_DAY: '6' });
    const neighbours = ['198.51.100.31', '198.51.100.32', '198.51.100.33'];
    const calls = await callsFrom(neighbours, REMARKS.slice(0, 6));
    heldExactly(await race(asksOf(calls, 5)), 6);
    const refused = await cardOfCall(calls[0] ?? '', 6);
    expect(refused.status).toBe(429);
    expect((await body<Problem>(refused)).detail).toMatch(/network/);
    // Another /24 has its own.
    const [elsewhere = ''] = await callsFrom(['198.51.101.31'], REMARKS.slice(0, 1));
    expect((await cardOfCall(elsewhere, 1)).status).toBe(201);
  });

  it('holds a /48 to its cards, across its /64s', async () => {
    setVars({ GATE_CARDS_NETWORK_PER_DAY: '6' });
    const sixtyFours = ['2001:db8:7:1::1', '2001:db8:7:2::1', '2001:db8:7:3::1'];
    const calls = await callsFrom(sixtyFours, REMARKS.slice(0, 5));
    heldExactly(await race(asksOf(calls, 5)), 6);
    const [elsewhere = ''] = await callsFrom(['2001:db8:8:1::1'], REMARKS.slice(0, 1));
    expect((await cardOfCall(elsewhere, 1)).status).toBe(201);
  });

  it('holds one conversation to its cards', async () => {
    setVars({ GATE_CARDS_PER_CONVERSATION: '4', GATE_VISITOR_CONCURRENT: '2' });
    const [callId = ''] = await callsFrom(['198.51.100.40'], REMARKS);
    heldExactly(await race(asksOf([callId], 14)), 4);
    const refused = await cardOfCall(callId, 15);
    expect(refused.status).toBe(429);
    expect((await body<Problem>(refused)).detail).toMatch(/conversation/);
    // The visitor's next conversation has its own.
    const [next = ''] = await callsFrom(['198.51.100.40'], REMARKS.slice(0, 1));
    expect((await cardOfCall(next, 1)).status).toBe(201);
  });
});

describe('the site a card names', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is the configured origin, whatever host the card was asked on', async () => {
    const drawn = vi.spyOn(painter, 'render');
    const [callId = ''] = await callsFrom(['198.51.100.50'], REMARKS.slice(0, 1));
    const card = await madeCard(
      await cardOfCall(callId, 1, { host: 'pepa-official-airdrop.example' }),
    );
    expect(drawn).toHaveBeenCalledWith(expect.objectContaining({ site: 'pepa.test' }));
    expect(card.pageUrl).toBe(`https://pepa.test/q/${card.id}`);
    expect(card.imageUrl).toBe(`https://pepa.test/q/${card.id}/card.png`);
    const page = await (
      await SELF.fetch(`https://pepa-official-airdrop.example/q/${card.id}`)
    ).text();
    expect(page).not.toContain('airdrop');
    expect(page).toContain(`<meta property="og:url" content="https://pepa.test/q/${card.id}">`);
    expect(page).toContain(`<meta property="og:image" content="${card.imageUrl}">`);
  });

  it.each([
    ['unset', ''],
    ['not https', 'http://pepa.example'],
    ['with a path', 'https://pepa.example/cards'],
  ])('makes no card while it is %s, and says so', async (_case, origin) => {
    setVars({ GATE_SITE_ORIGIN: origin });
    const [callId = ''] = await callsFrom(['198.51.100.60'], REMARKS.slice(0, 1));
    const answer = await cardOfCall(callId, 1);
    expect(answer.status).toBe(503);
    expect((await body<Problem>(answer)).code).toBe('gate-unavailable');
  });
});
