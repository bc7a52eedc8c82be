/**
 * What the Worker decides before any Durable Object hop: a limiter per visitor at the edge
 * (the Workers Rate Limiting binding), ids and tokens that prove themselves (an HMAC with a key
 * drawn from the gate's salt), and refusals counted where they happen (Workers Analytics Engine)
 * rather than by a call to the court.
 */

const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC key for one purpose ('ticket', 'rating'), drawn from the gate's secret salt. */
function keyFor(env: Env, purpose: string): Promise<CryptoKey> {
  const salt = env.GATE_VISITOR_SALT ?? '';
  const name = `${purpose}\u0000${salt}`;
  let key = keys.get(name);
  if (!key) {
    key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(`pepa-gate:${purpose}:${salt}`),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    keys.set(name, key);
  }
  return key;
}

export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The proof of `message` for `purpose`: 128 bits of an HMAC, URL-safe. */
export async function prove(env: Env, purpose: string, message: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await keyFor(env, purpose),
    new TextEncoder().encode(message),
  );
  return base64url(new Uint8Array(mac).subarray(0, 16));
}

/** Whether `given` proves `message` for `purpose` (compared in constant time). */
export async function proves(
  env: Env,
  purpose: string,
  message: string,
  given: string | null | undefined,
): Promise<boolean> {
  if (!given || given.length > 64) return false;
  return sameSecret(given, await prove(env, purpose, message));
}

/**
 * Whether `given` is the secret `expected`, compared by the runtime in time that does not depend
 * on where they differ (only a length that differs answers sooner). An empty secret matches nothing.
 */
export function sameSecret(given: string, expected: string): boolean {
  if (!expected) return false;
  const encoder = new TextEncoder();
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
}

/**
 * The edge limiter: false when this key has made too many requests to the gate lately. Without
 * the binding (a configuration that omits it) every request passes on to the other checks.
 */
export async function withinEdgeLimit(env: Env, key: string): Promise<boolean> {
  if (!env.API_LIMITER) return true;
  const { success } = await env.API_LIMITER.limit({ key });
  return success;
}

/**
 * What a refused owner's token (at `/api/report` or a card's takedown) weighs on the edge
 * limiter, in requests: at 60 a window, a visitor guessing the token meets the limiter after six
 * guesses, and is held there for everything else they ask until the window passes. The owner's
 * commands send the right token once a run, and pay one request for it like anyone.
 */
export const REFUSED_TOKEN_WEIGHT = 10;

/**
 * Spends `requests` more of the edge limiter's allowance of `key` (a request that weighs more
 * than one). Without the binding there is nothing to spend.
 */
export async function spendEdgeLimit(env: Env, key: string, requests: number): Promise<void> {
  const limiter = env.API_LIMITER;
  if (!limiter) return;
  await Promise.all(Array.from({ length: requests }, () => limiter.limit({ key })));
}

/** A refusal decided in the Worker, counted without asking the court. */
export function countEdgeRefusal(env: Env, code: string, path: string): void {
  env.GATE_REFUSALS?.writeDataPoint({ blobs: [code, path], doubles: [1], indexes: [code] });
}

/** How long the Worker repeats the court's refusal of new calls without asking it again. */
export const COURT_REFUSAL_MEMORY_MS = 5000;

/**
 * The court's refusals of new calls that hold for every newcomer alike: the line past its wait
 * limit, the pace reached (until `reopensAt`), the day's budget spent.
 */
export type CourtWideCode = 'court-full' | 'court-resting' | 'court-closed';
const COURT_WIDE: ReadonlySet<string> = new Set<CourtWideCode>([
  'court-full',
  'court-resting',
  'court-closed',
]);

export interface CourtWideRefusal {
  code: CourtWideCode;
  retryAfterSeconds: number;
  reopensAt?: string;
}

/** The court's last court-wide refusal in this isolate, and when it was given. */
let courtRefusal: { at: number; refusal: CourtWideRefusal } | null = null;

/**
 * Notes a refusal of the court's for the next arrivals when it holds for all of them, and nothing
 * otherwise: a visitor's own limits are theirs alone.
 */
export function rememberCourtRefusal(
  refusal: { code: string; retryAfterSeconds?: number; reopensAt?: string },
  now: number,
): void {
  if (!COURT_WIDE.has(refusal.code)) return;
  courtRefusal = {
    at: now,
    refusal: {
      code: refusal.code as CourtWideCode,
      retryAfterSeconds: refusal.retryAfterSeconds ?? 60,
      ...(refusal.reopensAt ? { reopensAt: refusal.reopensAt } : {}),
    },
  };
}

/**
 * The court's court-wide refusal while it is fresh, its wait counted down from when it was given
 * (when Pepa is back stays the same moment): a crowd arriving at a full, resting or closed court
 * costs the court one request per isolate per moment.
 */
export function rememberedCourtRefusal(now: number): CourtWideRefusal | null {
  if (!courtRefusal || now < courtRefusal.at || now - courtRefusal.at >= COURT_REFUSAL_MEMORY_MS) {
    return null;
  }
  const { at, refusal } = courtRefusal;
  const elapsed = Math.floor((now - at) / 1000);
  return { ...refusal, retryAfterSeconds: Math.max(1, refusal.retryAfterSeconds - elapsed) };
}

/** Forgets the remembered refusal (a test's fresh court). */
export function forgetCourtRefusal(): void {
  courtRefusal = null;
}
