// The bench's figures on the live build: its bytes against their budgets, Lighthouse's scores and
// metrics (the site served compressed, as a static host serves it), and the first visit's LCP
// element with the font its text was painted with.
import { primeCompressedBodies, startCompressingProxy } from './bench-compression.mjs';
import { measureLcpFont } from './bench-lcp-font.mjs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { CATEGORIES, compareWithFloor, runLighthouseRounds } from './bench-lighthouse.mjs';
import { PHONE, launchBenchBrowser } from './bench-page.mjs';
import { log, median, messageOf, ms, seconds, verdict } from './bench-table.mjs';
import { BYTE_BUDGETS, analyseBuild, byteRows, formatKb } from './bundle-stats.mjs';
import { startStaticServer } from './static-server.mjs';

/** Lighthouse budgets: a minimum score per category, and the two metrics the issue bounds. */
/** @type {Record<string, number>} */
const SCORE_BUDGETS = { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100 };
const LCP_BUDGET_MS = 1000;
const CLS_BUDGET = 0.01;
/** Every round's LCP over the floor page's LCP in the same round. */
const FLOOR_RATIO_BUDGET = 1.25;
/** How much slower than the site's median LCP any one round may be. */
const OVER_MEDIAN_BUDGET = 0.1;

/**
 * The floor: the least a page with the same largest element can cost on the same server and
 * network. One static document with the site's title as its heading, in a system font, with no
 * style sheet, font, script or image.
 * @param {string} siteDir the built site, whose home page's title the floor shows
 * @param {string} floorDir where to write it
 */
export async function writeFloorPage(siteDir, floorDir) {
  const html = await readFile(`${siteDir}/index.html`, 'utf8');
  const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];
  if (heading === undefined) throw new Error(`${siteDir}/index.html has no <h1> for the floor`);
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  await mkdir(floorDir, { recursive: true });
  await writeFile(
    `${floorDir}/index.html`,
    [
      '<!doctype html>',
      '<html lang="en">',
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<title>${title}</title>`,
      '<body style="margin:0;background:#0b1a10;color:#f4d27a;font-family:serif">',
      `<h1 style="margin:30vh 1rem 0;font-size:3rem;text-align:center">${heading}</h1>`,
      '',
    ].join('\n'),
  );
}

/**
 * Serves `dir` compressed, as a static host or CDN serves it (see bench-compression.mjs).
 * @param {string} dir
 * @param {(stop: () => Promise<unknown>) => Promise<void>} track
 */
async function serveCompressed(dir, track) {
  const site = await startStaticServer({ root: dir });
  await track(() => site.close());
  const front = await startCompressingProxy({ upstream: site.url });
  await track(() => front.close());
  await primeCompressedBodies(front.url, dir);
  return front.url;
}

/**
 * @param {import('./bench-table.mjs').BenchTable} table
 * @param {string} siteDir
 */
export async function measureBytes({ row }, siteDir) {
  const stats = await analyseBuild(siteDir);
  /** @param {{ raw: number, gzip: number, brotli: number }} s */
  const fmt = (s) => `${formatKb(s.raw)} / ${formatKb(s.gzip)} gz / ${formatKb(s.brotli)} br`;
  const figures = byteRows(stats);
  /** @param {ReturnType<typeof byteRows>[number]} figure */
  const report = ({ name, size, budget }) =>
    budget === null
      ? row(name, fmt(size), '—', 'info')
      : row(name, fmt(size), `≤ ${formatKb(budget)} br`, verdict(size.brotli <= budget));
  figures.filter((figure) => !figure.onDemand).forEach(report);
  if (!stats.onDemand.some((chunk) => chunk.file.endsWith('.js'))) {
    row(
      'on-demand JS chunks',
      'none in this build',
      `≤ ${formatKb(BYTE_BUDGETS.onDemandChunk)} br`,
      'n/a',
    );
  }
  figures.filter((figure) => figure.onDemand).forEach(report);
}

/**
 * The LCP of a first visit in Chromium: its element, and the font its text was painted with.
 * @param {import('./bench-table.mjs').BenchTable} table
 * @param {string} url
 */
async function measureFirstVisitLcp({ row, note }, url) {
  const browser = await launchBenchBrowser();
  try {
    const lcp = await measureLcpFont(browser, url, PHONE);
    if (!lcp) {
      row('LCP element and font (first visit)', 'no LCP entry reported', '—', 'FAIL');
      return;
    }
    row(
      'LCP element and font (first visit)',
      `${lcp.element} at ${seconds(lcp.ms)}; CSS font-family ${lcp.fontFamily}; ` +
        `rendered with ${lcp.renderedWith.join(', ') || 'unknown'}`,
      '—',
      'info',
    );
    note(`Web fonts loaded at first-visit LCP: ${lcp.fontsLoaded.join(', ') || 'none'}`);
  } finally {
    await browser.close();
  }
}

/**
 * @param {import('./bench-table.mjs').BenchTable} table
 * @param {string} siteDir
 * @param {{ runs: number, track: (stop: () => Promise<unknown>) => Promise<void> }} options
 *   `track`: registers what was started, to be stopped when the bench ends however it ends.
 */
export async function measureLighthouse(table, siteDir, { runs: runCount, track }) {
  const { row, note } = table;
  const siteUrl = await serveCompressed(siteDir, track);
  const floorDir = `${siteDir}-floor`;
  await writeFloorPage(siteDir, floorDir);
  const floorUrl = await serveCompressed(floorDir, track);
  // The floor first in each round, then the site.
  const rounds = await runLighthouseRounds(
    [
      { name: 'floor', url: `${floorUrl}/`, categories: ['performance'] },
      { name: 'site', url: `${siteUrl}/` },
    ],
    {
      rounds: runCount,
      onRun: (index, name, run) =>
        log(
          `Lighthouse round ${index + 1}/${runCount}, ${name}: ` +
            Object.entries(run.scores)
              .map(([id, score]) => `${id} ${score}`)
              .join(', ') +
            `, FCP ${ms(run.metrics.fcpMs)}, LCP ${ms(run.metrics.lcpMs)}`,
        ),
      onRetry: (index, name, error) =>
        log(`Lighthouse round ${index + 1}/${runCount}, ${name}: ${messageOf(error)}; once more`),
    },
  );
  const runs = rounds.map((round) => round.site);
  reportFloorRounds(table, rounds);
  /** @param {(run: (typeof runs)[number]) => number} pick */
  const all = (pick) => runs.map(pick);
  /** @param {Array<string | number>} values */
  const list = (values) => values.join(', ');
  for (const id of CATEGORIES) {
    const scores = all((run) => run.scores[id] ?? 0);
    const score = median(scores);
    const budget = SCORE_BUDGETS[id] ?? 100;
    row(
      `Lighthouse ${id}`,
      `${score} (runs: ${list(scores)})`,
      budget === 100 ? '= 100' : `≥ ${budget}`,
      verdict(score >= budget),
    );
    if (score < 100) {
      const audits = [...new Set(runs.flatMap((run) => run.failingAudits[id] ?? []))];
      note(`Lighthouse ${id} ${score}: audits below full score: ${audits.join(', ') || '—'}`);
    }
  }
  const fcp = all((run) => run.metrics.fcpMs);
  const lcp = all((run) => run.metrics.lcpMs);
  const tbt = all((run) => run.metrics.tbtMs);
  const cls = all((run) => run.metrics.cls);
  row(
    'First Contentful Paint',
    `${seconds(median(fcp))} (runs: ${list(fcp.map(seconds))})`,
    '—',
    'info',
  );
  row(
    'Largest Contentful Paint',
    `${seconds(median(lcp))} (runs: ${list(lcp.map(seconds))})`,
    `≤ ${seconds(LCP_BUDGET_MS)}`,
    verdict(median(lcp) <= LCP_BUDGET_MS),
  );
  row('Total Blocking Time', `${ms(median(tbt))} (runs: ${list(tbt.map(ms))})`, '—', 'info');
  row(
    'Cumulative Layout Shift',
    `${median(cls).toFixed(3)} (runs: ${list(cls.map((value) => value.toFixed(3)))})`,
    `≤ ${CLS_BUDGET}`,
    verdict(median(cls) <= CLS_BUDGET),
  );
  // What to look at when a metric is over budget: the LCP element of the median run, and every
  // element that shifted in any run.
  const medianRun = runs.find((run) => run.metrics.lcpMs === median(lcp)) ?? runs[0];
  row('LCP element (Lighthouse, median run)', medianRun?.lcpElement ?? 'not reported', '—', 'info');
  await measureFirstVisitLcp(table, `${siteUrl}/`);
  if (median(cls) > CLS_BUDGET) {
    const shifts = [...new Set(runs.flatMap((run) => run.layoutShifts))];
    note(`Layout shifts: ${shifts.join('; ') || 'no elements reported'}`);
  }
  for (const warning of new Set(runs.flatMap((run) => run.warnings))) {
    note(`Lighthouse warning: ${warning}`);
  }
}

/**
 * Each round's figures, and the site held to the floor: every round's LCP within
 * FLOOR_RATIO_BUDGET of its own floor, and no round more than OVER_MEDIAN_BUDGET over the median.
 * @param {import('./bench-table.mjs').BenchTable} table
 * @param {Array<{ floor: import('./bench-lighthouse.mjs').LighthouseRun,
 *   site: import('./bench-lighthouse.mjs').LighthouseRun }>} rounds
 */
function reportFloorRounds({ row }, rounds) {
  const comparison = compareWithFloor(
    rounds.map(({ floor, site }) => ({
      floorLcpMs: floor.metrics.lcpMs,
      siteLcpMs: site.metrics.lcpMs,
    })),
    { maxFloorRatio: FLOOR_RATIO_BUDGET, maxOverMedian: OVER_MEDIAN_BUDGET },
  );
  rounds.forEach(({ floor, site }, index) => {
    const { ratio, overMedian } = comparison.perRound[index] ?? { ratio: NaN, overMedian: NaN };
    row(
      `Lighthouse round ${index + 1}: floor LCP · site FCP / LCP`,
      `${ms(floor.metrics.lcpMs)} · ${ms(site.metrics.fcpMs)} / ${ms(site.metrics.lcpMs)} ` +
        `(${ratio.toFixed(2)}× the floor, ${overMedian >= 0 ? '+' : ''}` +
        `${(overMedian * 100).toFixed(0)} % on the median)`,
      '—',
      'info',
    );
  });
  const [first] = rounds;
  if (first?.site.document && first.floor.document) {
    /** @param {{ transferBytes: number, windows: number }} document */
    const windows = ({ transferBytes, windows: count }) =>
      `${count} (${formatKb(transferBytes)} on the wire)`;
    const floors = rounds.map(({ floor }) => floor.metrics.lcpMs);
    const { rttMs } = first.site.document;
    const extra = first.site.document.windows - first.floor.document.windows;
    row(
      "The document's round trips of data on Lighthouse's network: site · floor",
      `${windows(first.site.document)} · ${windows(first.floor.document)}` +
        (extra > 0
          ? `; ${extra} more round trip${extra > 1 ? 's' : ''} of ${ms(rttMs)}, alone ` +
            `${((extra * rttMs) / median(floors)).toFixed(2)}× of the median floor`
          : ''),
      '—',
      'info',
    );
  }
  row(
    "LCP over the same round's floor, worst round",
    `${comparison.worstRatio.toFixed(2)}×`,
    `≤ ${FLOOR_RATIO_BUDGET}×`,
    verdict(comparison.withinFloor),
  );
  row(
    "Slowest round's LCP over the site's median",
    `+${Math.max(0, comparison.worstOverMedian * 100).toFixed(1)} % (median ${ms(comparison.medianLcpMs)})`,
    `≤ ${OVER_MEDIAN_BUDGET * 100} %`,
    verdict(comparison.steady),
  );
}
