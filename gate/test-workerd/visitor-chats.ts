/**
 * A visitor's text chats, as the tests drive them through the gate: opening one, writing to
 * Pepa, handing it to a call; and the text desks that served them, which a test reaches by name
 * to look inside. A visitor may be given an ASN, as
 * Cloudflare reports one (`request.cf.asn`); without one, the runtime reports none.
 */
import { runDurableObjectAlarm } from 'cloudflare:test';
import { deskFor } from '../src/text/text-desk';
import { identify } from '../src/floor/visitor';
import { advance, gateEnv, ORIGIN, TOKEN } from './bench';
import { api } from './gate-fetch';

/** The chats given in this test: each one's secret, and the address and ASN it was given to. */
const chats = new Map<string, { secret: string; address: string; asn: number | undefined }>();

/** Forgets the chats of the test before. */
export function forgetVisitorChats(): void {
  chats.clear();
}

/** What Cloudflare says of a request from a visitor of `asn`. */
const cfOf = (asn: number | undefined) => (asn === undefined ? {} : { cf: { asn } });

/** `POST /api/chats` from a visitor at `address` (of `asn`, when given). */
export async function startChat(
  address: string,
  botCheckToken: string | null = TOKEN,
  asn?: number,
): Promise<Response> {
  const answer = await api('/api/chats', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': address },
    body: JSON.stringify(botCheckToken === null ? {} : { botCheckToken }),
    ...cfOf(asn),
  });
  if (answer.status === 201) {
    const { chat } = (await answer.clone().json()) as { chat: { id: string; secret: string } };
    chats.set(chat.id, { secret: chat.secret, address, asn });
  }
  return answer;
}

/** The keeper of an ASN's text messages a day. */
export function keeper(name: string) {
  return gateEnv.ASN_KEEPER.getByName(name);
}

/** Starts a chat for `address` (of `asn`, when given) and says its id (it must be given). */
export async function openChat(address: string, asn?: number): Promise<string> {
  const answer = await startChat(address, TOKEN, asn);
  if (answer.status !== 201) {
    throw new Error(`Expected a chat for ${address}, got ${answer.status} ${await answer.text()}`);
  }
  return ((await answer.json()) as { chat: { id: string } }).chat.id;
}

/** The headers a chat is shown with: its secret, from the address it was given to. */
export function chatHeaders(chatId: string): Record<string, string> {
  const known = chats.get(chatId);
  return known
    ? { 'chat-secret': known.secret, 'cf-connecting-ip': known.address }
    : { 'cf-connecting-ip': '192.0.2.250' };
}

/** The headers that hand a chat to a call: its id and secret. */
export function handover(chatId: string): Record<string, string> {
  const known = chats.get(chatId);
  return known ? { 'chat-id': chatId, 'chat-secret': known.secret } : {};
}

/**
 * `POST /api/chats/{id}/messages`; the answer whole (its stream read to its end). A chat given
 * in this test is written to from the address and ASN it was given to.
 */
export function say(
  chatId: string,
  text: string,
  headers: Record<string, string> = chatHeaders(chatId),
): Promise<Response> {
  return api(`/api/chats/${chatId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ text }),
    ...cfOf(chats.get(chatId)?.asn),
  });
}

/** The desk a test's stub can reach by name (all of them, to empty between tests). */
export function desk(name: string) {
  return gateEnv.TEXT_DESK.getByName(name);
}

/** The name of the desk that serves a visitor at `address`, or null for no address. */
async function deskNameOf(address: string): Promise<string | null> {
  const visitor = await identify(
    new Request(ORIGIN, { headers: { 'cf-connecting-ip': address } }),
    gateEnv.GATE_VISITOR_SALT ?? '',
  );
  return visitor ? deskFor(visitor) : null;
}

/** The desk a visitor at `address` is served by. */
export async function deskOf(address: string) {
  const name = await deskNameOf(address);
  if (!name) throw new Error(`no visitor at ${address}`);
  return desk(name);
}

/** The desk of `address` falls idle (31 s on) and settles its grants at what its replies cost. */
export async function settleDeskOf(address: string): Promise<void> {
  advance(31);
  await runDurableObjectAlarm(await deskOf(address));
}
