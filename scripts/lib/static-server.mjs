// A small static file server for the built site: serves dist/ with the headers listed in
// dist/_headers (the format static hosts read) and answers unknown paths with 404.html and a 404.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest\+json)|image\/svg\+xml)/;

/** @type {Record<string, string>} */
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
};

/**
 * Parses the `_headers` format: a path pattern on its own line, then indented `Name: value`
 * lines. A trailing `*` in the pattern matches any suffix.
 * @param {string} text
 * @returns {{ pattern: string, headers: [string, string][] }[]}
 */
export function parseHeadersFile(text) {
  /** @type {{ pattern: string, headers: [string, string][] }[]} */
  const rules = [];
  /** @type {{ pattern: string, headers: [string, string][] } | null} */
  let current = null;
  for (const raw of text.split(/\r?\n/)) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      current = { pattern: raw.trim(), headers: [] };
      rules.push(current);
      continue;
    }
    const colon = raw.indexOf(':');
    if (current && colon > 0) {
      current.headers.push([raw.slice(0, colon).trim(), raw.slice(colon + 1).trim()]);
    }
  }
  return rules;
}

/**
 * @param {string} pattern
 * @param {string} path
 */
function matches(pattern, path) {
  return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : pattern === path;
}

/**
 * @param {{ root: string, port?: number, host?: string }} options
 * @returns {Promise<{ url: string, port: number, close(): Promise<void> }>}
 */
export async function startStaticServer({ root, port = 0, host = '127.0.0.1' }) {
  const base = resolve(root);
  /** @type {ReturnType<typeof parseHeadersFile>} */
  let rules = [];
  try {
    rules = parseHeadersFile(await readFile(join(base, '_headers'), 'utf8'));
  } catch {
    rules = [];
  }

  /**
   * @param {string} pathname
   * @returns {Promise<string | null>}
   */
  async function fileFor(pathname) {
    const candidates = pathname.endsWith('/')
      ? [join(pathname, 'index.html')]
      : [pathname, `${pathname}.html`];
    for (const candidate of candidates) {
      const full = normalize(join(base, candidate));
      if (!full.startsWith(base)) return null;
      try {
        if ((await stat(full)).isFile()) return full;
      } catch {
        // not there: try the next candidate
      }
    }
    return null;
  }

  // Compressed bodies, made once per file and encoding, as a static host or CDN would serve them.
  /** @type {Map<string, Buffer>} */
  const compressed = new Map();
  /**
   * @param {string} file
   * @param {Buffer} body
   * @param {string} acceptEncoding
   * @returns {{ encoding: 'br' | 'gzip', body: Buffer } | null}
   */
  function encode(file, body, acceptEncoding) {
    const encoding = /\bbr\b/.test(acceptEncoding)
      ? 'br'
      : /\bgzip\b/.test(acceptEncoding)
        ? 'gzip'
        : null;
    if (!encoding) return null;
    const key = `${encoding}:${file}`;
    let encoded = compressed.get(key);
    if (!encoded) {
      encoded =
        encoding === 'br'
          ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
          : gzipSync(body, { level: 9 });
      compressed.set(key, encoded);
    }
    return { encoding, body: encoded };
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const pathname = decodeURIComponent(url.pathname);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' }).end();
        return;
      }
      const found = pathname === '/_headers' ? null : await fileFor(pathname);
      const file = found ?? join(base, '404.html');
      const body = await readFile(file);
      const contentType = TYPES[extname(file)] ?? 'application/octet-stream';
      /** @type {Record<string, string>} */
      const headers = { 'Content-Type': contentType };
      for (const rule of rules) {
        if (matches(rule.pattern, pathname)) {
          for (const [name, value] of rule.headers) headers[name] = value;
        }
      }
      if (pathname.startsWith('/assets/')) {
        headers['Cache-Control'] = 'public, max-age=31536000, immutable';
      }
      /** @type {Buffer} */
      let payload = body;
      if (COMPRESSIBLE.test(headers['Content-Type'] ?? contentType)) {
        headers.Vary = 'Accept-Encoding';
        const encoded = encode(file, body, String(req.headers['accept-encoding'] ?? ''));
        if (encoded) {
          headers['Content-Encoding'] = encoded.encoding;
          payload = encoded.body;
        }
      }
      headers['Content-Length'] = String(payload.length);
      res.writeHead(found ? 200 : 404, headers);
      res.end(req.method === 'HEAD' ? undefined : payload);
    } catch (error) {
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
    }
  });

  await /** @type {Promise<void>} */ (
    new Promise((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolveListen());
    })
  );
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    port: actualPort,
    close: () =>
      /** @type {Promise<void>} */ (
        new Promise((resolveClose) => {
          server.closeAllConnections?.();
          server.close(() => resolveClose());
        })
      ),
  };
}
