// The stand-in provider's HTTP plumbing: a request's body, bounded, a JSON answer, and requests
// passed on to Prism as they came.
import { Agent, request as httpRequest } from 'node:http';

const MAX_BODY_BYTES = 1024 * 1024;
/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<Buffer>}
 */
export function readBody(req) {
  return new Promise((resolveBody, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    let size = 0;
    req.on('data', (/** @type {Buffer} */ chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolveBody(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
export function send(res, status, body, headers = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
};

/**
 * What Prism answered.
 * @typedef {{ status: number, headers: import('node:http').IncomingHttpHeaders, body: Buffer }} PrismAnswer
 */

/**
 * Passes requests on to the Prism at `prismUrl` over kept-alive connections (`agent`), and
 * relays its answers.
 * @param {string} prismUrl
 */
export function prismForwarder(prismUrl) {
  const prism = new URL(prismUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  /**
   * Forwards the request to Prism as it came; resolves Prism's status, headers and body.
   * @param {import('node:http').IncomingMessage} req
   * @param {Buffer} body
   * @returns {Promise<PrismAnswer>}
   */
  function forward(req, body, retried = false) {
    return new Promise((resolveForward, reject) => {
      const headers = { ...req.headers, host: prism.host };
      delete headers.connection;
      delete headers['content-length'];
      if (body.length > 0) headers['content-length'] = String(body.length);
      const out = httpRequest(
        {
          host: prism.hostname,
          port: prism.port,
          method: req.method,
          path: req.url,
          headers,
          agent,
        },
        (answer) => {
          readBody(answer).then(
            (text) =>
              resolveForward({
                status: answer.statusCode ?? 502,
                headers: answer.headers,
                body: text,
              }),
            reject,
          );
        },
      );
      out.once('error', (error) => {
        // A kept-alive connection Prism closed as it idled out, just as this request reused it:
        // nothing reached Prism, so it is sent once more on a fresh connection (Node's advice).
        const code = /** @type {NodeJS.ErrnoException} */ (error).code;
        if (!retried && out.reusedSocket && code === 'ECONNRESET') {
          forward(req, body, true).then(resolveForward, reject);
        } else reject(error);
      });
      out.end(body);
    });
  }

  /**
   * @param {import('node:http').ServerResponse} res
   * @param {PrismAnswer} answer
   */
  function relay(res, answer) {
    const headers = { ...answer.headers };
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    delete headers.connection;
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  }
  return { forward, relay, agent };
}
