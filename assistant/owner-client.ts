/**
 * What the owner's commands (`npm run court:report`, `npm run card:takedown`) share: the gate's
 * generated client with the owner's token, and their words for a missing token and a gate that
 * cannot be reached.
 */
import { createClient, createConfig } from '../generated/gate/client';

export const SET_ADMIN_TOKEN =
  'Set GATE_ADMIN_TOKEN to the token put on the Worker (`wrangler secret put GATE_ADMIN_TOKEN`); never as a VITE_ variable.';

export const TOKEN_REFUSED =
  'The gate refused GATE_ADMIN_TOKEN (HTTP 401): use the token put with `wrangler secret put GATE_ADMIN_TOKEN`.';

/** The gate's client at `origin`, authorised with the owner's `token`. */
export function ownerClient(origin: string, token: string, fetcher?: typeof fetch) {
  return createClient(
    createConfig({ baseUrl: origin, auth: () => token, ...(fetcher ? { fetch: fetcher } : {}) }),
  );
}

/** The gate at `origin` gave no answer: why, in a line (the client's error, or its cause). */
export function unreachable(origin: string, cause: unknown): string {
  const reason =
    cause instanceof Error
      ? cause.cause instanceof Error
        ? cause.cause.message
        : cause.message
      : String(cause);
  return `Cannot reach the gate at ${origin} (${reason}).`;
}
