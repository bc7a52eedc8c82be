// Checks on a built site that no visitor should have to find out about: secrets in the bundle,
// external links that leak the opener, a missing or weak Content-Security-Policy.
import { cspHash } from './inline-html.mjs';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * @param {string} dir
 * @returns {AsyncGenerator<string>}
 */
async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

/**
 * Every file under `dir` that contains any of `needles`.
 * @param {string} dir
 * @param {string[]} needles
 */
export async function filesContaining(dir, needles) {
  const found = [];
  for await (const file of walk(dir)) {
    const text = (await readFile(file)).toString('latin1');
    for (const needle of needles) {
      if (needle && text.includes(needle)) found.push({ file: relative(dir, file), needle });
    }
  }
  return found;
}

/**
 * Strings that only the provider's official web client (`@vapi-ai/web`, a devDependency the tests
 * use as an oracle) carries: its package name, names of its class members and its log lines.
 * Vite does not mangle property names or strings, so they survive minification; none of them is
 * in the page's own code.
 */
export const OFFICIAL_CLIENT_MARKERS = [
  '@vapi-ai/web',
  'runNetworkTestsStandalone',
  'getDailyCallObject',
  'hasEmittedCallEndedStatus',
  'maybeStartLocalAudioLevelObserver',
  '[vapi] could not start assistant audio',
];

/**
 * Files under `dir` that hold the provider's official web client, each with the first marker
 * found: the page talks to the provider through its own call object and never ships the oracle.
 * @param {string} dir
 */
export async function officialClientFiles(dir) {
  const found = new Map();
  for (const { file, needle } of await filesContaining(dir, OFFICIAL_CLIENT_MARKERS)) {
    if (!found.has(file)) found.set(file, needle);
  }
  return [...found].map(([file, marker]) => ({ file, marker }));
}

/**
 * Anchors that open a new tab without both `noopener` and `noreferrer`.
 * @param {string} html
 */
export function unsafeBlankLinks(html) {
  const problems = [];
  for (const [tag] of html.matchAll(/<a\b[^>]*>/g)) {
    if (!/\starget="_blank"/.test(tag)) continue;
    const rel = (/\srel="([^"]*)"/.exec(tag)?.[1] ?? '').split(/\s+/);
    if (!rel.includes('noopener') || !rel.includes('noreferrer')) problems.push(tag);
  }
  return problems;
}

/**
 * Problems with the page's CSP `<meta>` and scripts. An inline script is a problem unless the
 * policy allows exactly its text by hash.
 * @param {string} html
 */
export function cspProblems(html) {
  const problems = [];
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html);
  if (!meta) return ['no Content-Security-Policy <meta>'];
  const policy = (meta[1] ?? '').replaceAll('&#39;', "'").replaceAll('&quot;', '"');
  const directives = new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
  if (policy.includes("'unsafe-eval'")) problems.push("the policy allows 'unsafe-eval'");
  const scripts = directives.get('script-src') ?? directives.get('default-src') ?? [];
  if (scripts.includes("'unsafe-inline'")) problems.push("script-src allows 'unsafe-inline'");
  if (!(directives.get('default-src') ?? []).includes("'self'")) {
    problems.push("default-src is not 'self'");
  }
  if ((directives.get('object-src') ?? []).join(' ') !== "'none'") {
    problems.push("object-src is not 'none'");
  }
  if ((directives.get('base-uri') ?? []).join(' ') !== "'self'") {
    problems.push("base-uri is not 'self'");
  }
  for (const [, tag = '', text = ''] of html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/g)) {
    if (/\ssrc="/.test(tag) || /type="application\/(ld\+)?json"/.test(tag)) continue;
    if (!scripts.includes(cspHash(text))) problems.push(`inline script: ${tag}`);
  }
  if (/\son[a-z]+="/i.test(html)) problems.push('inline event handler attribute');
  return problems;
}
