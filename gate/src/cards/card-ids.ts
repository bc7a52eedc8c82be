/**
 * A card's id proves itself, as a ticket's secret does: 16 random characters, then 16 of an HMAC
 * of them under the gate's salt. An id the gate did not make is known at once, with no storage read.
 */
import { base64url, prove, sameSecret } from '../floor/edge';

const HALF = 16;
const CARD_ID = /^[A-Za-z0-9_-]{32}$/;

async function seal(env: Env, nonce: string): Promise<string> {
  return (await prove(env, 'card', nonce)).slice(0, HALF);
}

export async function newCardId(env: Env): Promise<string> {
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(12)));
  return `${nonce}${await seal(env, nonce)}`;
}

/** Whether the gate made `id`; false for anything else, well formed or not. */
export async function isCardId(env: Env, id: string): Promise<boolean> {
  if (!CARD_ID.test(id)) return false;
  return sameSecret(id.slice(HALF), await seal(env, id.slice(0, HALF)));
}
