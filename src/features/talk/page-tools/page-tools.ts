/**
 * Pepa's client-side tools: what the provider's `tool-calls` messages may ask the page to do, read
 * against an allowlist. Pure: the page's actions live in page-actions.ts.
 */
import type { ServerMessage } from '../../../lib/call';
import { isRecord } from '../../../lib/is-record';

/** The sections Pepa may show, by their element id. */
export const PAGE_SECTIONS = ['home', 'talk', 'pond', 'stream', 'lounge', 'grotto'] as const;
export type PageSection = (typeof PAGE_SECTIONS)[number];

/** How each section is named to Pepa when she is told what the visitor sees. */
export const SECTION_NAMES: Record<PageSection, string> = {
  home: 'the top of the page (the hero)',
  talk: 'the Talk to Pepa panel',
  pond: "Pepa's Pond (staking, coming soon)",
  stream: 'The Meme Stream (coming soon)',
  lounge: 'The Vanity Lounge (events, coming soon)',
  grotto: 'The Secret Grotto (coming soon)',
};

/** One tool call the page carries out. */
export type PageToolCall =
  | { id: string; name: 'show_section'; section: PageSection }
  | { id: string; name: 'show_contract' }
  | { id: string; name: 'show_buy' };

export type PageToolName = PageToolCall['name'];

/** Where dropped calls are told (debug level: they are expected, never an error). */
export interface ToolLog {
  debug?(message: string, ...details: unknown[]): void;
}

/** The provider sends arguments as a JSON string; older payloads carry an object. */
function readArguments(raw: unknown): Record<string, unknown> | null {
  if (raw === undefined) return {};
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string') return null;
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function isSection(value: unknown): value is PageSection {
  return typeof value === 'string' && (PAGE_SECTIONS as readonly string[]).includes(value);
}

/** A short, safe label for a log line: never the arguments, which could hold anything. */
function nameForLog(name: unknown): string {
  return typeof name === 'string' ? name.slice(0, 40) : typeof name;
}

/** Reads one entry of `toolCallList`; null (and a debug line) for anything not allowed. */
function readToolCall(entry: unknown, log: ToolLog): PageToolCall | null {
  const fn = isRecord(entry) && isRecord(entry.function) ? entry.function : null;
  if (!isRecord(entry) || !fn) {
    log.debug?.('Dropped a tool call without a function');
    return null;
  }
  const id = typeof entry.id === 'string' ? entry.id : '';
  const args = readArguments(fn.arguments);
  if (args === null) {
    log.debug?.('Dropped a tool call whose arguments do not parse', nameForLog(fn.name));
    return null;
  }
  const extra = (allowed: readonly string[]) =>
    Object.keys(args).some((key) => !allowed.includes(key));
  switch (fn.name) {
    case 'show_section':
      if (!isSection(args.section) || extra(['section'])) {
        log.debug?.('Dropped a tool call with arguments outside the allowlist', 'show_section');
        return null;
      }
      return { id, name: 'show_section', section: args.section };
    case 'show_contract':
    case 'show_buy':
      if (extra([])) {
        log.debug?.('Dropped a tool call with arguments outside the allowlist', fn.name);
        return null;
      }
      return { id, name: fn.name };
    default:
      log.debug?.('Dropped a call to a tool the page does not have', nameForLog(fn.name));
      return null;
  }
}

/**
 * The page's tool calls in a server message: the allowed ones, in order. Anything else in a
 * `tool-calls` message is dropped with a debug line; other messages give none.
 */
export function readPageToolCalls(message: ServerMessage, log: ToolLog): PageToolCall[] {
  if (message.type !== 'tool-calls') return [];
  const list = message.toolCallList;
  if (!Array.isArray(list)) {
    log.debug?.('Dropped a tool-calls message without a toolCallList');
    return [];
  }
  return list.flatMap((entry) => {
    const call = readToolCall(entry, log);
    return call ? [call] : [];
  });
}

/**
 * What Pepa is told, silently, after the page acted: what the visitor now sees, so she can speak
 * to it. Never triggers a reply.
 */
export function visitorSeesNote(call: PageToolCall): string {
  switch (call.name) {
    case 'show_section':
      return `[The page scrolled to ${SECTION_NAMES[call.section]}; the visitor now sees it.]`;
    case 'show_contract':
      return '[The page shows the visitor the official contract address in a card from the site, with a Copy button. Do not read the address aloud; point to the card.]';
    case 'show_buy':
      return '[The page shows the visitor a Buy $PEPA button in the panel; nothing opens until they press it. Remind them it is a meme token and not advice.]';
  }
}
