import type { Result } from 'lighthouse';
import { describe, expect, it } from 'vitest';
import { compareWithFloor, documentWindows, summariseLhr } from './bench-lighthouse.mjs';

const audit = (id: string, fields: Record<string, unknown>) => ({
  id,
  title: id,
  description: '',
  score: 1,
  scoreDisplayMode: 'numeric',
  ...fields,
});

/** A Lighthouse result with only the fields the summary reads (the rest of the type is not). */
function result({
  audits = {},
  runtimeError,
}: { audits?: Record<string, ReturnType<typeof audit>>; runtimeError?: object } = {}) {
  const lhr = {
    runWarnings: ['The page loaded slowly.'],
    runtimeError,
    categories: {
      performance: {
        score: 0.97,
        auditRefs: [
          { id: 'largest-contentful-paint', weight: 25 },
          { id: 'unused-javascript', weight: 0 },
        ],
      },
      accessibility: { score: 1, auditRefs: [{ id: 'color-contrast', weight: 7 }] },
      'best-practices': {
        score: 0.924,
        auditRefs: [
          { id: 'errors-in-console', weight: 1 },
          { id: 'inspector-issues', weight: 1 },
          { id: 'not-run', weight: 1 },
        ],
      },
      seo: { score: 1, auditRefs: [] },
    },
    audits: {
      'first-contentful-paint': audit('first-contentful-paint', { numericValue: 900 }),
      'largest-contentful-paint': audit('largest-contentful-paint', {
        numericValue: 1800,
        score: 0.9,
      }),
      'total-blocking-time': audit('total-blocking-time', { numericValue: 0 }),
      'cumulative-layout-shift': audit('cumulative-layout-shift', { numericValue: 0.021 }),
      'unused-javascript': audit('unused-javascript', { score: 0.5 }),
      'color-contrast': audit('color-contrast', { scoreDisplayMode: 'binary' }),
      'errors-in-console': audit('errors-in-console', { score: 0, scoreDisplayMode: 'binary' }),
      'inspector-issues': audit('inspector-issues', {
        score: 0,
        scoreDisplayMode: 'notApplicable',
      }),
      ...audits,
    },
  };
  return lhr as unknown as Result;
}

describe('summariseLhr', () => {
  it('reports each category in points, the metrics, and the scored audits that cost points', () => {
    const run = summariseLhr(result());
    expect(run.scores).toEqual({
      performance: 97,
      accessibility: 100,
      'best-practices': 92,
      seo: 100,
    });
    expect(run.metrics).toEqual({ fcpMs: 900, lcpMs: 1800, tbtMs: 0, cls: 0.021 });
    expect(run.failingAudits).toEqual({
      performance: ['largest-contentful-paint'],
      accessibility: [],
      'best-practices': ['errors-in-console'],
      seo: [],
    });
    expect(run.warnings).toEqual(['The page loaded slowly.']);
    expect(run.lcpElement).toBeNull();
    expect(run.layoutShifts).toEqual([]);
    expect(run.document).toBeNull();
  });

  it("gives the page's document's bytes on the wire and the round trips of data they take", () => {
    const lhr = result({
      audits: {
        'network-requests': audit('network-requests', {
          details: {
            type: 'table',
            items: [
              { url: 'http://127.0.0.1:4000/', resourceType: 'Document', transferSize: 29_204 },
              { url: 'http://127.0.0.1:4000/app.js', resourceType: 'Script', transferSize: 66_332 },
            ],
          },
        }),
      },
    }) as unknown as Record<string, unknown>;
    lhr['mainDocumentUrl'] = 'http://127.0.0.1:4000/';
    lhr['configSettings'] = { throttling: { rttMs: 150, throughputKbps: 1638.4 } };

    expect(summariseLhr(lhr as unknown as Result).document).toEqual({
      transferBytes: 29_204,
      windows: 2,
      rttMs: 150,
    });
  });

  it('names the LCP element with the phases its time went to, and each moved element', () => {
    const run = summariseLhr(
      result({
        audits: {
          'largest-contentful-paint-element': audit('largest-contentful-paint-element', {
            details: {
              type: 'list',
              items: [
                {
                  type: 'table',
                  items: [{ node: { type: 'node', selector: 'h1#title', nodeLabel: '$PEPA' } }],
                },
                {
                  type: 'table',
                  items: [
                    { phase: 'TTFB', timing: 550.4 },
                    { phase: 'Load Delay', timing: 0 },
                    { phase: 'Render Delay', timing: 120.6 },
                  ],
                },
              ],
            },
          }),
          'layout-shifts': audit('layout-shifts', {
            details: {
              type: 'table',
              items: [
                { node: { type: 'node', selector: 'footer > p' }, score: 0.0213 },
                { score: 0.4 },
                { node: { type: 'node' }, score: 0.5 },
              ],
            },
          }),
        },
      }),
    );
    expect(run.lcpElement).toBe('h1#title ($PEPA): TTFB 550 ms, Render Delay 121 ms');
    expect(run.layoutShifts).toEqual(['footer > p (0.021)']);
  });

  it("refuses a run that ended in Lighthouse's runtime error, with its code and message", () => {
    expect(() =>
      summariseLhr(
        result({
          runtimeError: { code: 'NO_FCP', message: 'The page did not paint any content.' },
        }),
      ),
    ).toThrow('Lighthouse: NO_FCP: The page did not paint any content.');
  });
});

describe('documentWindows', () => {
  // Lighthouse's mobile preset: 150 ms round trips at 1.6 Mbit/s, about 21 segments a round trip.
  const mobile = { rttMs: 150, throughputKbps: 1638.4 };

  it('carries ten segments (14,600 bytes) in the first round trip of a new connection', () => {
    expect(documentWindows(356, mobile)).toBe(1);
    expect(documentWindows(14_600, mobile)).toBe(1);
    expect(documentWindows(14_601, mobile)).toBe(2);
  });

  it('doubles the window each round trip up to what the throughput carries in one', () => {
    // 10 segments, then 20, then the throughput's 21 (not 40): 14,600 + 29,200 + 30,660 bytes.
    expect(documentWindows(43_800, mobile)).toBe(2);
    expect(documentWindows(43_801, mobile)).toBe(3);
    expect(documentWindows(74_460, mobile)).toBe(3);
    expect(documentWindows(74_461, mobile)).toBe(4);
  });

  it('starts narrower where the throughput carries less than ten segments a round trip', () => {
    // 100 kbit/s for 150 ms: 1,920 bytes, one segment a round trip.
    expect(documentWindows(1_460, { rttMs: 150, throughputKbps: 100 })).toBe(1);
    expect(documentWindows(2_921, { rttMs: 150, throughputKbps: 100 })).toBe(3);
  });
});

describe('compareWithFloor', () => {
  const limits = { maxFloorRatio: 1.25, maxOverMedian: 0.1 };

  it("holds each round to its own round's floor, not to the floors' median", () => {
    const rounds = [
      { floorLcpMs: 600, siteLcpMs: 740 },
      { floorLcpMs: 700, siteLcpMs: 800 },
      { floorLcpMs: 620, siteLcpMs: 760 },
    ];
    const comparison = compareWithFloor(rounds, limits);
    expect(comparison.perRound.map((round) => round.ratio.toFixed(3))).toEqual([
      '1.233',
      '1.143',
      '1.226',
    ]);
    expect(comparison.withinFloor).toBe(true);
    expect(comparison.medianLcpMs).toBe(760);
  });

  it('fails a site whose one slow round is over the floor by more than the limit', () => {
    const comparison = compareWithFloor(
      [
        { floorLcpMs: 626, siteLcpMs: 760 },
        { floorLcpMs: 626, siteLcpMs: 1501 },
        { floorLcpMs: 642, siteLcpMs: 770 },
      ],
      limits,
    );
    expect(comparison.withinFloor).toBe(false);
    expect(comparison.worstRatio).toBeCloseTo(1501 / 626);
    // The slow round is also far over the median: a bimodal first screen fails both ways.
    expect(comparison.steady).toBe(false);
    expect(comparison.worstOverMedian).toBeCloseTo(1501 / 770 - 1);
  });

  it('fails rounds spread wider than the limit around the median, even within the floor', () => {
    const steady = compareWithFloor(
      [
        { floorLcpMs: 700, siteLcpMs: 700 },
        { floorLcpMs: 700, siteLcpMs: 760 },
        { floorLcpMs: 700, siteLcpMs: 720 },
        { floorLcpMs: 700, siteLcpMs: 740 },
      ],
      limits,
    );
    expect(steady.medianLcpMs).toBe(730);
    expect(steady.steady).toBe(true);
    const spread = compareWithFloor(
      [
        { floorLcpMs: 700, siteLcpMs: 700 },
        { floorLcpMs: 700, siteLcpMs: 810 },
        { floorLcpMs: 700, siteLcpMs: 720 },
      ],
      limits,
    );
    expect(spread.withinFloor).toBe(true);
    expect(spread.steady).toBe(false);
  });

  it('refuses to compare no rounds', () => {
    expect(() => compareWithFloor([], limits)).toThrow('No rounds');
  });
});
