/**
 * Text from many networks of one ASN: sixty /64s in sixty different /48s, each within its own
 * limits and its network's, together held to the ASN's messages a day, counted across the desks
 * their networks fall to; visitors of other ASNs go on, and voice stays open. And a network's
 * own messages a day, shared by its visitors.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addr, advance, gateEnv, setVars, T0, TOKEN } from './bench';
import { api, body, type ProblemBody } from './gate-fetch';
import { start } from './visitor-calls';
import { deskOf, keeper, openChat, say } from './visitor-chats';
import { utcDay } from '../src/floor/day';
import type { AsnKeeper } from '../src/text/text-desk';

/** The attacking ASN, and another one. */
const ASN = 64_500;
const OTHER_ASN = 64_501;
/** Visitor `n` of the attack: a /64 of its own, in a /48 of its own. */
const inOwnNetwork = (n: number) => `2001:db8:${(0x100 + n).toString(16)}:1::${n + 1}`;
/** Seconds from T0 (noon UTC) to the next UTC day. */
const TO_MIDNIGHT = String(12 * 3600);

/** A message and its reply read whole: the reply's status. */
async function sayWhole(chat: string, text: string): Promise<Response> {
  const answer = await say(chat, text);
  if (answer.status === 200) await answer.text();
  return answer;
}

function drawnToday(): Promise<number> {
  return runInDurableObject(keeper(`asn:${ASN}`), (instance: AsnKeeper) =>
    instance.drawnOn(utcDay(T0)),
  );
}

describe("an ASN's networks writing to Pepa all at once", () => {
  it('are held to the ASN’s messages a day across their desks; other ASNs and voice go on', async () => {
    setVars({ GATE_CHAT_ASN_TURNS_PER_DAY: '100' });
    const addresses = Array.from({ length: 60 }, (_, n) => inOwnNetwork(n));
    const chats: string[] = [];
    for (const address of addresses) chats.push(await openChat(address, ASN));
    let replies = 0;
    const refusals: Response[] = [];
    // Three rounds of a message from each: 180 asked for, each visitor within their own limits.
    for (let round = 0; round < 3; round += 1) {
      for (const chat of chats) {
        const answer = await sayWhole(chat, `Round ${round}`);
        if (answer.status === 200) replies += 1;
        else refusals.push(answer);
      }
    }
    expect(replies).toBeLessThanOrEqual(100);
    expect(replies).toBeGreaterThanOrEqual(60);
    expect(refusals.length).toBe(180 - replies);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(429);
      expect(refusal.headers.get('retry-after')).toBe(TO_MIDNIGHT);
      expect(await body<ProblemBody>(refusal)).toMatchObject({
        code: 'rate-limited',
        detail:
          "Your network provider's guests have talked with Pepa by text as much as they may today",
      });
    }
    // Nobody's desk holds an allowance unused once they fall idle: the keeper counts what was used.
    advance(31);
    for (const address of addresses) await runDurableObjectAlarm(await deskOf(address));
    expect(await drawnToday()).toBe(replies);

    // Visitors of another ASN, and one Cloudflare knows no ASN of, still hear Pepa.
    expect((await sayWhole(await openChat(addr(1), OTHER_ASN), 'Hello')).status).toBe(200);
    expect((await sayWhole(await openChat(addr(2)), 'Hello')).status).toBe(200);
    // Voice stays open, for the capped ASN's visitors too.
    expect((await start(addr(3))).status).toBe(201);
    const call = await api('/api/calls', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': inOwnNetwork(0) },
      body: JSON.stringify({ botCheckToken: TOKEN }),
      cf: { asn: ASN },
    });
    expect(call.status).toBe(201);
  });

  it('asks the ASN’s keeper a few times, not once a message', async () => {
    setVars({
      GATE_CHAT_TURNS_PER_MINUTE: '600',
      GATE_CHAT_NETWORK_TURNS_PER_MINUTE: '600',
      GATE_CHAT_TURNS_PER_CHAT: '1000',
      GATE_CHAT_VISITOR_DAILY_USD: '100',
    });
    // Three visitors of one /48 (one desk), each well within the edge limiter's requests.
    const addresses = [1, 2, 3].map((n) => `2001:db8:100:${n}::1`);
    const chats: string[] = [];
    for (const address of addresses) chats.push(await openChat(address, ASN));
    for (let n = 0; n < 70; n += 1) {
      expect((await sayWhole(chats[n % 3] ?? '', `Message ${n}`)).status).toBe(200);
    }
    // Seventy messages, five asks: allowances of 4, 8, 16, 32 and 64 turns.
    expect(await drawnToday()).toBe(124);
    // Idle, the desk hands back what it did not use: the keeper counts the seventy.
    advance(31);
    await runDurableObjectAlarm(await deskOf(addresses[0] ?? ''));
    expect(await drawnToday()).toBe(70);
  });

  it('refuses the ASN’s visitors while its keeper cannot be reached, and serves other ASNs', async () => {
    const chat = await openChat(inOwnNetwork(0), ASN);
    const namespace = gateEnv.ASN_KEEPER;
    const unreachable = {
      getByName: (name: string) => ({
        draw: () => Promise.reject(new Error(`${name} cannot be reached`)),
        handBack: () => Promise.reject(new Error(`${name} cannot be reached`)),
      }),
    };
    Object.assign(gateEnv, { ASN_KEEPER: unreachable });
    try {
      const refused = await say(chat, 'Hello');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('10');
      expect(await body<ProblemBody>(refused)).toMatchObject({ code: 'text-busy' });
      expect((await sayWhole(await openChat(addr(1)), 'Hello')).status).toBe(200);
    } finally {
      Object.assign(gateEnv, { ASN_KEEPER: namespace });
    }
    expect((await sayWhole(chat, 'Hello again')).status).toBe(200);
  });
});

describe("a network's messages a day", () => {
  it('are shared by its visitors: the next is refused until the next UTC day', async () => {
    setVars({ GATE_CHAT_NETWORK_TURNS_PER_DAY: '3' });
    const [a, b, c] = ['2001:db8:77:1::1', '2001:db8:77:2::1', '2001:db8:77:3::1'];
    const chats = [await openChat(a), await openChat(b), await openChat(c)];
    for (const chat of chats) expect((await sayWhole(chat, 'Hello')).status).toBe(200);
    const refused = await say(chats[0] ?? '', 'Hello again');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(TO_MIDNIGHT);
    expect(await body<ProblemBody>(refused)).toMatchObject({
      code: 'rate-limited',
      detail: 'Your network has talked with Pepa by text as much as it may today',
    });
    // A new chat is refused before the bot check; another network writes on.
    expect((await api('/api/chats', chatStart(b))).status).toBe(429);
    expect((await sayWhole(await openChat('2001:db8:78:1::1'), 'Hello')).status).toBe(200);
    // The next day, the network may write again.
    advance(12 * 3600);
    expect((await sayWhole(await openChat(c), 'Good morning')).status).toBe(200);
  });
});

/** A chat's start from `address`. */
function chatStart(address: string): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': address },
    body: JSON.stringify({ botCheckToken: TOKEN }),
  };
}
