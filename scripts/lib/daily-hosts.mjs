// @ts-check
// The hosts the installed @daily-co/daily-js loads scripts from or connects to, read out of the
// package itself, and a check that a Content-Security-Policy allows each of them.
//
// daily-js keeps its base domains in one list (daily.co first, then the fallback domains it
// switches to when daily.co is unreachable). It loads its call machine from
// `https://c.<base domain>/call-machine/…` and rewrites the room URL onto the same base domain,
// so every base domain needs `https://*.<domain>` for scripts, workers and fetches and
// `wss://*.<domain>` for the call's signalling. Absolute URLs in the package are endpoints it
// connects to (its error reporting), apart from the reviewed ones listed below.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Host-like string literals in daily-js that are not hosts it uses, with the reason. A new one
 * after an upgrade fails the check until someone decides what it is.
 */
export const NOT_HOSTS = new Map([
  ['console.assert', 'a console method name (error reporting)'],
  ['domexception.code', 'an error property path (error reporting)'],
  ['webassembly.exception', 'an error type name (error reporting)'],
  ['sentry.dsc', 'an error-report attribute key'],
  ['sentry.op', 'an error-report attribute key'],
  ['sentry.origin', 'an error-report attribute key'],
  ['sentry.source', 'an error-report attribute key'],
  ['webz.io', 'a crawler name in the bundled user-agent parser'],
  ['you.com', 'a crawler name in the bundled user-agent parser'],
]);

/** Absolute URLs in daily-js that are never requested, with the reason. */
export const NOT_REQUESTED = new Map([
  ['http://www.example.com', 'a throwaway Request() built to detect fetch support'],
  ['https://github.com/bowser-js/bowser', 'a link in the bundled user-agent parser'],
  ['https://www.daily.co/contact', 'a link in a console error message'],
]);

const DOTTED_LITERAL = /["'`]([a-z0-9-]+(?:\.[a-z0-9-]+)+)["'`]/gi;
const ABSOLUTE_URL = /\b(?:https?|wss?):\/\/[^\s"'`)\\]+/gi;
/** A dotted literal whose last label is letters only: "daily.co", not "0.92.2". */
const LOOKS_LIKE_HOST = /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i;

/**
 * The hosts in a daily-js bundle's source.
 * @param {string} source the text of `dist/daily-esm.js`
 * @returns {{ baseDomains: string[], origins: string[], unknown: string[] }} `unknown`: dotted
 *   literals that are neither a base domain nor a reviewed non-host.
 */
export function dailyHostsInSource(source) {
  /** @type {Set<string>} */
  const baseDomains = new Set();
  /** @type {Set<string>} */
  const unknown = new Set();
  for (const [, match] of source.matchAll(DOTTED_LITERAL)) {
    // The pattern's one group is required, so a match always has it.
    if (match === undefined) continue;
    const literal = match.toLowerCase();
    if (!LOOKS_LIKE_HOST.test(literal) || NOT_HOSTS.has(literal)) continue;
    baseDomains.add(literal);
  }
  // Property paths and file names match the pattern too: only the literals daily-js keeps in
  // one array with "daily.co" are base domains; any other host-like literal is for review.
  const list = /\[((?:"[a-z0-9.-]+",?)+)\]/gi;
  /** @type {Set<string>} */
  const grouped = new Set();
  for (const [, items = ''] of source.matchAll(list)) {
    const hosts = [...items.matchAll(/"([^"]+)"/g)].map(([, host = '']) => host.toLowerCase());
    if (hosts.includes('daily.co')) for (const host of hosts) grouped.add(host);
  }
  for (const host of baseDomains) {
    if (!grouped.has(host)) {
      baseDomains.delete(host);
      unknown.add(host);
    }
  }
  /** @type {Set<string>} */
  const origins = new Set();
  for (const [url] of source.matchAll(ABSOLUTE_URL)) {
    if (NOT_REQUESTED.has(url)) continue;
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    // "https://c." is the prefix the bundle URL is built from: c.<base domain>.
    if (!parsed.hostname.includes('.') || parsed.hostname.endsWith('.')) continue;
    origins.add(`${parsed.protocol}//${parsed.host}`);
  }
  return {
    baseDomains: [...baseDomains].sort(),
    origins: [...origins].sort(),
    unknown: [...unknown].sort(),
  };
}

/**
 * The source of the daily-js build the page bundles (its `module` entry).
 * @returns {Promise<{ version: string, source: string }>}
 */
export async function installedDailySource(root = process.cwd()) {
  const require = createRequire(join(root, 'package.json'));
  const manifestPath = require.resolve('@daily-co/daily-js/package.json');
  /** @type {{ version: string, module?: string, main: string }} */
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  const entry = join(dirname(manifestPath), manifest.module ?? manifest.main);
  return { version: manifest.version, source: await readFile(entry, 'utf8') };
}

/**
 * The sources each directive must allow for daily-js to load and connect.
 * @param {{ baseDomains: string[], origins: string[] }} hosts
 * @returns {Record<string, string[]>}
 */
export function requiredDailySources({ baseDomains, origins }) {
  const https = baseDomains.map((domain) => `https://*.${domain}`);
  const wss = baseDomains.map((domain) => `wss://*.${domain}`);
  return {
    'script-src': https,
    'worker-src': https,
    'connect-src': [...https, ...wss, ...origins],
  };
}

/** The directives a browser falls back to when a directive is absent (CSP Level 3). */
/** @type {Record<string, string[]>} */
const FALLBACKS = { 'worker-src': ['child-src', 'script-src'] };

/**
 * Parses a policy string into directive → sources.
 * @param {string} policy
 * @returns {Map<string, string[]>}
 */
export function parsePolicy(policy) {
  /** @type {Map<string, string[]>} */
  const directives = new Map();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

/**
 * What a policy lacks for daily-js: "script-src https://*.dailywebrtc.com", …
 * @param {string} policy
 * @param {Record<string, string[]>} required
 */
export function missingDailySources(policy, required) {
  const directives = parsePolicy(policy);
  /** @type {string[]} */
  const missing = [];
  for (const [name, sources] of Object.entries(required)) {
    const fallbacks = [name, ...(FALLBACKS[name] ?? []), 'default-src'];
    const effective = fallbacks.find((directive) => directives.has(directive));
    const allowed = (effective && directives.get(effective)) || [];
    // Exact sources: the policy names each host the way this module derives it.
    for (const source of sources) if (!allowed.includes(source)) missing.push(`${name} ${source}`);
  }
  return missing;
}
