/**
 * A visitor's calls, as the tests drive them through the gate: starting one (admitted, or in
 * line with a ticket), checking in and leaving with the ticket, and rating the call afterwards.
 * The secrets and cookies the gate hands out are remembered, so a test shows them as a visitor's
 * page would.
 */
import { TOKEN } from './bench';
import { api, body } from './gate-fetch';
import type { Admitted, Waiting } from '../../generated/gate/types.gen';

/** The tickets given in this test: each one's secret and the address it was given to. */
const tickets = new Map<string, { secret: string; address: string }>();
/** The rating cookie each admitted call came with. */
const ratingCookies = new Map<string, string>();
/** The card cookie each admitted call came with, and the address it was given to. */
export const cardCookies = new Map<string, { cookie: string; address: string }>();

/** Forgets the tickets and cookies of the test before. */
export function forgetVisitorCalls(): void {
  tickets.clear();
  ratingCookies.clear();
  cardCookies.clear();
}

/** Notes the ticket or the rating cookie an answer to `address` carries. */
async function remember(answer: Response, address: string): Promise<void> {
  if (answer.status === 201) {
    const cookie = /pepa_rating=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
    const admitted = (await answer.clone().json()) as { call?: { id?: string } };
    if (cookie && admitted.call?.id) ratingCookies.set(admitted.call.id, cookie);
    const card = /pepa_card=([^;]+)/.exec(answer.headers.get('set-cookie') ?? '')?.[1];
    if (card && admitted.call?.id) cardCookies.set(admitted.call.id, { cookie: card, address });
  }
  if (answer.status === 200 || answer.status === 202) {
    const waiting = (await answer.clone().json()) as { ticket?: { id: string; secret: string } };
    if (waiting.ticket) {
      tickets.set(waiting.ticket.id, { secret: waiting.ticket.secret, address });
    }
  }
}

/** `POST /api/calls` from a visitor at `address`. */
export async function start(
  address: string,
  botCheckToken: string | null = TOKEN,
): Promise<Response> {
  const answer = await api('/api/calls', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': address },
    body: JSON.stringify(botCheckToken === null ? {} : { botCheckToken }),
  });
  await remember(answer, address);
  return answer;
}

/** The headers a ticket is shown with: its secret, from the address it was given to. */
export function ticketHeaders(ticketId: string): Record<string, string> {
  const known = tickets.get(ticketId);
  return known
    ? { 'ticket-secret': known.secret, 'cf-connecting-ip': known.address }
    : { 'cf-connecting-ip': '192.0.2.250' };
}

/** `POST /api/tickets/{id}`: the ticket checks in (its query says what the page asks). */
export async function checkIn(ticketId: string, query = ''): Promise<Response> {
  const headers = ticketHeaders(ticketId);
  const answer = await api(`/api/tickets/${ticketId}${query}`, { method: 'POST', headers });
  await remember(answer, headers['cf-connecting-ip'] ?? '');
  return answer;
}

/** `DELETE /api/tickets/{id}`: the ticket's visitor leaves the line. */
export function leave(ticketId: string): Promise<Response> {
  return api(`/api/tickets/${ticketId}`, { method: 'DELETE', headers: ticketHeaders(ticketId) });
}

/** `POST /api/ratings`, with the rating cookie of the call's admission unless told otherwise. */
export function rate(
  rating: Record<string, unknown>,
  { cookie, address = '192.0.2.251' }: { cookie?: string | null; address?: string } = {},
): Promise<Response> {
  const given =
    cookie === undefined
      ? typeof rating.callId === 'string'
        ? ratingCookies.get(rating.callId)
        : undefined
      : cookie;
  return api('/api/ratings', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'cf-connecting-ip': address,
      ...(given ? { cookie: `pepa_rating=${given}` } : {}),
    },
    body: JSON.stringify(rating),
  });
}

/** Starts a call for `address` and says its id (the visitor must be admitted at once). */
export async function admit(address: string): Promise<string> {
  const response = await start(address);
  if (response.status !== 201) {
    throw new Error(
      `Expected ${address} admitted, got ${response.status} ${await response.text()}`,
    );
  }
  return (await body<Admitted>(response)).call.id;
}

/** Starts a call for `address` that must wait; says its ticket. */
export async function queue(address: string): Promise<Waiting> {
  const response = await start(address);
  if (response.status !== 202) {
    throw new Error(`Expected ${address} in line, got ${response.status} ${await response.text()}`);
  }
  return body<Waiting>(response);
}
