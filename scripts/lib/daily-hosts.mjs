// @ts-check
// The hosts the installed @daily-co/daily-js loads scripts from or connects to, read out of the
// package itself, and a check that a Content-Security-Policy allows each of them.
//
// daily-js loads its call machine, `https://c.<domain>/call-machine/…`, as a script (with
// `avoidEval`); the call machine then joins the room on `<team>.<domain>` and signals over
// WebSocket on the same domain, and starts its workers from it, so that domain needs
// `https://*.<domain>` for scripts, workers and fetches and `wss://*.<domain>` for the call.
// Older releases name the call machine as one absolute URL. Newer ones put its URL together at
// run time from a list of base domains (`daily.co`, then the failover domains it moves to when a
// network blocks the first): `"https://c.".concat(domain, "/call-machine/…")`, with the domains
// in one array literal of host names, each of which is then a call-machine domain. Every other
// absolute URL is an endpoint daily-js fetches (its error reporting), apart from the reviewed
// ones below. Anything else that looks like a host, a URL whose host is put together in a way
// not described here, or a package with no call machine at all is reported for review: the check
// cannot see where such a request goes, so an upgrade that brings one fails until someone decides.
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
  ['webz.io', "a crawler's vendor name in the bundled user-agent parser"],
  ['you.com', "a crawler's vendor name in the bundled user-agent parser"],
]);

/** Absolute URLs in daily-js that are never requested, with the reason. */
export const NOT_REQUESTED = new Map([
  ['http://www.example.com', 'a throwaway Request() built to detect fetch support'],
  ['https://github.com/bowser-js/bowser', 'a link in the bundled user-agent parser'],
  ['https://www.daily.co/contact', 'a link in a console error message'],
]);

const DOTTED_LITERAL = /["'`]([a-z0-9-]+(?:\.[a-z0-9-]+)+)["'`]/gi;
const ABSOLUTE_URL = /\b(?:https?|wss?):\/\/[^\s"'`)\\]*/gi;
/** A dotted literal whose last label is letters only: "daily.co", not "0.87.0". */
const LOOKS_LIKE_HOST = /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i;
/** The path daily-js loads its call machine from. */
const CALL_MACHINE_PATH = '/call-machine/';
/** A call-machine URL put together from a domain: `"https://c.".concat(domain, "/call-machine/`. */
const CALL_MACHINE_TEMPLATE =
  /["'`]((?:https?|wss?):\/\/[a-z0-9-]+\.)["'`]\.concat\(\s*[\w$]+\s*,\s*["'`]\/call-machine\//gi;
/** An array literal of dotted names only: `["daily.co","dailywebrtc.com"]`. */
const NAME_LIST = /\[\s*((?:["'`][a-z0-9.-]+["'`]\s*,\s*)*["'`][a-z0-9.-]+["'`])\s*\]/gi;

/**
 * The hosts in a daily-js bundle's source.
 * @param {string} source the text of `dist/daily-esm.js`
 * @returns {{ callMachine: string[], domains: string[], origins: string[], problems: string[] }}
 *   `callMachine`: the origins the call machine is loaded from; `domains`: the domains the call
 *   machine is served from (its host without the first label); `origins`: the other origins
 *   daily-js fetches; `problems`: what needs a review before the policy can be trusted.
 */
export function dailyHostsInSource(source) {
  /** @type {Set<string>} */
  const callMachine = new Set();
  /** @type {Set<string>} */
  const domains = new Set();
  /** @type {Set<string>} */
  const origins = new Set();
  /** @type {Set<string>} */
  const problems = new Set();
  const templates = new Set(
    [...source.matchAll(CALL_MACHINE_TEMPLATE)].map(([, prefix]) => prefix),
  );
  /** The names of the base-domain list, when the call machine's URL is put together. */
  const baseDomains = templates.size > 0 ? baseDomainList(source) : [];
  if (templates.size > 0 && baseDomains.length === 0) {
    problems.add(
      `no single list of base domains for the call machine ("${[...templates].join('", "')}")`,
    );
  }
  for (const prefix of templates) {
    for (const domain of baseDomains) {
      const { protocol, host } = new URL(`${prefix}${domain}`);
      callMachine.add(`${protocol}//${host}`);
      domains.add(domain);
    }
  }
  for (const [url] of source.matchAll(ABSOLUTE_URL)) {
    if (NOT_REQUESTED.has(url) || templates.has(url)) continue;
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      problems.add(`unreadable URL "${url}"`);
      continue;
    }
    if (!LOOKS_LIKE_HOST.test(parsed.hostname)) {
      problems.add(`URL without a full host name "${url}"`);
      continue;
    }
    const origin = `${parsed.protocol}//${parsed.host}`;
    if (parsed.pathname.startsWith(CALL_MACHINE_PATH)) {
      callMachine.add(origin);
      domains.add(parsed.hostname.slice(parsed.hostname.indexOf('.') + 1));
    } else {
      origins.add(origin);
    }
  }
  if (callMachine.size === 0) problems.add(`no call-machine URL ("…${CALL_MACHINE_PATH}…")`);
  for (const [, literal = ''] of source.matchAll(DOTTED_LITERAL)) {
    const lower = literal.toLowerCase();
    if (LOOKS_LIKE_HOST.test(lower) && !NOT_HOSTS.has(lower) && !baseDomains.includes(lower)) {
      problems.add(`unreviewed host-like literal "${lower}"`);
    }
  }
  return {
    callMachine: [...callMachine].sort(),
    domains: [...domains].sort(),
    origins: [...origins].sort(),
    problems: [...problems].sort(),
  };
}

/**
 * The one array literal whose names all look like hosts that nobody has reviewed as something
 * else: the base domains a call-machine URL is put together from. None, or more than one, is
 * left for review (empty).
 * @param {string} source
 * @returns {string[]}
 */
function baseDomainList(source) {
  const lists = [...source.matchAll(NAME_LIST)]
    .map(([, items = '']) => items.split(',').map((item) => item.trim().slice(1, -1).toLowerCase()))
    .filter((names) => names.every((name) => LOOKS_LIKE_HOST.test(name) && !NOT_HOSTS.has(name)));
  const distinct = new Set(lists.map((names) => names.join(',')));
  return distinct.size === 1 ? (lists[0] ?? []) : [];
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
 * @param {{ domains: string[], origins: string[] }} hosts
 * @returns {Record<string, string[]>}
 */
export function requiredDailySources({ domains, origins }) {
  const https = domains.map((domain) => `https://*.${domain}`);
  const wss = domains.map((domain) => `wss://*.${domain}`);
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
 * Whether a policy's source expression allows a required one: the same expression, or a
 * `scheme://*.domain` wildcard over the required host (`https://*.daily.co` allows
 * `https://gs.daily.co` and `https://*.gs.daily.co`, not `https://daily.co`).
 * @param {string} allowed
 * @param {string} required
 */
function allows(allowed, required) {
  if (allowed === required) return true;
  const wildcard = /^([a-z]+:\/\/)\*(\.[^/:]+)$/i.exec(allowed);
  if (!wildcard) return false;
  const [, scheme = '', suffix = ''] = wildcard;
  return (
    required.startsWith(scheme) &&
    required.endsWith(suffix) &&
    !required.includes('/', scheme.length)
  );
}

/**
 * What a policy lacks for daily-js: "connect-src wss://*.daily.co", …
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
    for (const source of sources) {
      if (!allowed.some((expression) => allows(expression, source))) {
        missing.push(`${name} ${source}`);
      }
    }
  }
  return missing;
}
