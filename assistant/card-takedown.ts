/**
 * `npm run card:takedown -- <card address>`: the owner takes a quote card down (`DELETE
 * /api/cards/{id}` with `GATE_ADMIN_TOKEN`, through the gate's generated client). Its page then
 * answers 410, its image is deleted, and the Worker's cached copies are purged.
 */
import { takeDownCard } from '../generated/gate/sdk.gen';
import { ownerClient, SET_ADMIN_TOKEN, TOKEN_REFUSED, unreachable } from './owner-client';
import { gateOrigin } from './sync';

/** Thrown with a one-line message the script prints as is. */
export class TakedownError extends Error {
  override name = 'TakedownError';
}

/** A card's share address, `https://site/q/{id}` (its image's address too), as origin and id. */
export function cardAddress(value: string | undefined): { origin: string; id: string } {
  const raw = value?.trim();
  if (!raw) {
    throw new TakedownError(
      "Give the card's share address, e.g. npm run card:takedown -- https://pepa.example/q/AbC…",
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TakedownError(`"${raw}" is not an address: give the card's share address.`);
  }
  const id = /^\/q\/([A-Za-z0-9_-]{16,64})(?:\/card\.png)?\/?$/.exec(url.pathname)?.[1];
  if (!id) throw new TakedownError(`"${raw}" is not a card's share address (…/q/{id}).`);
  const origin = gateOrigin(url.origin);
  if ('problem' in origin)
    throw new TakedownError(`${origin.problem.replace('GATE_URL', 'The address')}.`);
  return { origin: origin.origin, id };
}

export interface TakedownOptions {
  address: string | undefined;
  /** `GATE_ADMIN_TOKEN`, as put on the Worker. */
  token: string | undefined;
  fetch?: typeof fetch;
}

/** Takes the card down; says what was done, or throws a {@link TakedownError} saying what to do. */
export async function takeDown(options: TakedownOptions): Promise<string> {
  const { origin, id } = cardAddress(options.address);
  const token = options.token?.trim();
  if (!token) throw new TakedownError(SET_ADMIN_TOKEN);
  const client = ownerClient(origin, token, options.fetch);
  const answer = await takeDownCard({ client, path: { cardId: id } }).catch((error: unknown) => ({
    response: undefined,
    error,
  }));
  // The client answers a network failure with the error and no response.
  if (!answer.response) throw new TakedownError(unreachable(origin, answer.error));
  const status = answer.response.status;
  if (status === 204) return `Card ${id} is down: its page answers 410 and its image is gone.`;
  if (status === 401) throw new TakedownError(TOKEN_REFUSED);
  if (status === 404)
    throw new TakedownError(`The gate has no card ${id} (already down, or never made).`);
  throw new TakedownError(`The gate answered HTTP ${status}; try again in a minute.`);
}
