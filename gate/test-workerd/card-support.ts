/**
 * The quote cards' test kit: a call's record at the provider, the asks for a card of a call's or
 * a chat's remark (and of words Pepa said, with the refusal expected), the owner's takedowns, an
 * empty bucket for each test, and a race of asks run to its end.
 */
import { SELF } from 'cloudflare:test';
import { expect } from 'vitest';
import type { Card, Problem, Takedown } from '../../generated/gate/types.gen';
import { REFUSAL_REASONS, type CardRefusal } from '../src/cards/words/card-words';
import { addr, gateEnv } from './bench';
import { api, body } from './gate-fetch';
import { world } from './outside-world';
import { admit, cardCookies } from './visitor-calls';
import { chatHeaders } from './visitor-chats';

/** The owner's address, for the owner's paths (which pass the edge limiter like any). */
export const OWNER_ADDRESS = '203.0.113.200';

/** The provider's record of call `callId`: `remarks` as said, in turn, Pepa's first. */
export function recordCall(
  callId: string,
  remarks: string[],
  status: 'ended' | 'in-progress' = 'ended',
): void {
  const call = world.provider.calls.get(callId);
  if (!call) throw new Error(`no call ${callId}`);
  call.status = status;
  call.artifact = {
    messages: [
      { role: 'system', message: 'You are Pepa.', time: 1, secondsFromStart: 0 },
      ...remarks.map((message, n) => ({
        role: n % 2 === 0 ? 'bot' : 'user',
        message,
        time: Date.UTC(2030, 0, 15, 12, 0, n),
        endTime: Date.UTC(2030, 0, 15, 12, 0, n + 1),
        secondsFromStart: n,
      })),
    ],
  };
}

/** A call's record in which Pepa says `pepa`, remark by remark, the visitor answering each. */
export function pepaSays(pepa: string[]): string[] {
  return pepa.flatMap((remark, n) => (n === 0 ? [remark] : ['Go on.', remark]));
}

/**
 * `POST /api/cards` for a remark of a call, from the address the call was given to and with its
 * card cookie, unless told otherwise; `host` names another site than the tests' own.
 */
export function cardOfCall(
  callId: string,
  remark: number,
  as: { address?: string; cookie?: string; host?: string } = {},
): Promise<Response> {
  const known = cardCookies.get(callId);
  const address = as.address ?? known?.address ?? '192.0.2.99';
  const cookie = as.cookie ?? known?.cookie;
  const init = {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'cf-connecting-ip': address,
      ...(cookie ? { cookie: `pepa_card=${cookie}` } : {}),
    },
    body: JSON.stringify({ from: 'call', conversationId: callId, remark }),
  };
  return as.host ? SELF.fetch(`https://${as.host}/api/cards`, init) : api('/api/cards', init);
}

/** `POST /api/cards` for reply `remark` of a chat, with its secret from its visitor's address. */
export function cardOfChat(
  chatId: string,
  remark: number,
  headers: Record<string, string> = chatHeaders(chatId),
): Promise<Response> {
  return api('/api/cards', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ from: 'chat', conversationId: chatId, remark }),
  });
}

/** The answer to a card of `words`, said by Pepa as the first remark of a new call. */
export async function askCardOf(words: string): Promise<Response> {
  const callId = await admit(addr(1));
  recordCall(callId, pepaSays([words]));
  return cardOfCall(callId, 1);
}

/** A card of `words` is refused for `refusal`, and nothing is stored. */
export async function expectRefused(words: string, refusal: CardRefusal): Promise<void> {
  const answer = await askCardOf(words);
  expect(answer.status).toBe(422);
  expect((await body<Problem>(answer)).detail).toBe(REFUSAL_REASONS[refusal]);
  expect((await gateEnv.CARDS.list({ prefix: 'cards/' })).objects).toEqual([]);
}

export async function madeCard(response: Response): Promise<Card> {
  expect(response.status).toBe(201);
  return body<Card>(response);
}

/** The owner's `DELETE /api/cards/{id}`. */
export function takeDown(id: string, token = 'test-admin-token'): Promise<Response> {
  return api(`/api/cards/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': OWNER_ADDRESS },
  });
}

/** The owner's `POST /api/card-takedowns`: words taken down with no card named. */
export function takeDownWords(words: string, token = 'test-admin-token'): Promise<Response> {
  return api('/api/card-takedowns', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'cf-connecting-ip': OWNER_ADDRESS,
    },
    body: JSON.stringify({ words }),
  });
}

export async function takenDown(response: Response): Promise<Takedown> {
  expect(response.status).toBe(200);
  return body<Takedown>(response);
}

/** Every object of the cards' bucket gone: a test's takedowns are its own. */
export async function emptyCards(): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await gateEnv.CARDS.list({ cursor });
    const keys = page.objects.map((object) => object.key);
    if (keys.length > 0) await gateEnv.CARDS.delete(keys);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/** What a race of asks came to: each ask's answers in turn, the first made all at once. */
export interface RaceOutcome {
  /** Every ask's answers, by ask: the first, then each ask again after "not ready". */
  answers: number[][];
  firstRound: number[];
  made: number;
}

/**
 * Makes every ask at once, then asks again each one told to ask again in a moment (409) until
 * none is: as a page does on `card-not-ready`.
 */
export async function race(asks: Array<() => Promise<Response>>): Promise<RaceOutcome> {
  const answers: number[][] = asks.map(() => []);
  let pending = asks.map((_, n) => n);
  for (let round = 0; pending.length > 0; round += 1) {
    if (round > 10) throw new Error('asks still told to ask again after 10 rounds');
    const statuses = await Promise.all(
      pending.map(async (n) => {
        const answer = await asks[n]!();
        await answer.arrayBuffer();
        return answer.status;
      }),
    );
    pending.forEach((n, i) => answers[n]!.push(statuses[i]!));
    pending = pending.filter((_, i) => statuses[i] === 409);
  }
  const firstRound = answers.map((statuses) => statuses[0] ?? 0);
  const made = answers.filter((statuses) => statuses.includes(201)).length;
  return { answers, firstRound, made };
}
