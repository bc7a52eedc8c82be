// @ts-check
// `npm run budget`: a production (live) build, then the checks that are deterministic enough for
// the test command: byte budgets (brotli), no secret in dist/, safe external links, a strict CSP,
// and no demo code in a live build. Prints a table; exits non-zero when anything fails.
//
// Options: --demo-build=DIR (a demo build already made, say the browser suites' one in
// `npm run verify`, for the positive control below instead of building one more).
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { buildSite } from './build.mjs';
import { analyseBuild, byteRows, formatKb, markdownTable } from './lib/bundle-stats.mjs';
import {
  cspProblems,
  filesContaining,
  officialClientFiles,
  unsafeBlankLinks,
} from './lib/build-checks.mjs';
import {
  dailyHostsInSource,
  installedDailySource,
  missingDailySources,
  parsePolicy,
  requiredDailySources,
} from './lib/daily-hosts.mjs';

const TURNSTILE_ORIGIN = 'https://challenges.cloudflare.com';

const PRIVATE_CANARY = 'sk-private-canary-do-not-ship-4f9c2e';

// A live build as a deployment makes it: calls go through the court gate, so the page carries no
// provider key at all; a private-looking variable in the environment must never reach the bundle.
delete process.env.VITE_VAPI_PUBLIC_KEY;
delete process.env.VITE_VAPI_ASSISTANT_ID;
process.env.VITE_TURNSTILE_SITE_KEY ??= '0x4AAAAAAAbudgetCheckSiteKey';
process.env.VAPI_PRIVATE_KEY = PRIVATE_CANARY;
delete process.env.VITE_PEPA_DEMO;

const dist = await buildSite({ quiet: true, outDir: '.budget-dist' });
const stats = await analyseBuild(dist);
/** @type {string[][]} */
const rows = [];
let failed = false;
/**
 * @param {string} name
 * @param {boolean} pass
 * @param {string} figure
 * @param {string} budget
 */
const check = (name, pass, figure, budget) => {
  rows.push([name, figure, budget, pass ? 'pass' : 'FAIL']);
  if (!pass) failed = true;
};

/** @param {import('./lib/bundle-stats.mjs').Sizes} s */
const fmt = (s) => `${formatKb(s.raw)} raw / ${formatKb(s.gzip)} gz / ${formatKb(s.brotli)} br`;
for (const { name, size, budget } of byteRows(stats)) {
  if (budget === null) rows.push([name, fmt(size), '—', 'info']);
  else check(name, size.brotli <= budget, fmt(size), `≤ ${formatKb(budget)} br`);
}

const leaks = await filesContaining(dist, [PRIVATE_CANARY]);
check(
  'private variables in dist/',
  leaks.length === 0,
  leaks.map((l) => l.file).join(', ') || 'none',
  'none',
);

// The provider's official web client is a test oracle, never part of the page.
const oracle = await officialClientFiles(dist);
check(
  "provider's official web client in dist/",
  oracle.length === 0,
  oracle.map(({ file, marker }) => `${file} (${marker})`).join(', ') || 'absent',
  'absent',
);

// The offline room simulator belongs to demo builds only. Its chunk is named after its module;
// the demo build below proves the check would see it.
/** @param {string} dir */
const simulatorChunks = async (dir) =>
  (await readdir(join(dir, 'assets'))).filter((name) => name.includes('simulator'));
const liveSimulator = await simulatorChunks(dist);
check(
  'demo simulator in a live build',
  liveSimulator.length === 0,
  liveSimulator.join(', ') || 'absent',
  'absent',
);

for (const page of ['index.html', '404.html']) {
  const html = await readFile(join(dist, page), 'utf8');
  const links = unsafeBlankLinks(html);
  check(
    `${page}: target=_blank links`,
    links.length === 0,
    links.length ? links.join(' ') : 'all noopener noreferrer',
    'noopener noreferrer',
  );
  const csp = cspProblems(html);
  check(
    `${page}: Content-Security-Policy`,
    csp.length === 0,
    csp.join('; ') || 'strict',
    "no 'unsafe-eval', inline script only by hash",
  );
}
const headers = await readFile(join(dist, '_headers'), 'utf8');
const headerNames = [
  'Content-Security-Policy',
  'Permissions-Policy',
  'Referrer-Policy',
  'X-Content-Type-Options',
];
const missingHeaders = headerNames.filter((name) => !headers.includes(`${name}:`));
check(
  '_headers file',
  missingHeaders.length === 0 && headers.includes("frame-ancestors 'none'"),
  missingHeaders.join(', ') || 'complete',
  headerNames.join(', ') + ", frame-ancestors 'none'",
);

// Every host the installed daily-js loads scripts from or connects to (its call machine's domain,
// the endpoints it fetches) is allowed by the built policy, in the page and in _headers: an upgrade
// that adds a host, or anything host-like nobody has reviewed, fails here.
const daily = await installedDailySource();
const dailyHosts = dailyHostsInSource(daily.source);
const requiredForDaily = requiredDailySources(dailyHosts);
const indexHtml = await readFile(join(dist, 'index.html'), 'utf8');
const metaPolicy = (
  /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(indexHtml)?.[1] ?? ''
)
  .replaceAll('&#39;', "'")
  .replaceAll('&quot;', '"');
const headerPolicy = /Content-Security-Policy: (.*)/.exec(headers)?.[1] ?? '';
const dailyMissing = [
  ...dailyHosts.problems,
  ...missingDailySources(metaPolicy, requiredForDaily).map((gap) => `meta: ${gap}`),
  ...missingDailySources(headerPolicy, requiredForDaily).map((gap) => `_headers: ${gap}`),
];
check(
  `CSP allows daily-js ${daily.version} hosts`,
  dailyMissing.length === 0,
  dailyMissing.join('; ') ||
    [...dailyHosts.domains.map((domain) => `*.${domain}`), ...dailyHosts.origins].join(', '),
  'every host daily-js uses',
);

// The gate build's policy: Turnstile may load its script and frame; the page talks to no
// provider (its calls are created by the gate, on the page's own origin).
const gatePolicyProblems = [metaPolicy, headerPolicy].flatMap((policy, index) => {
  const where = index === 0 ? 'meta' : '_headers';
  const directives = parsePolicy(policy);
  const problems = [];
  for (const name of ['script-src', 'frame-src']) {
    if (!(directives.get(name) ?? []).includes(TURNSTILE_ORIGIN)) {
      problems.push(`${where}: ${name} lacks ${TURNSTILE_ORIGIN}`);
    }
  }
  const providerHosts = (directives.get('connect-src') ?? []).filter((source) =>
    source.includes('vapi'),
  );
  if (providerHosts.length > 0) problems.push(`${where}: connect-src allows ${providerHosts}`);
  return problems;
});
check(
  'CSP of a gate build',
  gatePolicyProblems.length === 0,
  gatePolicyProblems.join('; ') || `Turnstile allowed, no provider host`,
  'Turnstile script and frame; no provider in connect-src',
);

// Positive control: the same check finds the simulator in a demo build.
const givenDemo = process.argv.find((arg) => arg.startsWith('--demo-build='));
const demoDist = givenDemo
  ? resolve(givenDemo.slice('--demo-build='.length))
  : await buildSite({ demo: true, quiet: true, outDir: '.budget-dist-demo' });
const demoSimulator = await simulatorChunks(demoDist);
check(
  'demo simulator in a demo build',
  demoSimulator.length > 0,
  demoSimulator.join(', ') || 'absent',
  'present',
);

console.log(markdownTable(['check', 'figure', 'budget', 'result'], rows));
if (failed) {
  console.error('\nbudget: at least one check failed (see the table above)');
  process.exit(1);
}
