/**
 * The card judge: one call to the provider's chat (the text engine Pepa's text replies use), with
 * a fixed rubric, asks a model whether a remark that passed every structural check means harm in
 * any language: a promise of price or return, an instruction to send funds or connect a wallet,
 * seeking contact off the site, or impersonation. Patterns read spelling; the judge reads
 * meaning.
 *
 * The remark travels as data between marks named by a random nonce, so words inside it cannot close
 * the quotation; the answer must be one of a handful of exact forms, and anything else (an
 * explanation, a refusal to answer, words a remark talked the model into) is no verdict: no card.
 */
import { chatControllerCreateChat } from '../../../../generated/sdk.gen';
import { clientFor, type ProviderChatSettings } from '../../provider/provider-chat';
import { judgeRequest, parseVerdict, type HarmKind } from './card-judge-prompt';

export {
  JUDGE_MAX_TOKENS,
  JUDGE_RUBRIC,
  JUDGE_RUBRIC_ID,
  judgeInput,
  judgeRequest,
  lineMarks,
  parseVerdict,
  type HarmKind,
} from './card-judge-prompt';

/** How long the judge may take to answer; past it, no card. */
export const JUDGE_TIMEOUT_MS = 8_000;

/** Why the judge gave no verdict. */
export type JudgeFailure = 'error' | 'timeout' | 'unparsable';

export type JudgeAnswer =
  | { kind: 'allow'; costUsd: number | null }
  | { kind: 'refuse'; harm: HarmKind; costUsd: number | null }
  | { kind: 'failed'; failure: JudgeFailure; costUsd: number | null };

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** What the provider said the judgement cost, when it said. */
function costOf(chat: Record<string, unknown> | null): number | null {
  const cost = chat?.cost;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null;
}

/** The judge's words in a chat the provider answered: its assistant output. */
function answerOf(chat: Record<string, unknown> | null): string | null {
  const output = Array.isArray(chat?.output) ? chat.output : [];
  const said = output
    .map(record)
    .filter((message) => message?.role === 'assistant' && typeof message.content === 'string')
    .map((message) => String(message?.content));
  return said.length === 1 ? (said[0] ?? null) : null;
}

/** A random nonce for the remark's marks. */
function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Asks the judge about `words`; never throws. A timeout, a fault or an answer that is not one of
 * the valid forms is a failure, with what it cost when the provider said.
 */
export async function askJudge(
  settings: ProviderChatSettings,
  words: string,
): Promise<JudgeAnswer> {
  const stop = new AbortController();
  // A timer rather than AbortSignal.timeout, so a test's fake clock can run the bound out.
  const timer = setTimeout(() => stop.abort(), JUDGE_TIMEOUT_MS);
  try {
    const answer = await chatControllerCreateChat({
      client: clientFor(settings),
      body: judgeRequest(words, newNonce()),
      signal: stop.signal,
    });
    const chat = record(answer.data);
    const costUsd = costOf(chat);
    if (!answer.response?.ok || !chat) {
      // The client answers a failed fetch (an abort too) without throwing.
      return { kind: 'failed', failure: stop.signal.aborted ? 'timeout' : 'error', costUsd };
    }
    const said = answerOf(chat);
    const verdict = said === null ? null : parseVerdict(said);
    if (!verdict) return { kind: 'failed', failure: 'unparsable', costUsd };
    return { ...verdict, costUsd };
  } catch {
    return { kind: 'failed', failure: stop.signal.aborted ? 'timeout' : 'error', costUsd: null };
  } finally {
    clearTimeout(timer);
  }
}
