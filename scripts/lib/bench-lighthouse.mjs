// @ts-check
// Lighthouse runs for the benchmark: its default configuration (mobile form factor, simulated
// throttling), each run in a fresh Chromium, reduced to the figures the budgets speak about.
import lighthouse from 'lighthouse';
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
 * }} LighthouseRun
 */

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
 * @returns {LighthouseRun}
 */
export function summariseLhr(lhr) {
  if (lhr.runtimeError) {
    throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  }
  /** @type {Record<string, number>} */
  const scores = {};
  /** @type {Record<string, string[]>} */
  const failingAudits = {};
  for (const id of CATEGORIES) {
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
  };
}

/**
 * Runs Lighthouse `runs` times against `url`, one fresh browser per run.
 * @param {string} url
 * @param {{ runs: number, onRun?: (index: number, run: LighthouseRun) => void }} options
 * @returns {Promise<LighthouseRun[]>}
 */
export async function runLighthouse(url, { runs, onRun }) {
  /** @type {LighthouseRun[]} */
  const results = [];
  for (let index = 0; index < runs; index += 1) {
    const chromium = await launchChromiumForDevtools();
    try {
      const result = await lighthouse(url, {
        port: chromium.port,
        hostname: '127.0.0.1',
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
      });
      if (!result) throw new Error('Lighthouse returned no result');
      const run = summariseLhr(result.lhr);
      results.push(run);
      onRun?.(index, run);
    } finally {
      await chromium.stop();
    }
  }
  return results;
}
