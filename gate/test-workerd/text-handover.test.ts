import { describe, expect, it } from 'vitest';
import {
  addr,
  admit,
  advance,
  api,
  body,
  checkIn,
  events,
  handover,
  openChat,
  queue,
  say,
  start,
  statusEnded,
  sweep,
  ticketHeaders,
  TOKEN,
  world,
  type AdmittedBody,
  type WaitingBody,
} from './support';

/** `POST /api/calls` from `address`, handing over `chat` (its id and secret). */
function startWithChat(address: string, chat: string): Promise<Response> {
  return api('/api/calls', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': address, ...handover(chat) },
    body: JSON.stringify({ botCheckToken: TOKEN }),
  });
}

/** The variables the provider was given with the last call created. */
function lastVariables(): unknown {
  const created = world.provider.created.at(-1)?.body as
    { assistantOverrides?: { variableValues?: unknown } } | undefined;
  return created?.assistantOverrides?.variableValues;
}

describe('a chat handed to the call', () => {
  it('gives the call what was said by text, from the gate’s own record', async () => {
    const chat = await openChat(addr(1));
    await events(await say(chat, 'Who are you?'));
    const answer = await startWithChat(addr(1), chat);
    expect(answer.status).toBe(201);
    expect(lastVariables()).toEqual({
      chatSoFar: 'Guest: Who are you?\nPepa: Ribbit! A fine question.',
    });
  });

  it('gives the call nothing of another visitor’s chat', async () => {
    const chat = await openChat(addr(1));
    await events(await say(chat, 'My secret plans'));
    const answer = await startWithChat(addr(2), chat);
    expect(answer.status).toBe(201);
    expect(lastVariables()).toBeUndefined();
  });

  it('keeps what is handed over bounded: the newest lines', async () => {
    world.chat.reply = ['x'.repeat(900)];
    const chat = await openChat(addr(1));
    for (let n = 1; n <= 8; n += 1) await events(await say(chat, `message ${n}`));
    await startWithChat(addr(1), chat);
    const said = (lastVariables() as { chatSoFar: string } | undefined)?.chatSoFar ?? '';
    expect(said.length).toBeLessThanOrEqual(6000 + 16 * 8);
    expect(said).toContain('Guest: message 8');
    expect(said).not.toContain('Guest: message 1\n');
  });
});

describe('a place offered to a visitor who is chatting', () => {
  async function fullCourtWithTicket() {
    const first = await admit(addr(1));
    await admit(addr(2));
    const waiting = await queue(addr(3));
    await statusEnded(first);
    advance(1);
    return waiting.ticket.id;
  }

  it('holds the freed place for their tap, and the tap takes it with the chat', async () => {
    const ticket = await fullCourtWithTicket();
    const chat = await openChat(addr(3));
    await events(await say(chat, 'Hello while I wait'));
    const offered = await checkIn(ticket, '?offer=true');
    expect(offered.status).toBe(200);
    const waiting = await body<WaitingBody>(offered);
    expect(waiting).toMatchObject({ offered: true, ticket: { checkInBySeconds: 30 } });
    // The place is held: a newcomer waits.
    expect((await start(addr(4))).status).toBe(202);
    const taken = await api(`/api/tickets/${ticket}`, {
      method: 'POST',
      headers: { ...ticketHeaders(ticket), ...handover(chat) },
    });
    expect(taken.status).toBe(201);
    expect((await body<AdmittedBody>(taken)).call.id).toBeTruthy();
    expect(lastVariables()).toEqual({
      chatSoFar: 'Guest: Hello while I wait\nPepa: Ribbit! A fine question.',
    });
  });

  it('gives a place not taken in time to the next in line', async () => {
    const ticket = await fullCourtWithTicket();
    const next = (await queue(addr(4))).ticket.id;
    expect((await body<WaitingBody>(await checkIn(ticket, '?offer=true'))).offered).toBe(true);
    // The next in line keeps checking in; the held place is not theirs while it is held.
    for (let second = 2; second <= 32; second += 2) {
      advance(2);
      const waiting = await checkIn(next);
      expect(waiting.status, `at ${second} s`).toBe(200);
    }
    await sweep();
    expect((await checkIn(ticket)).status).toBe(404);
    advance(2);
    expect((await checkIn(next)).status).toBe(201);
  });

  it('refuses a tap that comes after the held place’s time, before any sweep', async () => {
    const ticket = await fullCourtWithTicket();
    await checkIn(ticket, '?offer=true');
    advance(31);
    expect((await checkIn(ticket)).status).toBe(404);
  });

  it('says the place is still held to a check-in with offer, without holding it longer', async () => {
    const ticket = await fullCourtWithTicket();
    await checkIn(ticket, '?offer=true');
    advance(10);
    const again = await body<WaitingBody>(await checkIn(ticket, '?offer=true'));
    expect(again).toMatchObject({ offered: true, ticket: { checkInBySeconds: 20 } });
  });
});
