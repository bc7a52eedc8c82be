/**
 * What a text desk keeps and answers with: which desk a visitor's chats live on, what is kept of
 * what was said (and how a call is given it), and a refusal as the gate's problem.
 */
import { problem, type ProblemCode } from './problem';
import type { Visitor } from './visitor';

/** How many desks share the site's text. */
export const TEXT_DESKS = 32;

/** What a chat's record keeps of what was said: its last lines, and no more text than this. */
export const KEPT_LINES = 24;
export const KEPT_CHARS = 6000;

/** The desk of a visitor: by their network, so their neighbours share it. */
export function deskFor(visitor: Visitor): string {
  const network = visitor.networks[0] ?? visitor.key;
  const hex = /[0-9a-f]{2}/.exec(network.replace(/^[a-z0-9]+:/, ''))?.[0] ?? '00';
  return `desk-${parseInt(hex, 16) % TEXT_DESKS}`;
}

export interface TextRefusal {
  code: ProblemCode;
  detail?: string;
  retryAfterSeconds?: number;
  reopensAt?: string;
}

export function refusalResponse(refusal: TextRefusal): Response {
  const { code, ...extra } = refusal;
  return problem(code, extra);
}

/** One line of a chat, as the gate recorded it. */
export interface SaidLine {
  who: 'visitor' | 'pepa';
  text: string;
  /** A reply of Pepa's that finished: its place in the chat, and the provider's chat it was. */
  line?: number;
  providerChat?: string;
}

/** The provider's chat that wrote Pepa's reply in `line`, while the record keeps it. */
export function replyAt(lines: readonly SaidLine[], line: number): string | null {
  const said = lines.find((entry) => entry.who === 'pepa' && entry.line === line);
  return said?.providerChat ?? null;
}

/** What was said, kept within its bounds: the newest lines, the oldest cut first. */
export function keptLines(lines: readonly SaidLine[]): SaidLine[] {
  const kept = lines.slice(-KEPT_LINES);
  let chars = kept.reduce((sum, line) => sum + line.text.length, 0);
  while (chars > KEPT_CHARS && kept.length > 1) chars -= kept.shift()?.text.length ?? 0;
  const [first] = kept;
  if (first && first.text.length > KEPT_CHARS) first.text = first.text.slice(-KEPT_CHARS);
  return kept;
}

/** What was said, as the call's assistant is given it. */
export function chatSoFar(lines: readonly SaidLine[]): string {
  return lines.map((line) => `${line.who === 'pepa' ? 'Pepa' : 'Guest'}: ${line.text}`).join('\n');
}
