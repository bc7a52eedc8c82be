/**
 * `npm run card:takedown -- <card address>`: the owner takes a quote card down (`DELETE
 * /api/cards/{id}` with `GATE_ADMIN_TOKEN`, through the gate's generated client). Its words,
 * folded as every card check reads them, are never carded again; its page, and every other card
 * of the same words, then answers 410, their images are deleted and the Worker's cached copies
 * purged. `npm run card:takedown -- --words "…"` takes words down before any card of them is
 * made (`POST /api/card-takedowns` on GATE_URL). Either way it says what it blocked.
 */
import { takeDownCard, takeDownWords } from '../generated/gate/sdk.gen';
import type { Takedown } from '../generated/gate/types.gen';
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
  /** A card's share address, or undefined when `words` are given. */
  address: string | undefined;
  /** Words to take down with no card named (`--words`), on the gate at `gateUrl`. */
  words?: string | undefined;
  /** `GATE_URL`, the site's public origin: where words are taken down. */
  gateUrl?: string | undefined;
  /** `GATE_ADMIN_TOKEN`, as put on the Worker. */
  token: string | undefined;
  fetch?: typeof fetch;
}

/** The command line: a card's address, or `--words "…"` (or `--words=…`). */
export function takedownArgs(argv: readonly string[]): { address?: string; words?: string } {
  const at = argv.findIndex((arg) => arg === '--words' || arg.startsWith('--words='));
  if (at < 0) return { ...(argv[0] === undefined ? {} : { address: argv[0] }) };
  const flag = argv[at] ?? '';
  const words = flag.includes('=') ? flag.slice(flag.indexOf('=') + 1) : argv[at + 1];
  if (!words?.trim()) throw new TakedownError('Give the words to take down: --words "…".');
  return { words };
}

/** What a takedown blocked, in the owner's words. */
function blocked(taken: Takedown, named?: string): string {
  const others = taken.cards.filter((id) => id !== named);
  const cards = named
    ? `Card ${named} is down: its page answers 410 and its image is gone.`
    : others.length === 0
      ? 'No card carried them yet.'
      : '';
  const more =
    others.length === 0
      ? ''
      : `${named ? ' ' : ''}${others.length} ${named ? 'other ' : ''}card${others.length === 1 ? '' : 's'} of the same words, a near relative or the same address ${others.length === 1 ? 'is' : 'are'} down too: ${others.join(', ')}.`;
  const relatives = taken.nearRelatives
    ? 'Near relatives (the same words with one word or number changed) are blocked too.'
    : 'Near relatives are not blocked: fewer than four words, so only these words are.';
  const tokens =
    taken.tokens.length === 0
      ? []
      : [`Addresses, handles and links never carded again: ${taken.tokens.join(', ')}`];
  return [
    `${cards}${more}`,
    `Blocked words (folded), never carded again: "${taken.words}"`,
    relatives,
    ...tokens,
  ].join('\n');
}

/** Takes the card (or the words) down; says what was blocked, or throws a {@link TakedownError}. */
export async function takeDown(options: TakedownOptions): Promise<string> {
  const words = options.words?.trim();
  const target = words ? wordsTarget(options.gateUrl) : cardAddress(options.address);
  const token = options.token?.trim();
  if (!token) throw new TakedownError(SET_ADMIN_TOKEN);
  const client = ownerClient(target.origin, token, options.fetch);
  const asked = words
    ? takeDownWords({ client, body: { words } })
    : takeDownCard({ client, path: { cardId: target.id ?? '' } });
  const answer = await asked.catch((error: unknown) => ({
    response: undefined,
    data: undefined,
    error,
  }));
  // The client answers a network failure with the error and no response.
  if (!answer.response) throw new TakedownError(unreachable(target.origin, answer.error));
  const status = answer.response.status;
  if (status === 200 && answer.data) return blocked(answer.data, target.id);
  if (status === 401) throw new TakedownError(TOKEN_REFUSED);
  if (status === 404 && target.id) {
    throw new TakedownError(`The gate has no card ${target.id} (already down, or never made).`);
  }
  if (status === 400)
    throw new TakedownError('The gate found nothing to take down in those words.');
  throw new TakedownError(`The gate answered HTTP ${status}; try again in a minute.`);
}

/** Where words are taken down: the gate at GATE_URL. */
function wordsTarget(gateUrl: string | undefined): { origin: string; id?: string } {
  if (!gateUrl?.trim()) {
    throw new TakedownError("Set GATE_URL to the site's public origin to take words down.");
  }
  const origin = gateOrigin(gateUrl);
  if ('problem' in origin) throw new TakedownError(`${origin.problem}.`);
  return { origin: origin.origin };
}
