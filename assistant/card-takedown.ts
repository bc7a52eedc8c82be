/**
 * `npm run card:takedown -- <card address>`: the owner takes a quote card down (`DELETE
 * /api/cards/{id}` with `GATE_ADMIN_TOKEN`, through the gate's generated client). Its page then
 * answers 410, its image is deleted, and the Worker's cached copies are purged.
 */
import { createClient, createConfig } from '../generated/gate/client';
import { takeDownCard } from '../generated/gate/sdk.gen';
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
  if (!token) {
    throw new TakedownError(
      'Set GATE_ADMIN_TOKEN to the token put on the Worker (`wrangler secret put GATE_ADMIN_TOKEN`); never as a VITE_ variable.',
    );
  }
  const client = createClient(
    createConfig({
      baseUrl: origin,
      auth: () => token,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
  );
  const answer = await takeDownCard({ client, path: { cardId: id } }).catch((error: unknown) => ({
    response: undefined,
    error,
  }));
  if (!answer.response) {
    const cause = answer.error;
    const reason =
      cause instanceof Error
        ? cause.cause instanceof Error
          ? cause.cause.message
          : cause.message
        : String(cause);
    throw new TakedownError(`Cannot reach the gate at ${origin} (${reason}).`);
  }
  const status = answer.response.status;
  if (status === 204) return `Card ${id} is down: its page answers 410 and its image is gone.`;
  if (status === 401) {
    throw new TakedownError(
      'The gate refused GATE_ADMIN_TOKEN (HTTP 401): use the token put with `wrangler secret put GATE_ADMIN_TOKEN`.',
    );
  }
  if (status === 404)
    throw new TakedownError(`The gate has no card ${id} (already down, or never made).`);
  throw new TakedownError(`The gate answered HTTP ${status}; try again in a minute.`);
}
