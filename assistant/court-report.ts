/**
 * `npm run court:report`: the court gate's daily totals (`GET /api/report`, for the owner only,
 * with `GATE_ADMIN_TOKEN`), through the gate's generated client, printed as a table a day.
 */
import { getReport } from '../generated/gate/sdk.gen';
import type { DayTotals, Report } from '../generated/gate/types.gen';
import { ownerClient, SET_ADMIN_TOKEN, TOKEN_REFUSED, unreachable } from './owner-client';
import { gateOrigin } from './sync';

/** Thrown with a one-line message the script prints as is. */
export class ReportError extends Error {
  override name = 'ReportError';
}

export interface ReportOptions {
  /** `GATE_URL`: the site's public origin. */
  gateUrl: string | undefined;
  /** `GATE_ADMIN_TOKEN`, as put on the Worker. */
  token: string | undefined;
  days?: number;
  fetch?: typeof fetch;
}

export const MAX_REPORT_DAYS = 90;

/** `--days`: a whole number from 1 to 90 (the gate's own bounds), 7 when not given. */
export function parseDays(value: string | undefined): number {
  if (value === undefined) return 7;
  const days = Number(value);
  if (!/^\d+$/.test(value) || days < 1 || days > MAX_REPORT_DAYS) {
    throw new ReportError(
      `--days must be a whole number from 1 to ${MAX_REPORT_DAYS} (got "${value}").`,
    );
  }
  return days;
}

/** Fetches the report; every failure is a {@link ReportError} saying what to do. */
export async function fetchReport(options: ReportOptions): Promise<Report> {
  const raw = options.gateUrl?.trim();
  if (!raw)
    throw new ReportError(
      "Set GATE_URL to the site's public origin, where the gate answers /api/.",
    );
  const origin = gateOrigin(raw);
  if ('problem' in origin) throw new ReportError(`${origin.problem}.`);
  const token = options.token?.trim();
  if (!token) throw new ReportError(SET_ADMIN_TOKEN);
  const client = ownerClient(origin.origin, token, options.fetch);
  let answer;
  try {
    answer = await getReport({ client, query: { days: options.days ?? 7 } });
  } catch (error) {
    throw new ReportError(unreachable(origin.origin, error));
  }
  // The client answers a network failure with the error and no response.
  if (!answer.response) throw new ReportError(unreachable(origin.origin, answer.error));
  const status = answer.response.status;
  if (status === 401) throw new ReportError(TOKEN_REFUSED);
  if (answer.error || !answer.data) {
    const detail = (answer.error as { detail?: string; title?: string } | undefined) ?? {};
    const why = detail.detail ?? detail.title;
    throw new ReportError(
      `The gate answered HTTP ${status}${why ? `: ${why}` : ''} (is GATE_URL the site with the gate deployed?).`,
    );
  }
  return answer.data;
}

const usd = (value: number) => value.toFixed(2);
const minutes = (value: number) => value.toFixed(1);
const share = (part: number, whole: number) =>
  whole === 0 ? '-' : `${Math.round((part / whole) * 100)}%`;
const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .filter(([, count]) => count > 0)
    .sort(([a, countA], [b, countB]) => countB - countA || a.localeCompare(b))
    .map(([name, count]) => `${name} ${count}`)
    .join(', ') || '-';

function total(days: readonly DayTotals[]): DayTotals {
  const sum = (pick: (day: DayTotals) => number) => days.reduce((acc, day) => acc + pick(day), 0);
  const merge = (pick: (day: DayTotals) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const day of days) {
      for (const [name, count] of Object.entries(pick(day))) out[name] = (out[name] ?? 0) + count;
    }
    return out;
  };
  return {
    day: 'Total',
    calls: sum((day) => day.calls),
    minutes: sum((day) => day.minutes),
    spendUsd: sum((day) => day.spendUsd),
    starts: sum((day) => day.starts),
    waited: sum((day) => day.waited),
    ratings: {
      delighted: sum((day) => day.ratings.delighted),
      content: sum((day) => day.ratings.content),
      displeased: sum((day) => day.ratings.displeased),
      comments: sum((day) => day.ratings.comments),
    },
    refusals: merge((day) => day.refusals),
    failures: merge((day) => day.failures),
    text: {
      chats: sum((day) => day.text.chats),
      turns: sum((day) => day.text.turns),
      fromRecord: sum((day) => day.text.fromRecord),
      spendUsd: sum((day) => day.text.spendUsd),
    },
    hours: Array.from({ length: 24 }, (_, hour) => sum((day) => day.hours[hour] ?? 0)),
  };
}

/**
 * The pace, and the newest day's spend hour by hour beside what the pace had released by the end
 * of each hour: where the day's money went, and whether a burst reached the pace.
 */
function paceLines(report: Report): string[] {
  const { pace, dailyBudgetUsd } = report.limits;
  const lines = [
    pace.releases === 1
      ? 'Pace: none, the whole day is released at 00:00 UTC.'
      : `Pace: ${pace.releases} releases of ${usd(pace.shareUsd)} USD over the UTC day, ${pace.burstShares} ahead of its time; released now ${usd(pace.releasedUsd)} USD.`,
  ];
  const newest = report.days[0];
  if (!newest || newest.hours.every((spent) => spent === 0)) return lines;
  const perHour = pace.releases / 24;
  let spentSoFar = 0;
  const hours = newest.hours.flatMap((spent, hour) => {
    spentSoFar += spent;
    if (spent === 0) return [];
    const shares = Math.ceil((hour + 1) * perHour) + pace.burstShares;
    const released = Math.min(dailyBudgetUsd, shares * pace.shareUsd);
    const clock = String(hour).padStart(2, '0');
    return [`${clock}:00 ${usd(spent)} (${usd(spentSoFar)} of ${usd(released)} released)`];
  });
  return [...lines, `Spend by UTC hour, ${newest.day}: ${hours.join(', ')}.`];
}

/** What one object heard per second: its busiest second, its mean and the total. */
function heard(perSecond: readonly number[]): string {
  const total = perSecond.reduce((sum, n) => sum + n, 0);
  const busiest = perSecond.reduce((most, n) => Math.max(most, n), 0);
  return `${busiest} / ${(total / Math.max(1, perSecond.length)).toFixed(2)} (${total})`;
}

/**
 * What reached the Durable Objects over the last ten minutes: the court, and the busiest desk and
 * shelf (of all of them, the one that heard the most); nothing when the report gave none.
 */
function loadLine(report: Report): string[] {
  const { courtLoad, deskLoad, shelfLoad } = report;
  const parts = [
    ...(courtLoad ? [`court ${heard(courtLoad.requestsPerSecond)}`] : []),
    ...(deskLoad ? [`busiest desk (${deskLoad.object}) ${heard(deskLoad.requestsPerSecond)}`] : []),
    ...(shelfLoad
      ? [`busiest shelf (${shelfLoad.object}) ${heard(shelfLoad.requestsPerSecond)}`]
      : []),
  ];
  if (parts.length === 0) return [];
  return [
    `Requests heard in the last ten minutes, busiest second / mean per second (total): ${parts.join(', ')}.`,
  ];
}

const COLUMNS = [
  'Day',
  'Calls',
  'Minutes',
  'Spend USD',
  'Chats',
  'Replies',
  'From record',
  'Text USD',
  'Starts',
  'Waited',
  'Delighted',
  'Content',
  'Displeased',
  'Comments',
  'Refusals',
  'Failures',
] as const;

/** The report as text: a line of limits, then one row a day (newest first) and a total. */
export function formatReport(report: Report, days: number): string {
  const { limits } = report;
  const head = `Court report, the last ${days} day(s) (UTC): ${limits.maxConcurrentCalls} calls at once, ${limits.dailyBudgetUsd} USD a day at ${limits.costPerMinuteUsd} USD a minute.`;
  if (report.days.length === 0) {
    return [`${head}\n\nNo starts in that time.`, ...loadLine(report)].join('\n');
  }
  const row = (day: DayTotals) => [
    day.day,
    String(day.calls),
    minutes(day.minutes),
    day.day === 'Total' ? usd(day.spendUsd) : `${usd(day.spendUsd)}/${usd(limits.dailyBudgetUsd)}`,
    String(day.text.chats),
    String(day.text.turns),
    String(day.text.fromRecord),
    usd(day.text.spendUsd),
    String(day.starts),
    share(day.waited, day.starts),
    String(day.ratings.delighted),
    String(day.ratings.content),
    String(day.ratings.displeased),
    String(day.ratings.comments),
    counts(day.refusals),
    counts(day.failures),
  ];
  const rows = [
    ...report.days.map(row),
    ...(report.days.length > 1 ? [row(total(report.days))] : []),
  ];
  const widths = COLUMNS.map((name, column) =>
    Math.max(name.length, ...rows.map((cells) => (cells[column] ?? '').length)),
  );
  // Text columns (day, refusals, failures) align left; figures align right.
  const left = new Set([0, COLUMNS.length - 2, COLUMNS.length - 1]);
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        left.has(column) ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [
    head,
    '',
    line(COLUMNS),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    '',
    'Waited: the share of starts that stood in line. Spend: reported cost plus what open calls hold.',
    'Chats, Replies, Text USD: text with Pepa (its spend is part of Spend).',
    "From record: replies to a chat's opening given from Pepa's earlier replies to it that day (no model, no cost).",
    "Failures card-judge-…: quote cards' judgements with no verdict (no card made); their cost is in Spend.",
    '',
    ...paceLines(report),
    ...loadLine(report),
  ].join('\n');
}
