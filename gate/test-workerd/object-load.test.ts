/**
 * What the desks and the shelves hear, as the owner's report gives it beside the court's: of all
 * the desks (and all the shelves), the one that heard the most requests in the last ten minutes,
 * and its count second by second. Each request a desk or a shelf hears counts once; the report's
 * own asking does not.
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../generated/gate/types.gen';
import { shelfFor } from '../src/cards/card-shelf';
import { busiestOf, type LoadWindow } from '../src/floor/load';
import { identify, type Visitor } from '../src/floor/visitor';
import { deskFor } from '../src/text/text-desk';
import { addr, advance, gateEnv, ORIGIN, T0 } from './bench';
import { cardOfChat, madeCard, OWNER_ADDRESS } from './card-support';
import { api, body, events } from './gate-fetch';
import { openChat, say } from './visitor-chats';

async function visitorAt(address: string): Promise<Visitor> {
  const request = new Request(ORIGIN, { headers: { 'cf-connecting-ip': address } });
  const visitor = await identify(request, gateEnv.GATE_VISITOR_SALT ?? '');
  if (!visitor) throw new Error(`no visitor at ${address}`);
  return visitor;
}

async function report(): Promise<Report> {
  const answer = await api('/api/report?days=1', {
    headers: { authorization: 'Bearer test-admin-token', 'cf-connecting-ip': OWNER_ADDRESS },
  });
  expect(answer.status).toBe(200);
  return body<Report>(answer);
}

const total = (load: { requestsPerSecond: number[] } | undefined) =>
  (load?.requestsPerSecond ?? []).reduce((sum, n) => sum + n, 0);

describe('the report of what the desks and the shelves hear', () => {
  it('names the busiest desk and the busiest shelf, and counts each request they heard', async () => {
    const busy = addr(1);
    const busyVisitor = await visitorAt(busy);
    // A visitor of another network, on another desk and another shelf.
    let n = 2;
    let other = await visitorAt(addr(n));
    while (deskFor(other) === deskFor(busyVisitor) || shelfFor(other) === shelfFor(busyVisitor)) {
      n += 1;
      other = await visitorAt(addr(n));
    }
    // At T0 both start a chat: each desk hears the start's check and its opening.
    const chat = await openChat(busy);
    await openChat(addr(n));
    advance(1);
    // A second on, the busy visitor writes once and asks twice for a card of Pepa's reply: the
    // desk hears the message and the remark read for the card (once: the second ask is given the
    // card made), the shelf the first ask's claim and its card made, and the second ask's claim.
    expect((await events(await say(chat, 'Who are you?'))).at(-1)).toMatchObject({ remark: 1 });
    const card = await madeCard(await cardOfChat(chat, 1));
    const again = await cardOfChat(chat, 1);
    expect(again.status).toBe(200);
    expect((await body<{ id: string }>(again)).id).toBe(card.id);

    const first = await report();
    expect(first.deskLoad?.object).toBe(deskFor(busyVisitor));
    expect(first.shelfLoad?.object).toBe(shelfFor(busyVisitor));
    // Ten minutes, one a second, ending with this second.
    for (const load of [first.courtLoad, first.deskLoad, first.shelfLoad]) {
      expect(load?.requestsPerSecond).toHaveLength(600);
      expect(load?.from).toBe(new Date(T0 + 1000 - 599_000).toISOString());
    }
    expect(first.deskLoad?.requestsPerSecond.slice(-2)).toEqual([2, 2]);
    expect(total(first.deskLoad)).toBe(4);
    expect(first.shelfLoad?.requestsPerSecond.slice(-2)).toEqual([0, 3]);
    expect(total(first.shelfLoad)).toBe(3);
    // Asked again: the report's own asking was not counted.
    const second = await report();
    expect(second.deskLoad).toEqual(first.deskLoad);
    expect(second.shelfLoad).toEqual(first.shelfLoad);
  });

  it('names the first desk and shelf when none heard anything', async () => {
    const quiet = await report();
    expect(quiet.deskLoad?.object).toBe('desk-0');
    expect(quiet.shelfLoad?.object).toBe('shelf-0');
    expect(total(quiet.deskLoad)).toBe(0);
    expect(total(quiet.shelfLoad)).toBe(0);
  });
});

describe('the busiest of several objects', () => {
  const window = (requestsPerSecond: number[]): LoadWindow => ({
    from: new Date(T0).toISOString(),
    requestsPerSecond,
  });

  it('is the one that heard the most in all, the first named among equals', async () => {
    const loads: Record<string, LoadWindow> = {
      'desk-0': window([0, 1, 1]),
      'desk-1': window([3, 0, 0]),
      'desk-2': window([0, 0, 3]),
    };
    const busiest = await busiestOf(Object.keys(loads), (name) =>
      Promise.resolve(loads[name] ?? window([])),
    );
    expect(busiest).toEqual({ object: 'desk-1', ...window([3, 0, 0]) });
  });

  it('leaves out one that fails to answer, and is undefined when none answers', async () => {
    const failing = () => Promise.reject(new Error('overloaded'));
    const busiest = await busiestOf(['shelf-0', 'shelf-1'], (name) =>
      name === 'shelf-0' ? failing() : Promise.resolve(window([1])),
    );
    expect(busiest?.object).toBe('shelf-1');
    await expect(busiestOf(['shelf-0'], failing)).resolves.toBeUndefined();
  });
});
