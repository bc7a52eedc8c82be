// The surge's report of text with Pepa: its rows of the table and why it fails the run.
import { costPerReply } from './surge-text-costs.mjs';
import { fromRecordShare } from './surge-openings.mjs';
import { percentile } from './surge-measures.mjs';

/** @typedef {ReturnType<typeof import('./surge-measures.mjs').courtLoad>} CourtLoad */

/**
 * @typedef {{
 *   mode: string,
 *   records: import('./surge-text.mjs').TextRecords,
 *   asked: number,
 *   servedFast: number,
 *   engine: string,
 *   standInFirstWord: number[],
 *   standInStopped: number,
 *   costs: import('./surge-text-costs.mjs').TextCosts,
 *   court: CourtLoad,
 *   attacker: import('./surge-text.mjs').TextAttackerRecord,
 *   allowedChats: number,
 *   allowedTurns: number,
 *   textSpend: number,
 *   closed: boolean,
 * }} TextOutcome
 * Text with Pepa in the run: who asked and who heard her within 5 s, the chats, the first words'
 * latency through the gate beside the stand-in's own, the court with text and without, the
 * attacker, and text's share of the spend.
 */

/**
 * @typedef {{
 *   text: TextOutcome,
 *   records: { tally: { arrived: number } },
 *   today: { text?: { fromRecord?: unknown } },
 *   spend: number,
 * }} TextSurge
 * What of a run its text rows and failures read.
 */

/** @param {Record<string, number>} counts */
const byCode = (counts) =>
  Object.entries(counts)
    .sort()
    .map(([code, n]) => `${code}×${n}`)
    .join(' ') || '-';

/** @param {number} part @param {number} whole */
export const percent = (part, whole) =>
  whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`;

/**
 * The text rows of the table.
 * @param {TextSurge} o
 * @returns {[string, string | number][]}
 */
export function textRows(o) {
  const t = o.text;
  const r = t.records;
  const gate = r.firstWordThroughGate;
  return [
    ['Text offered', t.mode],
    ['Asked for Pepa (voice at once, or text)', t.asked],
    [
      'First words within 5 s: of those who asked / of all arrivals',
      `${percent(t.servedFast, t.asked)} / ${percent(t.servedFast, o.records.tally.arrived)}`,
    ],
    ['Text: chats asked / given / refused', `${r.asked} / ${r.chats} / ${byCode(r.refusedStarts)}`],
    [
      'Text: replies / stopped / broke off / refused',
      `${r.turns} / ${r.aborts} / ${r.failedTurns} / ${byCode(r.refusedTurns)}`,
    ],
    [
      "Text: first messages answered from Pepa's earlier replies (no model)",
      fromRecordShare(Number(o.today.text?.fromRecord ?? 0), r.openings + t.attacker.openings),
    ],
    ['Text: cards asked of a reply / answers', `${r.cards.asked} / ${byCode(r.cards.answers)}`],
    ['Replies the stand-in was told to stop (its request aborted)', t.standInStopped],
    [
      'First words through the gate p50 / p95',
      `${percentile(gate, 50).toFixed(0)} / ${percentile(gate, 95).toFixed(0)} ms (${gate.length} replies)`,
    ],
    [
      "The stand-in's own first words p50 / p95",
      `${percentile(t.standInFirstWord, 50).toFixed(0)} / ${percentile(t.standInFirstWord, 95).toFixed(0)} ms`,
    ],
    [
      'Spend today: voice / text',
      `$${Math.max(0, o.spend - t.textSpend).toFixed(2)} / $${t.textSpend.toFixed(2)} (text by ${t.engine})`,
    ],
    [
      "Text per reply: metered / the model's tokens / the provider's chat",
      costPerReply(t.costs, t.textSpend, r.turns),
    ],
    [
      'Court requests/s with text offered / without (mean)',
      t.mode === 'windows'
        ? `${t.court.withFlood.toFixed(1)} / ${t.court.withoutFlood.toFixed(1)}`
        : 'not compared',
    ],
    [
      'Text attacker in one /64: chats / replies / answers',
      `${t.attacker.chats} (allowance ${t.allowedChats}) / ${t.attacker.turns} (allowance ${t.allowedTurns}) / ${byCode(t.attacker.statuses)}`,
    ],
    ["Text attacker on another visitor's chat", byCode(t.attacker.stolen)],
  ];
}

/**
 * Why text fails the run: fewer than 95 % of those who asked heard Pepa within 5 s (on a day the
 * budget did not close), the gate's p95 first words more than 150 ms behind the stand-in's own,
 * text more than doubling the court's load, the attacker past one visitor's allowance, or a
 * message on another visitor's chat answered.
 * @param {TextSurge} o
 */
export function textFailures(o) {
  const t = o.text;
  /** @type {string[]} */
  const failures = [];
  if (t.mode === 'off') return failures;
  if (!t.closed && !(t.servedFast >= 0.95 * t.asked)) {
    failures.push(
      `only ${percent(t.servedFast, t.asked)} of those who asked heard Pepa within 5 s`,
    );
  }
  const gate95 = percentile(t.records.firstWordThroughGate, 95);
  const own95 = percentile(t.standInFirstWord, 95);
  if (t.records.firstWordThroughGate.length > 0 && !(gate95 <= own95 + 150)) {
    failures.push(
      `first words p95 ${gate95.toFixed(0)} ms through the gate, ${own95.toFixed(0)} ms at the stand-in`,
    );
  }
  if (t.mode === 'windows' && !t.court.compared) {
    failures.push('the viral minute was too short to compare the court with text and without');
  } else if (
    t.mode === 'windows' &&
    !(t.court.withFlood <= 2 * Math.max(1, t.court.withoutFlood))
  ) {
    failures.push(
      `text took the court from ${t.court.withoutFlood.toFixed(1)} to ${t.court.withFlood.toFixed(1)} requests/s`,
    );
  }
  if (t.attacker.chats > t.allowedChats) {
    failures.push(`the text attacker got ${t.attacker.chats} chats`);
  }
  // The model engine exists to cost a tenth of the provider's chat for the same replies or less.
  if (t.engine === 'model' && t.costs.modelUsd * 10 > t.costs.providerChatUsd) {
    failures.push("text by the model cost more than a tenth of the provider's chat for it");
  }
  if (t.attacker.turns > t.allowedTurns) {
    failures.push(`the text attacker got ${t.attacker.turns} replies`);
  }
  if ((t.attacker.stolen[200] ?? 0) > 0) {
    failures.push("the text attacker was answered on another visitor's chat");
  }
  return failures;
}
