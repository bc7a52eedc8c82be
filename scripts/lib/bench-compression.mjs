// @ts-check
// A compressing front for the local static server. Static hosts and CDNs send text as brotli or
// gzip; Lighthouse's simulated throttling charges the bytes that actually cross the wire, so an
// uncompressed local server would measure a slower page than visitors get.
import { readdir } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|manifest\+json|xml)|image\/svg\+xml)/;

/**
 * Picks the encoding a CDN would send for this Accept-Encoding header.
 * @param {string | undefined} acceptEncoding
 * @returns {'br' | 'gzip' | null}
 */
export function chooseEncoding(acceptEncoding = '') {
  const accepted = acceptEncoding.split(',').map((part) => part.trim().split(';')[0]);
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return null;
}

/**
 * Forwards every request to `upstream` and compresses text answers. The site does not change
 * while the benchmark runs, so each compressed body is computed once.
 * @param {{ upstream: string, host?: string }} options
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startCompressingProxy({ upstream, host = '127.0.0.1' }) {
  /** @type {Map<string, Buffer>} */
  const cache = new Map();
  const server = createServer((req, res) => {
    const forward = request(
      new URL(req.url ?? '/', upstream),
      { method: req.method, headers: { ...req.headers, 'accept-encoding': 'identity' } },
      (answer) => {
        /** @type {Buffer[]} */
        const chunks = [];
        answer.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
        answer.on('end', () => {
          /** @type {Buffer} */
          let body = Buffer.concat(chunks);
          const headers = { ...answer.headers };
          const encoding = chooseEncoding(req.headers['accept-encoding']);
          if (
            encoding &&
            req.method === 'GET' &&
            COMPRESSIBLE.test(headers['content-type'] ?? '')
          ) {
            const key = `${encoding} ${answer.statusCode} ${req.url}`;
            let compressed = cache.get(key);
            if (!compressed) {
              compressed =
                encoding === 'br'
                  ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
                  : gzipSync(body, { level: 9 });
              cache.set(key, compressed);
            }
            body = compressed;
            headers['content-encoding'] = encoding;
            headers.vary = 'Accept-Encoding';
          }
          if (req.method !== 'HEAD') headers['content-length'] = String(body.length);
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(req.method === 'HEAD' ? undefined : body);
        });
      },
    );
    forward.on('error', (error) => {
      res.writeHead(502, { 'Content-Type': 'text/plain' }).end(String(error));
    });
    req.pipe(forward);
  });
  /** @type {Promise<void>} */
  const listening = new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolveListen);
  });
  await listening;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

/**
 * Asks the proxy once for every file of the site, with each encoding it serves, so the measured
 * runs get compressed bodies from its cache. A CDN serves its cache too; compressing a 130 KB page
 * at brotli's highest quality on the first request would otherwise show up as server time in the
 * first Lighthouse run only.
 * @param {string} url the proxy's URL
 * @param {string} siteDir the folder the upstream server serves
 */
export async function primeCompressedBodies(url, siteDir) {
  const paths = ['/'];
  for (const entry of await readdir(siteDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    paths.push(`/${relative(siteDir, join(entry.parentPath, entry.name)).split(sep).join('/')}`);
  }
  for (const path of paths) {
    for (const encoding of ['br', 'gzip']) {
      const answer = await fetch(new URL(path, url), { headers: { 'accept-encoding': encoding } });
      await answer.arrayBuffer();
    }
  }
}
