/**
 * The model engine's side of text: Pepa's reply streamed straight from an OpenAI-compatible
 * chat-completions endpoint (openapi/model-chat.json, through its generated client), with her
 * voice's model, limit and prompt (generated/pepa-chat.ts), and metered from the usage the stream
 * reports at the owner's prices per million tokens. The same bounded, jittered retries of "not
 * now" answers as the provider's chat (provider-chat.ts), and the same failures.
 */
import * as v from 'valibot';
import { createClient, createConfig } from '../../../generated/model/client';
import type {
  ChatCompletionRequest,
  ChatMessage,
  CompletionUsage,
} from '../../../generated/model/types.gen';
import { vChatCompletionChunk, vErrorResponse } from '../../../generated/model/valibot.gen';
import { PEPA_CHAT } from '../../../generated/pepa-chat';
import { openTurn, realClock, type TurnOpening, type RetryClock } from '../floor/turn-retries';

/** The endpoint when the owner names none: OpenAI's own. */
export const MODEL_API = 'https://api.openai.com/v1';

/** What the owner pays the endpoint, in USD per million tokens. */
export interface ModelPrices {
  input: number;
  /** Prompt tokens the endpoint read from its prompt cache. */
  cachedInput: number;
  output: number;
}

export interface ModelSettings {
  apiUrl: string;
  apiKey: string;
  prices: ModelPrices;
}

/** One message of the conversation so far, as the desk keeps it. */
export interface SaidBefore {
  who: 'visitor' | 'pepa';
  text: string;
}

/**
 * The turn's request: Pepa's prompt, what was said before (oldest first), then the visitor's
 * words; her voice's model and temperature, her reply capped at her voice's token limit, the
 * usage asked for at the stream's end. `user` is the visitor's opaque key, for the endpoint's
 * abuse monitoring (never an address).
 */
export function modelRequest(
  before: readonly SaidBefore[],
  input: string,
  user: string,
): ChatCompletionRequest {
  const messages: ChatMessage[] = [{ role: 'system', content: PEPA_CHAT.systemPrompt }];
  for (const entry of before) {
    messages.push({ role: entry.who === 'pepa' ? 'assistant' : 'user', content: entry.text });
  }
  messages.push({ role: 'user', content: input });
  return {
    model: PEPA_CHAT.model,
    messages,
    temperature: PEPA_CHAT.temperature,
    max_completion_tokens: PEPA_CHAT.maxCompletionTokens,
    stream: true,
    stream_options: { include_usage: true },
    user,
  };
}

/** What a message's framing may add beyond its words (role and separators), in tokens. */
const MESSAGE_FRAME_TOKENS = 8;

/**
 * The most a turn can cost at the owner's prices: every byte of the prompt counted as a token (a
 * tokenizer over bytes never makes a token of less than one, and one that falls back to bytes
 * makes one a byte), none of it read from the cache, and the whole completion cap written. What
 * is reserved for the reply follows what is asked: a greeting holds a fraction of what a long
 * chat does, and never less than it can cost.
 */
export function worstTurnUsd(request: ChatCompletionRequest, prices: ModelPrices): number {
  const bytes = new TextEncoder();
  let prompt = 0;
  for (const message of request.messages) {
    prompt += bytes.encode(message.content).length + MESSAGE_FRAME_TOKENS;
  }
  const completion = request.max_completion_tokens ?? PEPA_CHAT.maxCompletionTokens;
  return (prompt * prices.input + completion * prices.output) / 1e6;
}

function clientFor(settings: ModelSettings) {
  return createClient(
    createConfig({
      baseUrl: settings.apiUrl.replace(/\/+$/, ''),
      auth: () => settings.apiKey,
    }),
  );
}

/**
 * Whether an error answer says the account cannot pay (OpenAI answers 429 with the code
 * `insufficient_quota`; others 402): no retry will help today.
 */
function cannotPay(status: number, body: unknown): boolean {
  if (status === 402) return true;
  const error = v.safeParse(vErrorResponse, body);
  return status === 429 && error.success && error.output.error.code === 'insufficient_quota';
}

/**
 * `POST /chat/completions` streamed: the reply's event stream, or why there is none. `signal` is
 * the visitor's: aborting it ends the endpoint's request at once.
 */
export function openModelStream(
  settings: ModelSettings,
  body: ChatCompletionRequest,
  signal: AbortSignal,
  clock: RetryClock = realClock,
): Promise<TurnOpening> {
  const client = clientFor(settings);
  return openTurn(
    // The plain client rather than the generated SSE helper: that one would retry a broken stream
    // by itself (a second bill) and hides the status and Retry-After the retries read.
    (tried) =>
      client.post({
        url: '/chat/completions',
        security: [{ scheme: 'bearer', type: 'http' }],
        headers: { 'Content-Type': 'application/json' },
        body,
        parseAs: 'stream',
        signal: tried,
      }),
    cannotPay,
    signal,
    clock,
  );
}

/** What one `data:` line of the model's stream adds. */
export interface ModelPiece {
  /** The completion's id, on every chunk. */
  id: string | null;
  /** Pepa's next words, if this chunk has some. */
  words: string;
  /** The request's usage: only on the last chunk. */
  usage: CompletionUsage | null;
}

/** A chunk of the stream read and checked against the contract; null when it is not one. */
export function modelPiece(data: string): ModelPiece | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const chunk = v.safeParse(vChatCompletionChunk, json);
  if (!chunk.success) return null;
  const words = chunk.output.choices
    .filter((choice) => choice.index === 0)
    .map((choice) => choice.delta.content ?? '')
    .join('');
  return { id: chunk.output.id || null, words, usage: chunk.output.usage ?? null };
}

/**
 * What a reply cost at the owner's prices: cached prompt tokens at the cached price, the rest of
 * the prompt at the input price, the completion at the output price. Null when the usage does not
 * add up (cached tokens beyond the prompt): such a report is not trusted, and the worst case is
 * charged instead.
 */
export function usageCostUsd(usage: CompletionUsage, prices: ModelPrices): number | null {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  if (cached > usage.prompt_tokens) return null;
  const usd =
    ((usage.prompt_tokens - cached) * prices.input +
      cached * prices.cachedInput +
      usage.completion_tokens * prices.output) /
    1e6;
  return Number.isFinite(usd) && usd >= 0 ? usd : null;
}
