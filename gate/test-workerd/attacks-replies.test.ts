/**
 * Text with Pepa, pushed past what a reply and a message may be: a reply that runs on in length
 * or in time is ended by the gate at its own bounds (and still charged), and a message that shows
 * nothing is refused before it costs a turn or a cent.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { REPLY_MAX_CHARS, REPLY_MAX_MS } from '../src/text/reply/text-relay';
import type { SaidEntry } from '../src/text/text-records';
import { addr, advance, inspect } from './bench';
import { body, events, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { deskOf, openChat, say } from './visitor-chats';

/** What the day's budget holds once the visitor's desk has settled its grants with the court. */
async function committedOnceSettled(address: string): Promise<number> {
  advance(31);
  await runDurableObjectAlarm(await deskOf(address));
  return (await inspect()).committedUsd;
}

/** What the desk recorded as said in a chat. */
async function saidIn(address: string, chatId: string): Promise<SaidEntry[]> {
  return runInDurableObject(await deskOf(address), (_desk, state) => {
    const row = state.storage.sql
      .exec<{ said: string }>(`SELECT said FROM chats WHERE id = ?`, chatId)
      .toArray()[0];
    return JSON.parse(row?.said ?? '[]') as SaidEntry[];
  });
}

const wordsOf = (got: Record<string, unknown>[]) =>
  got
    .filter((event) => event.type === 'words')
    .map((event) => String(event.text))
    .join('');

/**
 * The provider writes a piece of a reply every `everySeconds` of the gate's clock, `pieces` in
 * all: a reply that goes on for as long as it likes, each piece well within the idle limit.
 */
function providerTrickles(pieces: number, everySeconds: number): { cancelled: () => boolean } {
  const before = vi.mocked(globalThis.fetch).getMockImplementation();
  if (!before) throw new Error('The provider stub is not in place');
  let cancelled = false;
  vi.mocked(globalThis.fetch).mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    if (request.method !== 'POST' || url.pathname !== '/chat') return before(input, init);
    const id = 'chat-trickle';
    world.chat.records.set(id, { output: [{ role: 'assistant', content: '' }] });
    const encoder = new TextEncoder();
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(out) {
          if (sent === pieces) {
            out.enqueue(encoder.encode('data: [DONE]\n\n'));
            out.close();
            return;
          }
          advance(everySeconds);
          sent += 1;
          const delta = `piece ${sent}. `;
          out.enqueue(encoder.encode(`data: ${JSON.stringify({ id, delta })}\n\n`));
        },
        cancel() {
          cancelled = true;
        },
        // Written only when read: each piece's time is the time the gate asked for it.
      },
      { highWaterMark: 0 },
    );
    return new Response(stream, { status: 201, headers: { 'content-type': 'text/event-stream' } });
  });
  return { cancelled: () => cancelled };
}

describe('a reply longer than the gate’s bound', () => {
  it('is ended at the bound: the provider stopped, the visitor told, the reply charged', async () => {
    // 1,500 characters in pieces of 50.
    world.chat.reply = Array.from({ length: 30 }, (_, n) =>
      `${String(n).padStart(2, '0')}`.repeat(25),
    );
    const chat = await openChat(addr(1));
    const got = await events(await say(chat, 'Say it all, and again'));
    const relayed = wordsOf(got);
    expect(relayed).toBe(world.chat.reply.join('').slice(0, REPLY_MAX_CHARS));
    expect(got.at(-1)).toMatchObject({ type: 'failed', problem: { code: 'provider-error' } });
    expect(world.chat.aborted).toEqual(['chat-1']);
    // Charged at what the provider says it cost, as any reply.
    expect(world.chat.lookedUp).toEqual(['chat-1']);
    expect(await committedOnceSettled(addr(1))).toBeCloseTo(0.0071, 6);
    // What is kept of it is what was relayed, and it is no finished remark a card may be made of.
    const said = await saidIn(addr(1), chat);
    expect(said.at(-1)).toEqual({ who: 'pepa', text: relayed });
  });

  it('is cut between graphemes: an emoji sequence on the bound is left out whole', async () => {
    const family = '\u{1f469}\u200d\u{1f469}\u200d\u{1f467}';
    world.chat.reply = ['a'.repeat(REPLY_MAX_CHARS - 2), `${family} and more`];
    const chat = await openChat(addr(1));
    const got = await events(await say(chat, 'Family?'));
    expect(wordsOf(got)).toBe('a'.repeat(REPLY_MAX_CHARS - 2));
  });

  it('does not count the message: the visitor may send it again', async () => {
    world.chat.reply = ['x'.repeat(REPLY_MAX_CHARS + 1)];
    const chat = await openChat(addr(1));
    const cut = await events(await say(chat, 'Long, please'));
    expect(wordsOf(cut)).toHaveLength(REPLY_MAX_CHARS);
    world.chat.reply = ['Short.'];
    expect(await events(await say(chat, 'Short, please'))).toContainEqual({
      type: 'done',
      turnsLeft: 39,
      remark: 1,
    });
  });

  it('is relayed whole when it is exactly the bound', async () => {
    world.chat.reply = ['y'.repeat(REPLY_MAX_CHARS / 2), 'y'.repeat(REPLY_MAX_CHARS / 2)];
    const chat = await openChat(addr(1));
    const got = await events(await say(chat, 'Just enough'));
    expect(wordsOf(got)).toHaveLength(REPLY_MAX_CHARS);
    expect(got.at(-1)).toMatchObject({ type: 'done', turnsLeft: 39, remark: 1 });
  });
});

describe('a reply that runs past the gate’s time', () => {
  it('is ended at the bound though its pieces keep coming, and charged', async () => {
    // A piece every 10 s, each well within the idle limit: 100 s of reply.
    const provider = providerTrickles(10, 10);
    const chat = await openChat(addr(1));
    const got = await events(await say(chat, 'Take your time'));
    // The pieces written at 10 s and 20 s were relayed; the one at 30 s came too late.
    expect(REPLY_MAX_MS).toBe(30_000);
    expect(wordsOf(got)).toBe('piece 1. piece 2. ');
    expect(got.at(-1)).toMatchObject({ type: 'failed', problem: { code: 'provider-error' } });
    expect(provider.cancelled()).toBe(true);
    expect(world.chat.lookedUp).toEqual(['chat-trickle']);
    expect(await committedOnceSettled(addr(1))).toBeCloseTo(0.0071, 6);
  });

  it('is relayed whole when it ends within the bound', async () => {
    providerTrickles(2, 10);
    const chat = await openChat(addr(1));
    const got = await events(await say(chat, 'Quickly'));
    expect(wordsOf(got)).toBe('piece 1. piece 2. ');
    expect(got.at(-1)).toMatchObject({ type: 'done', turnsLeft: 39, remark: 1 });
  });
});

describe('a message with nothing to see', () => {
  it.each([
    ['zero-width spaces', '\u200b\u200b\u200b'],
    ['a word joiner and a byte order mark', '\u2060\ufeff'],
    ['a right-to-left override', '\u202e'],
    ['direction isolates and marks', '\u2066\u200f\u2069\u200e'],
    ['a soft hyphen', '\u00ad'],
    ['variation selectors', '\ufe0f\ufe0e'],
    ['a Hangul filler between spaces', ' \u3164 '],
    ['a combining mark alone', '\u0301'],
    ['blank Braille', '\u2800'],
    ['tags', '\u{e0041}\u{e0042}'],
  ])('is refused 400, unsent, and costs no turn: %s', async (_name, text) => {
    const chat = await openChat(addr(1));
    const refused = await say(chat, text);
    expect(refused.status).toBe(400);
    expect(await body<ProblemBody>(refused)).toMatchObject({ code: 'bad-request' });
    expect(world.chat.requests).toHaveLength(0);
    expect(await events(await say(chat, 'Hello'))).toContainEqual({
      type: 'done',
      turnsLeft: 39,
      remark: 1,
    });
    // One reply, the one that was said: nothing else was reserved or charged.
    expect(await committedOnceSettled(addr(1))).toBeCloseTo(0.0071, 6);
  });

  it('is still a message when one letter shows among the invisible', async () => {
    const chat = await openChat(addr(1));
    const answer = await say(chat, '\u200b\u202eo\u200b');
    expect(answer.status).toBe(200);
    await answer.text();
    expect(world.chat.requests).toHaveLength(1);
  });
});
