// @ts-check
// Lighthouse runs for the benchmark: its default configuration (mobile form factor, simulated
// throttling), each run in a fresh Chromium, reduced to the figures the budgets speak about; the
// site and a static floor page interleaved round by round, and the site's rounds held to the
// floor's.
import lighthouse from 'lighthouse';
import { median } from './bench-table.mjs';
import { launchChromiumForDevtools } from './chromium.mjs';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** Lighthouse audit ids of the metrics we report, by our short name. */
const METRIC_AUDITS = {
  fcpMs: 'first-contentful-paint',
  lcpMs: 'largest-contentful-paint',
  tbtMs: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
};

/** Display modes whose score says nothing about the page (or is null). */
const UNSCORED = new Set(['notApplicable', 'informative', 'manual', 'error']);

/**
 * @typedef {{
 *   scores: Record<string, number>,
 *   metrics: { fcpMs: number, lcpMs: number, tbtMs: number, cls: number },
 *   failingAudits: Record<string, string[]>,
 *   lcpElement: string | null,
 *   layoutShifts: string[],
 *   warnings: string[],
 *   document: { transferBytes: number, windows: number, rttMs: number } | null,
 * }} LighthouseRun
 */

/** A TCP segment's payload, and the segments a new connection may send before its first ACK. */
const SEGMENT_BYTES = 1460;
const INITIAL_WINDOW_SEGMENTS = 10;

/**
 * How many round trips of data a document of `bytes` takes on a new connection, as Lighthouse's
 * simulated throttling counts them (TCP slow start: 10 segments in the first window, each next
 * window twice the last, up to what the throughput carries in one round trip). Each window after
 * the first costs a whole round trip, and Lighthouse lets nothing on the page start before the
 * document has arrived, so a page of 14.6 KB and one of 15 KB are a round trip apart.
 * @param {number} bytes what the document took on the wire, headers included
 * @param {{ rttMs: number, throughputKbps: number }} network Lighthouse's throttling settings
 */
export function documentWindows(bytes, { rttMs, throughputKbps }) {
  // Lighthouse's kilobits are 1024 bits.
  const bytesPerRoundTrip = ((throughputKbps * 1024) / 8) * (rttMs / 1000);
  const widest = Math.max(1, Math.floor(bytesPerRoundTrip / SEGMENT_BYTES));
  let window = Math.min(INITIAL_WINDOW_SEGMENTS, widest);
  let carried = window * SEGMENT_BYTES;
  let windows = 1;
  while (carried < bytes) {
    window = Math.min(widest, window * 2);
    carried += window * SEGMENT_BYTES;
    windows += 1;
  }
  return windows;
}

/**
 * What this module reads of the 'network-requests' audit's details: each request's type and
 * bytes on the wire.
 * @typedef {{ items?: Array<{ url?: string, resourceType?: string, transferSize?: number }> }}
 *   RequestDetails
 */

/**
 * The page's own document: its bytes on the wire, the round trips of data they take on
 * Lighthouse's simulated network, and what one round trip costs there.
 * @param {import('lighthouse').Result} lhr
 */
function describeDocument(lhr) {
  // As above: this audit's details are a RequestDetails.
  const details = /** @type {RequestDetails | undefined} */ (
    lhr.audits['network-requests']?.details
  );
  const page = lhr.mainDocumentUrl ?? lhr.finalDisplayedUrl;
  const document = (details?.items ?? []).find(
    (request) => request.resourceType === 'Document' && request.url === page,
  );
  const { rttMs, throughputKbps } = lhr.configSettings?.throttling ?? {};
  if (typeof document?.transferSize !== 'number' || !rttMs || !throughputKbps) return null;
  return {
    transferBytes: document.transferSize,
    windows: documentWindows(document.transferSize, { rttMs, throughputKbps }),
    rttMs,
  };
}

/** @typedef {import('lighthouse').Result['audits'][string]} AuditResult */

/**
 * What this module reads of the 'largest-contentful-paint-element' audit's details: a list of
 * two tables, the element's node, then the phases of its time.
 * @typedef {{ items?: [
 *   { items?: Array<{ node?: { selector?: string, nodeLabel?: string } }> }?,
 *   { items?: Array<{ phase: string, timing: number }> }?,
 * ] }} LcpDetails
 */

/**
 * What this module reads of the 'layout-shifts' audit's details: a table of the moved nodes.
 * @typedef {{ items?: Array<{ node?: { selector?: string }, score?: number }> }} ShiftDetails
 */

/**
 * The LCP element and where its time went: "h1#title ($PEPA): TTFB 550 ms, Render Delay …".
 * @param {AuditResult | undefined} audit
 */
function describeLcp(audit) {
  // Lighthouse types `details` as the union of every audit's; this audit's is an LcpDetails.
  const details = /** @type {LcpDetails | undefined} */ (audit?.details);
  const [element, phases] = details?.items ?? [];
  const node = element?.items?.[0]?.node;
  if (!node) return null;
  const timings = (phases?.items ?? [])
    .filter((phase) => phase.timing > 0)
    .map((phase) => `${phase.phase} ${Math.round(phase.timing)} ms`);
  return `${node.selector} (${node.nodeLabel})${timings.length ? `: ${timings.join(', ')}` : ''}`;
}

/**
 * Elements that moved, with their share of the shift, e.g. "footer > p (0.021)".
 * @param {AuditResult | undefined} audit
 */
function describeShifts(audit) {
  // As above: this audit's details are a ShiftDetails.
  const details = /** @type {ShiftDetails | undefined} */ (audit?.details);
  return (details?.items ?? []).flatMap(({ node, score }) =>
    node?.selector ? [`${node.selector} (${Number(score).toFixed(3)})`] : [],
  );
}

/**
 * Reduces a Lighthouse result to scores (0–100), metric values and, per category, the ids of the
 * audits that cost it points, so a score below budget says what to fix.
 * @param {import('lighthouse').Result} lhr
 * @param {string[]} [categories] the categories the run was asked for
 * @returns {LighthouseRun}
 */
export function summariseLhr(lhr, categories = CATEGORIES) {
  if (lhr.runtimeError) {
    throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  }
  /** @type {Record<string, number>} */
  const scores = {};
  /** @type {Record<string, string[]>} */
  const failingAudits = {};
  for (const id of categories) {
    const category = lhr.categories[id];
    if (!category || category.score === null) throw new Error(`Lighthouse gave no ${id} score`);
    scores[id] = Math.round(category.score * 100);
    failingAudits[id] = category.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter(
        /** @returns {audit is AuditResult} */
        (audit) =>
          audit !== undefined &&
          !UNSCORED.has(audit.scoreDisplayMode) &&
          audit.score !== null &&
          audit.score < 1,
      )
      .map((audit) => audit.id);
  }
  /** @param {string} id */
  const metric = (id) => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== 'number') throw new Error(`Lighthouse gave no value for ${id}`);
    return value;
  };
  return {
    scores,
    metrics: {
      fcpMs: metric(METRIC_AUDITS.fcpMs),
      lcpMs: metric(METRIC_AUDITS.lcpMs),
      tbtMs: metric(METRIC_AUDITS.tbtMs),
      cls: metric(METRIC_AUDITS.cls),
    },
    failingAudits,
    lcpElement: describeLcp(lhr.audits['largest-contentful-paint-element']),
    layoutShifts: describeShifts(lhr.audits['layout-shifts']),
    warnings: lhr.runWarnings ?? [],
    document: describeDocument(lhr),
  };
}

/**
 * Runs Lighthouse in `rounds` rounds; each round runs every page once, in the order given, each
 * run in a fresh browser. Pages compared with each other are measured interleaved, round by
 * round, so a machine that slows down for a while slows every page alike.
 * @template {string} Name
 * @param {Array<{ name: Name, url: string, categories?: string[] }>} pages
 *   `categories`: the ones to score (all of CATEGORIES unless told; the floor needs only performance)
 * @param {{
 *   rounds: number,
 *   onRun?: (round: number, name: Name, run: LighthouseRun) => void,
 *   onRetry?: (round: number, name: Name, error: unknown) => void,
 * }} options
 * @returns {Promise<Array<Record<Name, LighthouseRun>>>}
 */
export async function runLighthouseRounds(pages, { rounds, onRun, onRetry }) {
  /** @type {Array<Record<Name, LighthouseRun>>} */
  const results = [];
  for (let round = 0; round < rounds; round += 1) {
    /** @type {Partial<Record<Name, LighthouseRun>>} */
    const runs = {};
    for (const { name, url, categories = CATEGORIES } of pages) {
      const run = await runLighthouseOnce(url, categories).catch((error) => {
        // A trace Lighthouse could not record (NO_NAVSTART, NO_FCP on a starved machine) says
        // nothing of the page: that run is made once more, and a second failure ends the rounds.
        onRetry?.(round, name, error);
        return runLighthouseOnce(url, categories);
      });
      runs[name] = run;
      onRun?.(round, name, run);
    }
    results.push(/** @type {Record<Name, LighthouseRun>} */ (runs));
  }
  return results;
}

/**
 * One Lighthouse run in a fresh Chromium.
 * @param {string} url
 * @param {string[]} categories
 */
async function runLighthouseOnce(url, categories) {
  const chromium = await launchChromiumForDevtools();
  try {
    const result = await lighthouse(url, {
      port: chromium.port,
      hostname: '127.0.0.1',
      output: 'json',
      logLevel: 'error',
      onlyCategories: categories,
    });
    if (!result) throw new Error('Lighthouse returned no result');
    return summariseLhr(result.lhr, categories);
  } finally {
    await chromium.stop();
  }
}

/**
 * How the site's rounds stand against the floor's (a static page measured in the same rounds):
 * each round's LCP over that round's floor LCP, and how far each round is above the site's
 * median LCP. A round counts against its own floor, so a machine that slows down in one round
 * slows both sides of its ratio.
 * @param {Array<{ floorLcpMs: number, siteLcpMs: number }>} rounds
 * @param {{ maxFloorRatio: number, maxOverMedian: number }} limits
 *   `maxOverMedian`: how much slower than the median a round may be, as a fraction (0.1 = 10 %)
 */
export function compareWithFloor(rounds, { maxFloorRatio, maxOverMedian }) {
  if (rounds.length === 0) throw new Error('No rounds to compare');
  const medianLcpMs = median(rounds.map((round) => round.siteLcpMs));
  const perRound = rounds.map(({ floorLcpMs, siteLcpMs }) => ({
    ratio: siteLcpMs / floorLcpMs,
    overMedian: siteLcpMs / medianLcpMs - 1,
  }));
  const worstRatio = Math.max(...perRound.map((round) => round.ratio));
  const worstOverMedian = Math.max(...perRound.map((round) => round.overMedian));
  return {
    perRound,
    medianLcpMs,
    worstRatio,
    worstOverMedian,
    withinFloor: worstRatio <= maxFloorRatio,
    steady: worstOverMedian <= maxOverMedian,
  };
}
