// The demo's stand-in for Cloudflare Turnstile's siteverify (`POST /turnstile/v0/siteverify`),
// following Cloudflare's documented dummy secret keys.
import { send } from './stand-in-http.mjs';

/** Cloudflare's documented dummy Turnstile secret keys. */
export const TURNSTILE_TEST_SECRETS = {
  pass: '1x0000000000000000000000000000000AA',
  fail: '2x0000000000000000000000000000000AA',
  spent: '3x0000000000000000000000000000000AA',
};
/** The token Cloudflare's dummy site keys produce. */
export const TURNSTILE_DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {Buffer} body
 */
export async function siteverify(req, res, body) {
  let form;
  try {
    form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': req.headers['content-type'] ?? '' },
    }).formData();
  } catch {
    form = new FormData();
  }
  const secret = String(form.get('secret') ?? '');
  const token = String(form.get('response') ?? '');
  const failed = (/** @type {string[]} */ codes) =>
    send(res, 200, { success: false, 'error-codes': codes, messages: [] });
  if (!secret) return failed(['missing-input-secret']);
  if (!token) return failed(['missing-input-response']);
  if (secret === TURNSTILE_TEST_SECRETS.fail) return failed(['invalid-input-response']);
  if (secret === TURNSTILE_TEST_SECRETS.spent) return failed(['timeout-or-duplicate']);
  if (secret !== TURNSTILE_TEST_SECRETS.pass) return failed(['invalid-input-secret']);
  return send(res, 200, {
    success: true,
    challenge_ts: new Date().toISOString(),
    // The local site's host and the action the page's widget renders with, as Turnstile
    // would report them, so the gate's checks of both are exercised.
    hostname: 'localhost',
    'error-codes': [],
    action: 'start-call',
    cdata: '',
    metadata: { interactive: false },
  });
}
