/**
 * What a text desk keeps and answers with: what is kept of what was said (and how a call is given it), and a refusal as the gate's problem.
 */
import { problem, type ProblemCode } from '../floor/problem';

/** What a chat's record keeps of what was said: its last entries, and no more text than this. */
export const KEPT_ENTRIES = 24;
export const KEPT_CHARS = 6000;

/**
 * A desk's own tables: its chats (what was said, as kept) and each visitor's day of text (chats,
 * turns, money). The turns counted against the caps are caps/turn-caps.ts's.
 */
export function createDeskTables(sql: { exec(query: string): unknown }): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS chats (id TEXT PRIMARY KEY, visitor TEXT NOT NULL,
    created INTEGER NOT NULL, last_at INTEGER NOT NULL, turns INTEGER NOT NULL DEFAULT 0,
    provider_chat TEXT, ended INTEGER NOT NULL DEFAULT 0, said TEXT NOT NULL DEFAULT '[]')`);
  sql.exec(`CREATE INDEX IF NOT EXISTS chats_by_time ON chats (last_at)`);
  sql.exec(`CREATE TABLE IF NOT EXISTS text_days (visitor TEXT NOT NULL, day TEXT NOT NULL,
    chats INTEGER NOT NULL DEFAULT 0, turns INTEGER NOT NULL DEFAULT 0,
    usd REAL NOT NULL DEFAULT 0, PRIMARY KEY (visitor, day))`);
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

/** One entry of a chat (a message of the visitor's or a remark of Pepa's), as the gate recorded it. */
export interface SaidEntry {
  who: 'visitor' | 'pepa';
  text: string;
  /**
   * A remark of Pepa's that finished: its place in the chat, and either the provider's chat that
   * wrote it (whose own record a card reads) or, for the model engine, when the gate relayed it
   * (the desk's record is then the only one, and what streamed through the gate is its words).
   */
  remark?: number;
  providerChat?: string;
  at?: number;
}

/**
 * A chat's record as its row stores it. Rows written before a remark was called one name its
 * place `line`: read as `remark`, so a reply finished before that change can still become a card.
 */
export function readSaid(json: string): SaidEntry[] {
  const entries = JSON.parse(json) as (SaidEntry & { line?: number })[];
  return entries.map(({ line, ...entry }) =>
    line !== undefined && entry.remark === undefined ? { ...entry, remark: line } : entry,
  );
}

/**
 * Pepa's finished reply as the record keeps it: where its words are read from, and what the
 * visitor said before it (oldest first, as far back as the record keeps).
 */
export type KeptReply =
  | { from: 'provider-chat'; providerChat: string; heard: string[] }
  | { from: 'record'; words: string; saidAt: number; heard: string[] };

/** Pepa's reply that is remark `remark`, while the record keeps it. */
export function replyAt(said: readonly SaidEntry[], remark: number): KeptReply | null {
  const at = said.findIndex((entry) => entry.who === 'pepa' && entry.remark === remark);
  const reply = said[at];
  if (!reply) return null;
  const heard = said
    .slice(0, at)
    .filter((entry) => entry.who === 'visitor')
    .map((entry) => entry.text);
  if (reply.providerChat) return { from: 'provider-chat', providerChat: reply.providerChat, heard };
  if (reply.at !== undefined) return { from: 'record', words: reply.text, saidAt: reply.at, heard };
  return null;
}

/** What was said, kept within its bounds: the newest entries, the oldest cut first. */
export function keptEntries(said: readonly SaidEntry[]): SaidEntry[] {
  const kept = said.slice(-KEPT_ENTRIES);
  let chars = kept.reduce((sum, entry) => sum + entry.text.length, 0);
  while (chars > KEPT_CHARS && kept.length > 1) chars -= kept.shift()?.text.length ?? 0;
  const [first] = kept;
  if (first && first.text.length > KEPT_CHARS) first.text = first.text.slice(-KEPT_CHARS);
  return kept;
}

/** At most this much of the encoded chat is handed to a call (escapes can lengthen the text). */
export const HANDED_OVER_CHARS = 9000;

/** One entry of a chat as a call is given it: who said it, and the words as they were. */
export interface HandedOverEntry {
  by: 'visitor' | 'pepa';
  text: string;
}

/**
 * What was said, as a call's assistant is given it: quoted data, never lines of a prompt. A JSON
 * list of `{"by", "text"}`, oldest first, whose texts have every character that could end the
 * prompt's fence or start a template (`<`, `>`, `&`, `{`, `}`) escaped, as JSON escapes quotes and
 * line breaks: nothing a visitor typed can close the list, forge an entry of Pepa's or begin a line
 * of its own. Pepa's entries are the desk's record of her replies; the page sends none of this.
 * The oldest entries are left out first when the encoding would pass `HANDED_OVER_CHARS` (and the
 * newest alone is cut from its start).
 */
export function chatSoFar(said: readonly SaidEntry[]): string {
  const entries: string[] = [];
  let chars = 2;
  for (let i = said.length - 1; i >= 0; i -= 1) {
    const one = said[i];
    if (!one) continue;
    let entry = quotedEntry({ by: one.who, text: one.text });
    if (chars + entry.length + 1 > HANDED_OVER_CHARS) {
      if (entries.length > 0) break;
      entry = newestCut(one);
    }
    entries.unshift(entry);
    chars += entry.length + 1;
  }
  return `[${entries.join(',')}]`;
}

/** Characters JSON leaves as they are that must not appear in the quoted chat. */
const UNQUOTED = /[<>&{}\u2028\u2029]/g;

function quotedEntry(entry: HandedOverEntry): string {
  const text = JSON.stringify(entry.text).replace(
    UNQUOTED,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `{"by":${JSON.stringify(entry.by)},"text":${text}}`;
}

/** The newest entry alone, its end kept (whole characters) within the bound. */
function newestCut(newest: SaidEntry): string {
  let characters = Array.from(newest.text);
  let entry = quotedEntry({ by: newest.who, text: newest.text });
  while (entry.length + 3 > HANDED_OVER_CHARS && characters.length > 0) {
    characters = characters.slice(Math.ceil(characters.length / 8));
    entry = quotedEntry({ by: newest.who, text: characters.join('') });
  }
  return entry;
}
