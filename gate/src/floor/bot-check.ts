/**
 * The bot check: a Turnstile token verified with Cloudflare's siteverify before any ticket. It
 * fails closed: no answer, a slow answer or an unreadable one is not a pass.
 */
import { siteHosts } from './config';
import { countEdgeRefusal } from './edge';
import { problem } from './problem';

export type BotCheck =
  { ok: true } | { ok: false; reason: 'failed' | 'unavailable'; detail: string };

export const SITEVERIFY_TIMEOUT_MS = 5000;

/** The action the page's widget renders with: a token solved for anything else is refused. */
export const WIDGET_ACTION = 'start-call';

export async function verifyBotCheck(
  token: string,
  {
    secret,
    remoteIp,
    url,
    hostnames,
  }: {
    secret: string;
    remoteIp: string | null;
    /** Cloudflare's siteverify, as wrangler.jsonc `TURNSTILE_VERIFY_URL` names it. */
    url: string;
    /** The site's hosts: a token solved on any other page is not for this gate. */
    hostnames: readonly string[];
  },
): Promise<BotCheck> {
  const form = new FormData();
  form.set('secret', secret);
  form.set('response', token);
  if (remoteIp) form.set('remoteip', remoteIp);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(SITEVERIFY_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, reason: 'unavailable', detail: `siteverify: ${String(error)}` };
  }
  if (!response.ok) {
    return { ok: false, reason: 'unavailable', detail: `siteverify answered ${response.status}` };
  }
  let outcome: unknown;
  try {
    outcome = await response.json();
  } catch {
    return { ok: false, reason: 'unavailable', detail: 'siteverify answered something not JSON' };
  }
  const record =
    typeof outcome === 'object' && outcome !== null ? (outcome as Record<string, unknown>) : {};
  const codes = Array.isArray(record['error-codes']) ? record['error-codes'].map(String) : [];
  if (record.success === true) {
    const hostname = typeof record.hostname === 'string' ? record.hostname.toLowerCase() : '';
    if (!hostnames.includes(hostname)) {
      return { ok: false, reason: 'failed', detail: `siteverify: solved on ${hostname || '?'}` };
    }
    if (record.action !== WIDGET_ACTION) {
      return { ok: false, reason: 'failed', detail: 'siteverify: solved for another action' };
    }
    return { ok: true };
  }
  // Cloudflare's own fault, not the visitor's: the gate is unavailable, the visitor not refused.
  if (codes.includes('internal-error')) {
    return { ok: false, reason: 'unavailable', detail: 'siteverify: internal-error' };
  }
  return {
    ok: false,
    reason: 'failed',
    detail: `siteverify refused the token (${codes.join(', ') || 'no reason'})`,
  };
}

/**
 * The bot check of a start, a call's or a chat's: null when it passed, else the answer to give
 * (a failed check, or 503 when siteverify could not say), counted under the start's `path`.
 */
export async function botCheckRefusal(
  request: Request,
  env: Env,
  token: string,
  path: string,
): Promise<Response | null> {
  const check = await verifyBotCheck(token, {
    secret: env.TURNSTILE_SECRET_KEY ?? '',
    remoteIp: request.headers.get('cf-connecting-ip'),
    url: env.TURNSTILE_VERIFY_URL,
    hostnames: siteHosts(env, request),
  });
  if (check.ok) return null;
  if (check.reason === 'unavailable') {
    console.error(`gate: ${check.detail}`);
    countEdgeRefusal(env, 'gate-unavailable', path);
    return problem('gate-unavailable', { retryAfterSeconds: 10 });
  }
  countEdgeRefusal(env, 'bot-check-failed', path);
  return problem('bot-check-failed');
}
