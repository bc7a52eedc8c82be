// npm run court:report against a small local stand-in for the gate's `GET /api/report`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from './run-script';
import { fetchReport, formatReport, parseDays, ReportError } from '../../assistant/court-report';
import type { Report } from '../../generated/gate/types.gen';

const TOKEN = 'admin-token-'.padEnd(40, 'z');

const REPORT: Report = {
  days: [
    {
      day: '2026-11-24',
      calls: 40,
      minutes: 86.5,
      spendUsd: 13.2,
      starts: 64,
      waited: 16,
      ratings: { delighted: 9, content: 4, displeased: 1, comments: 3 },
      refusals: { 'rate-limited': 7, 'bot-check-failed': 12, 'court-closed': 0 },
      failures: { 'pipeline-error-openai-llm-failed': 2 },
      text: { chats: 120, turns: 310, fromRecord: 42, spendUsd: 3.1 },
      hours: [0.5, 0.74, ...new Array<number>(11).fill(0), 2.08, ...new Array<number>(10).fill(0)],
    },
    {
      day: '2026-11-23',
      calls: 5,
      minutes: 9,
      spendUsd: 1.35,
      starts: 5,
      waited: 0,
      ratings: { delighted: 1, content: 0, displeased: 0, comments: 0 },
      refusals: {},
      failures: {},
      text: { chats: 0, turns: 0, fromRecord: 0, spendUsd: 0 },
      hours: new Array<number>(24).fill(0),
    },
  ],
  limits: {
    maxConcurrentCalls: 10,
    dailyBudgetUsd: 25,
    costPerMinuteUsd: 0.15,
    pace: { releases: 24, burstShares: 1, shareUsd: 1.041667, releasedUsd: 15.625 },
  },
};

const EXPECTED_TABLE = `Court report, the last 3 day(s) (UTC): 10 calls at once, 25 USD a day at 0.15 USD a minute.

Day         Calls  Minutes    Spend USD  Chats  Replies  From record  Text USD  Starts  Waited  Delighted  Content  Displeased  Comments  Refusals                             Failures
----------  -----  -------  -----------  -----  -------  -----------  --------  ------  ------  ---------  -------  ----------  --------  -----------------------------------  ----------------------------------
2026-11-24     40     86.5  13.20/25.00    120      310           42      3.10      64     25%          9        4           1         3  bot-check-failed 12, rate-limited 7  pipeline-error-openai-llm-failed 2
2026-11-23      5      9.0   1.35/25.00      0        0            0      0.00       5      0%          1        0           0         0  -                                    -
Total          45     95.5        14.55    120      310           42      3.10      69     23%         10        4           1         3  bot-check-failed 12, rate-limited 7  pipeline-error-openai-llm-failed 2

Waited: the share of starts that stood in line. Spend: reported cost plus what open calls hold.
Chats, Replies, Text USD: text with Pepa (its spend is part of Spend).
From record: replies to a chat's opening given from Pepa's earlier replies to it that day (no model, no cost).
Failures card-judge-…: quote cards' judgements with no verdict (no card made); their cost is in Spend.

Pace: 24 releases of 1.04 USD over the UTC day, 1 ahead of its time; released now 15.63 USD.
Spend by UTC hour, 2026-11-24: 00:00 0.50 (0.50 of 2.08 released), 01:00 0.74 (1.24 of 3.13 released), 13:00 2.08 (3.32 of 15.63 released).`;

let server: Server;
let gateUrl: string;
const seen: { method: string; url: string; auth: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      auth: request.headers.authorization,
    });
    const url = new URL(request.url ?? '/', 'http://gate.test');
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname !== '/api/report') return send(404, { code: 'not-found', title: 'Not found' });
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return send(401, { code: 'unauthorized', title: 'Missing or wrong credentials' });
    }
    return send(200, REPORT);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  gateUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
});

const runReport = (args: string[], env: Record<string, string>) =>
  runScript('scripts/court-report.mjs', args, env);

describe('npm run court:report', () => {
  it('asks the gate for N days with the admin token and prints a row a day and a total', async () => {
    seen.length = 0;
    const { code, stdout, stderr } = await runReport(['--days', '3'], {
      GATE_URL: gateUrl,
      GATE_ADMIN_TOKEN: TOKEN,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(seen).toEqual([{ method: 'GET', url: '/api/report?days=3', auth: `Bearer ${TOKEN}` }]);
    expect(stdout.trimEnd()).toBe(EXPECTED_TABLE);
  }, 60_000);

  it('says in one line when the gate refuses the token', async () => {
    const { code, stdout, stderr } = await runReport([], {
      GATE_URL: gateUrl,
      GATE_ADMIN_TOKEN: 'wrong',
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      'court:report: The gate refused GATE_ADMIN_TOKEN (HTTP 401): use the token put with `wrangler secret put GATE_ADMIN_TOKEN`.',
    );
  }, 60_000);

  it('reads the token only from GATE_ADMIN_TOKEN, never a VITE_ variable, and sends nothing without it', async () => {
    seen.length = 0;
    await expect(
      fetchReport({ gateUrl, token: undefined, fetch: globalThis.fetch }),
    ).rejects.toThrow(/^Set GATE_ADMIN_TOKEN .*never as a VITE_ variable\.$/);
    const { code, stderr } = await runReport([], {
      GATE_URL: gateUrl,
      VITE_GATE_ADMIN_TOKEN: TOKEN,
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/Set GATE_ADMIN_TOKEN/);
    expect(seen).toEqual([]);
  }, 60_000);

  it('refuses a GATE_URL that is not an https origin, an unreachable gate and bad --days', async () => {
    await expect(fetchReport({ gateUrl: 'http://pepa.example', token: TOKEN })).rejects.toThrow(
      /GATE_URL must use https/,
    );
    await expect(fetchReport({ gateUrl: undefined, token: TOKEN })).rejects.toThrow(/Set GATE_URL/);
    await expect(fetchReport({ gateUrl: 'http://127.0.0.1:9', token: TOKEN })).rejects.toThrow(
      /^Cannot reach the gate at http:\/\/127\.0\.0\.1:9 /,
    );
    expect(parseDays(undefined)).toBe(7);
    expect(parseDays('30')).toBe(30);
    for (const bad of ['0', '91', '1.5', 'week']) {
      expect(() => parseDays(bad)).toThrow(ReportError);
    }
  });

  it('says so when the days asked for hold no starts', () => {
    expect(formatReport({ days: [], limits: REPORT.limits }, 1)).toBe(
      'Court report, the last 1 day(s) (UTC): 10 calls at once, 25 USD a day at 0.15 USD a minute.\n\nNo starts in that time.',
    );
  });

  it('ends with what the court, the busiest desk and the busiest shelf heard per second', () => {
    const seconds = (busy: number[]) => [...new Array<number>(600 - busy.length).fill(0), ...busy];
    const from = '2026-11-24T12:00:00.000Z';
    const loads = {
      courtLoad: { from, requestsPerSecond: seconds([4, 12, 8]) },
      deskLoad: { object: 'desk-7', from, requestsPerSecond: seconds([1, 3]) },
      shelfLoad: { object: 'shelf-0', from, requestsPerSecond: seconds([]) },
    };
    const printed = formatReport({ ...REPORT, ...loads }, 3).split('\n');
    expect(printed.at(-1)).toBe(
      'Requests heard in the last ten minutes, busiest second / mean per second (total): ' +
        'court 12 / 0.04 (24), busiest desk (desk-7) 3 / 0.01 (4), busiest shelf (shelf-0) 0 / 0.00 (0).',
    );
    expect(formatReport({ days: [], limits: REPORT.limits, ...loads }, 1).split('\n')).toEqual([
      'Court report, the last 1 day(s) (UTC): 10 calls at once, 25 USD a day at 0.15 USD a minute.',
      '',
      'No starts in that time.',
      printed.at(-1),
    ]);
  });
});
