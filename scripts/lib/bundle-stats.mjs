// @ts-check
// Byte sizes of a built site: what index.html loads up front, and each chunk loaded on demand.
import { readFile, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** 1 KB here is 1024 bytes. */
export const KB = 1024;

/** Budgets in brotli bytes. */
export const BYTE_BUDGETS = {
  initialJs: 70 * KB,
  onDemandChunk: 60 * KB,
  // The page itself, which carries the first screen's styles and its display face. On
  // Lighthouse's mobile network (150 ms round trip, 1.6 Mbps) every 14.6 KB of a page is about
  // 75 ms of download on top of the round trips; the first screen's bytes are held to about what
  // two round trips carry, so the title comes with the first flights, not after a font's worth of
  // bytes. The text face is a file fetched beside it (scripts/lib/font-subsets.mjs). 28 KB
  // (28,672 B) so it cannot regrow; the figure moves by tens of bytes from one build to the next
  // with the entry's content hash alone.
  page: 28 * KB,
};

/**
 * @param {Buffer} buffer
 * @returns {Sizes}
 */
export function sizes(buffer) {
  return {
    raw: buffer.length,
    gzip: gzipSync(buffer, { level: 9 }).length,
    brotli: brotliCompressSync(buffer, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length,
  };
}

/** @typedef {{ raw: number, gzip: number, brotli: number }} Sizes */

/**
 * @param {Sizes[]} list
 * @returns {Sizes}
 */
function sum(list) {
  return list.reduce(
    (total, item) => ({
      raw: total.raw + item.raw,
      gzip: total.gzip + item.gzip,
      brotli: total.brotli + item.brotli,
    }),
    { raw: 0, gzip: 0, brotli: 0 },
  );
}

/**
 * What an HTML page loads up front: the URLs of its module scripts (including the entry that the
 * start-after-paint script adds, named by its `data-entry`), module preloads and stylesheets, the
 * text of the stylesheets it carries inline, and the fonts it carries for its font-installing script.
 * @param {string} html
 */
export function initialAssets(html) {
  /** @type {Set<string>} */
  const js = new Set();
  /** @type {Set<string>} */
  const css = new Set();
  // Every pattern's groups below are required: a match always has them (the defaults never apply).
  for (const [, src = ''] of html.matchAll(/<script[^>]*\s(?:src|data-entry)="([^"]+)"/g)) {
    js.add(src);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const href = /\shref="([^"]+)"/.exec(tag)?.[1];
    if (!href) continue;
    if (/rel="modulepreload"/.test(tag)) js.add(href);
    if (/rel="stylesheet"/.test(tag)) css.add(href);
  }
  const inlineCss = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, text = '']) => text);
  // The fonts the page installs itself (scripts/lib/install-fonts.mjs), as the page carries them.
  const inlineFonts = [...html.matchAll(/<script data-faces="([^"]*)"/g)].map(
    ([, text = '']) => text,
  );
  return { js: [...js], css: [...css], inlineCss, inlineFonts };
}

/**
 * A label for an on-demand chunk from its file name (`name-hash.js`).
 * @param {string} file
 */
export function chunkLabel(file) {
  return basename(file).replace(/-[\w-]{8}\.(js|css)$/, '.$1');
}

/**
 * @param {string} distDir
 */
export async function analyseBuild(distDir) {
  const html = await readFile(join(distDir, 'index.html'), 'utf8');
  const initial = initialAssets(html);
  /** @param {string} url */
  const load = async (url) => ({
    file: url.replace(/^\//, ''),
    ...sizes(await readFile(join(distDir, url.replace(/^\//, '')))),
  });
  const initialJs = await Promise.all(initial.js.map(load));
  const initialCss = [
    ...(await Promise.all(initial.css.map(load))),
    ...initial.inlineCss.map((text) => ({
      file: 'index.html <style>',
      ...sizes(Buffer.from(text)),
    })),
  ];
  const initialFonts = initial.inlineFonts.map((text) => ({
    file: 'index.html fonts',
    ...sizes(Buffer.from(text)),
  }));
  const loadedUp = new Set([...initial.js, ...initial.css].map((url) => url.replace(/^\//, '')));
  const assets = await readdir(join(distDir, 'assets'));
  const onDemand = await Promise.all(
    assets
      .filter((name) => /\.(js|css)$/.test(name) && !loadedUp.has(`assets/${name}`))
      .sort()
      .map((name) => load(`assets/${name}`)),
  );
  return {
    page: sizes(Buffer.from(html)),
    initialJs: { files: initialJs, total: sum(initialJs) },
    initialCss: { files: initialCss, total: sum(initialCss) },
    initialFonts: { files: initialFonts, total: sum(initialFonts) },
    onDemand: onDemand.map((chunk) => ({ ...chunk, label: chunkLabel(chunk.file) })),
  };
}

/**
 * The byte figures `npm run budget` and `npm run bench` both report, in the order they print them:
 * each with its sizes and, where one is set, its brotli budget in bytes (`null`: reported only).
 * @param {Awaited<ReturnType<typeof analyseBuild>>} stats
 * @returns {{ name: string, size: { raw: number, gzip: number, brotli: number },
 *   budget: number | null, onDemand: boolean }[]}
 */
export function byteRows(stats) {
  return [
    {
      name: 'index.html (two round trips on a new connection)',
      size: stats.page,
      budget: BYTE_BUDGETS.page,
      onDemand: false,
    },
    {
      name: 'initial JS (index.html)',
      size: stats.initialJs.total,
      budget: BYTE_BUDGETS.initialJs,
      onDemand: false,
    },
    {
      name: 'initial CSS (index.html)',
      size: stats.initialCss.total,
      budget: null,
      onDemand: false,
    },
    {
      name: 'fonts carried in index.html',
      size: stats.initialFonts.total,
      budget: null,
      onDemand: false,
    },
    ...stats.onDemand.map((chunk) => ({
      name: `on demand: ${chunk.label}`,
      size: chunk,
      budget: chunk.file.endsWith('.css') ? null : BYTE_BUDGETS.onDemandChunk,
      onDemand: true,
    })),
  ];
}

/** @param {number} bytes */
export function formatKb(bytes) {
  return `${(bytes / KB).toFixed(1)} KB`;
}

/**
 * Renders rows as a Markdown table.
 * @param {string[]} header
 * @param {string[][]} rows
 */
export function markdownTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  /** @param {string[]} cells */
  const line = (cells) =>
    `| ${cells.map((c, i) => (c ?? '').padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
