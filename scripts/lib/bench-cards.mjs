// @ts-check
// Quote cards, measured on the local stack (the Worker in workerd, the stand-in provider): the
// time to make a card (its render) on a fresh Worker and on one that drew a card before, the
// PNG's bytes, the share page's time to first byte uncached and from the Worker's cache, and the
// Worker's bundle with its WebAssembly against the Workers plans' size limits.
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startCourtStack } from './court-stack.mjs';
import { findFreePort } from './prism.mjs';
import { log, median, ms, spread } from './bench-table.mjs';

const root = resolve(import.meta.dirname, '..', '..');
/** Fresh Workers started, a card made on each: the medians are of this many. */
export const CARD_ROUNDS = 5;
/** The Workers plans' limits on a Worker's size after compression (gzip). */
const FREE_PLAN_BYTES = 3 * 1024 * 1024;
const PAID_PLAN_BYTES = 10 * 1024 * 1024;

const LINES = [
  'Ribbit, darling! Welcome to the Royal Frog Court.',
  'In my court every frog is royalty, and the ballroom never closes.',
  'Come dance on the lily pads with me; the chandeliers are made of morning dew.',
];

/**
 * @param {string} url
 * @param {RequestInit} [init]
 * @returns {Promise<{ response: Response, firstByteMs: number }>}
 */
async function timed(url, init) {
  const started = performance.now();
  const response = await fetch(url, init);
  const firstByteMs = performance.now() - started;
  return { response, firstByteMs };
}

/**
 * A call admitted on the local gate, Pepa's remarks recorded by the stand-in as the room says them.
 * @param {string} siteUrl
 * @param {string} standInUrl
 */
async function callWithRemarks(siteUrl, standInUrl) {
  const started = await fetch(`${siteUrl}/api/calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ botCheckToken: 'XXXX.DUMMY.TOKEN.XXXX' }),
  });
  if (started.status !== 201) throw new Error(`the gate admitted no call (${started.status})`);
  const cookie = /pepa_card=[^;]+/.exec(started.headers.get('set-cookie') ?? '')?.[0];
  const { call } = /** @type {{ call: { id: string, webCallUrl: string } }} */ (
    await started.json()
  );
  if (!cookie) throw new Error('the admitted call came without its card cookie');
  for (const [n, message] of LINES.entries()) {
    const said = await fetch(`${standInUrl}/__demo/rooms/said`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        roomUrl: call.webCallUrl,
        role: 'bot',
        message,
        time: Date.now() + n,
      }),
    });
    if (said.status !== 204) throw new Error(`the stand-in recorded no remark (${said.status})`);
  }
  return { id: call.id, cookie };
}

/**
 * One fresh Worker: its first card, a later one, the same card again, and the share page.
 * @param {string} assetsDir
 */
async function round(assetsDir) {
  const stack = await startCourtStack({
    sitePort: await findFreePort(),
    mockPort: await findFreePort(),
    assetsDir,
    quiet: true,
  });
  try {
    const call = await callWithRemarks(stack.url, stack.standInUrl);
    const make = async (/** @type {number} */ remark) => {
      const { response, firstByteMs } = await timed(`${stack.url}/api/cards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: call.cookie },
        body: JSON.stringify({ from: 'call', conversationId: call.id, remark }),
      });
      const card = await response.json();
      if (response.status !== 201 && response.status !== 200) {
        throw new Error(`no card (${response.status} ${card.detail ?? card.code})`);
      }
      return { card, ms: firstByteMs, status: response.status };
    };
    const first = await make(1);
    const later = await make(2);
    const again = await make(1);
    if (!first.card.drawn || !later.card.drawn) throw new Error('a card was not drawn');
    const image = await fetch(first.card.imageUrl);
    const png = new Uint8Array(await image.arrayBuffer());
    const uncached = await timed(first.card.pageUrl);
    await uncached.response.arrayBuffer();
    const cached = await timed(first.card.pageUrl);
    await cached.response.arrayBuffer();
    return {
      firstMs: first.ms,
      laterMs: later.ms,
      madeBeforeMs: again.ms,
      pngBytes: png.byteLength,
      pageUncachedMs: uncached.firstByteMs,
      pageCachedMs: cached.firstByteMs,
    };
  } finally {
    await stack.stop();
  }
}

/** The Worker as `wrangler deploy` would upload it: each module's bytes, raw and gzipped. */
export function workerBundle() {
  const folder = mkdtempSync(join(tmpdir(), 'pepa-bundle-'));
  try {
    const site = join(folder, 'site');
    const out = join(folder, 'out');
    // wrangler wants an assets folder; the site's bytes are not the Worker's.
    writeSite(site);
    const wrangler = resolve(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
    const args = ['deploy', '-c', 'gate/wrangler.jsonc', '--assets', site, '--dry-run'];
    execFileSync(process.execPath, [wrangler, ...args, '--outdir', out], {
      cwd: root,
      stdio: 'ignore',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    });
    const modules = readdirSync(out).filter(
      (name) => !name.endsWith('.map') && name !== 'README.md',
    );
    let raw = 0;
    let gzip = 0;
    let wasm = 0;
    for (const name of modules) {
      const bytes = readFileSync(join(out, name));
      raw += statSync(join(out, name)).size;
      gzip += gzipSync(bytes, { level: 9 }).byteLength;
      if (name.endsWith('.wasm')) wasm += bytes.byteLength;
    }
    return { raw, gzip, wasm, modules: modules.length };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** @param {string} folder */
function writeSite(folder) {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'index.html'), '<!doctype html><title>bench</title>');
}

/**
 * @param {{ table: ReturnType<typeof import('./bench-table.mjs').createBenchTable> }} options
 */
export async function measureCards({ table }) {
  const assetsDir = mkdtempSync(join(tmpdir(), 'pepa-cards-site-'));
  writeSite(assetsDir);
  /** @type {Awaited<ReturnType<typeof round>>[]} */
  const rounds = [];
  try {
    for (let n = 0; n < CARD_ROUNDS; n += 1) {
      const figures = await round(assetsDir);
      rounds.push(figures);
      log(
        `cards ${n + 1}/${CARD_ROUNDS}: first ${ms(figures.firstMs)}, later ${ms(figures.laterMs)}, ` +
          `made before ${ms(figures.madeBeforeMs)}, page ${ms(figures.pageUncachedMs)} / ${ms(figures.pageCachedMs)} cached`,
      );
    }
  } finally {
    rmSync(assetsDir, { recursive: true, force: true });
  }
  const pick = (/** @type {(r: (typeof rounds)[number]) => number} */ get) => rounds.map(get);
  table.row(
    'card made, first on a fresh Worker (WebAssembly instantiated)',
    spread(
      pick((r) => r.firstMs),
      ms,
    ),
    '—',
    'info',
  );
  table.row(
    'card made, later (a card drawn before)',
    spread(
      pick((r) => r.laterMs),
      ms,
    ),
    '—',
    'info',
  );
  table.row(
    'card asked for again (no render: its render time is the difference)',
    spread(
      pick((r) => r.madeBeforeMs),
      ms,
    ),
    '—',
    'info',
  );
  const bytes = median(pick((r) => r.pngBytes));
  table.row(
    'card PNG, 1200×630',
    `${(bytes / 1024).toFixed(0)} KiB`,
    '< 5 MB (X)',
    bytes < 5 * 1024 * 1024 ? 'pass' : 'FAIL',
  );
  table.row(
    'share page, first byte uncached',
    spread(
      pick((r) => r.pageUncachedMs),
      ms,
    ),
    '—',
    'info',
  );
  table.row(
    "share page, first byte from the Worker's cache",
    spread(
      pick((r) => r.pageCachedMs),
      ms,
    ),
    '—',
    'info',
  );
  const bundle = workerBundle();
  const kib = (/** @type {number} */ value) => `${(value / 1024).toFixed(0)} KiB`;
  table.row(
    'Worker bundle with its WebAssembly (raw / gzip)',
    `${kib(bundle.raw)} / ${kib(bundle.gzip)} (WebAssembly ${kib(bundle.wasm)} raw, ${bundle.modules} modules)`,
    `gzip ≤ ${kib(FREE_PLAN_BYTES)} (Free), ≤ ${kib(PAID_PLAN_BYTES)} (Paid)`,
    bundle.gzip <= FREE_PLAN_BYTES ? 'pass' : bundle.gzip <= PAID_PLAN_BYTES ? 'info' : 'FAIL',
  );
}
