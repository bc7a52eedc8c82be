// @ts-check
// The stand-in for the model engine's endpoint: `POST /model/v1/chat/completions`, streamed, in
// the shapes of openapi/model-chat.json (the part of an OpenAI-compatible chat-completions API
// the gate uses). Each `data:` line is a chunk (`chat.completion.chunk`): the role first, then
// Pepa's words one at a time, an empty delta with the finish reason, and, when the request asks
// with `stream_options.include_usage`, one last chunk with no choices carrying the request's
// usage; then `data: [DONE]`. The usage counts tokens as a quarter of the characters, and prompt
// caching as such endpoints do it: a prompt of 1,024 tokens or more whose start was read before
// has that start (in steps of 128 tokens) reported as cached.
import { randomUUID } from 'node:crypto';
import { send } from './stand-in-http.mjs';
import { CHAT_PRICES, pepaReply } from './stand-in-chat.mjs';

/** Where the endpoint's base URL ends on the stand-in: `<stand-in>/model/v1`. */
export const MODEL_BASE_PATH = '/model/v1';
const COMPLETIONS_PATH = `${MODEL_BASE_PATH}/chat/completions`;

/**
 * The model's own prices, USD per million tokens: `gpt-4o-mini`'s list prices (cached input at
 * half the input price). The stand-in reports tokens; the gate prices them with the owner's
 * settings, and the surge compares the two engines at these.
 */
export const MODEL_PRICES = {
  model: CHAT_PRICES.model,
  inputUsdPerMillion: CHAT_PRICES.promptUsdPerMillion,
  cachedInputUsdPerMillion: CHAT_PRICES.promptUsdPerMillion / 2,
  outputUsdPerMillion: CHAT_PRICES.completionUsdPerMillion,
};

/** Prompts shorter than this are never cached; a cached start grows in steps of `CACHE_STEP`. */
const CACHE_MIN_TOKENS = 1024;
const CACHE_STEP = 128;
const ROLES = new Set(['system', 'user', 'assistant']);

/** @param {string} text */
const tokensOf = (text) => Math.ceil(text.length / 4);

/**
 * Why a request is not one the contract accepts; null when it is.
 * @param {any} body
 */
function refusalOf(body) {
  if (!body || typeof body !== 'object') return 'the body must be a JSON object';
  if (typeof body.model !== 'string' || body.model === '') return 'model is required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return 'messages must be a non-empty list';
  }
  for (const message of body.messages) {
    if (!message || !ROLES.has(message.role) || typeof message.content !== 'string') {
      return 'each message needs a role (system, user or assistant) and a string content';
    }
  }
  const cap = body.max_completion_tokens;
  if (cap !== undefined && (!Number.isInteger(cap) || cap < 1)) {
    return 'max_completion_tokens must be a whole number of at least 1';
  }
  if (body.stream !== true) return 'this stand-in serves streamed completions only';
  return null;
}

/**
 * @param {{
 *   apiKey?: string | null,
 *   latency?: { chatFirstWordMs: number, chatWordMs: number } | null,
 *   log?: (line: string) => void,
 * }} options
 *   `apiKey`: the one key it accepts (any bearer token when null).
 *   `latency`: the field latency model's chat delays (docs/demo-simulator.md), the same as the
 *   provider's chat: the first word after `chatFirstWordMs`, each next one `chatWordMs` later.
 */
export function createModelStandIn({ apiKey = null, latency = null, log = () => {} }) {
  /** Replies being written now: each one's timer for its next chunk. @type {Set<ReturnType<typeof setTimeout>>} */
  const writing = new Set();
  /** Prompt starts read before, by their text: what a later prompt may find cached. */
  const seenStarts = new Set();
  const stats = {
    completions: 0,
    aborted: 0,
    refused: 0,
    promptTokens: 0,
    cachedTokens: 0,
    completionTokens: 0,
    /** Each reply's first words, ms from its request reaching the stand-in. @type {number[]} */
    firstWordMs: [],
  };

  /**
   * @param {string | undefined} method
   * @param {string} path
   */
  function handles(method, path) {
    return method === 'POST' && path === COMPLETIONS_PATH;
  }

  /**
   * The prompt's tokens, and how many of them a cache would hold: the system prompt, when the
   * whole prompt is long enough and that start was read before.
   * @param {{ role: string, content: string }[]} messages
   */
  function promptUsage(messages) {
    const prompt = messages.reduce((sum, message) => sum + tokensOf(message.content) + 4, 0);
    const start = messages[0]?.role === 'system' ? messages[0].content : '';
    const startTokens = tokensOf(start);
    let cached = 0;
    if (prompt >= CACHE_MIN_TOKENS && start && seenStarts.has(start)) {
      cached = Math.min(prompt, Math.floor(startTokens / CACHE_STEP) * CACHE_STEP);
    }
    if (start) seenStarts.add(start);
    return { prompt, cached };
  }

  /**
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {Buffer} raw the request's body
   * @param {number} [receivedAt] when the request reached the stand-in (performance.now())
   */
  function answer(req, res, raw, receivedAt = performance.now()) {
    const authorization = req.headers.authorization ?? '';
    const key = /^Bearer (.+)$/.exec(authorization)?.[1];
    if (!key || (apiKey !== null && key !== apiKey)) {
      stats.refused += 1;
      const error = { message: 'Incorrect API key provided.', type: 'invalid_request_error' };
      return send(res, 401, { error: { ...error, code: 'invalid_api_key' } });
    }
    let body;
    try {
      body = JSON.parse(raw.toString('utf8') || '{}');
    } catch {
      body = null;
    }
    const refusal = refusalOf(body);
    if (refusal !== null) {
      stats.refused += 1;
      return send(res, 400, {
        error: { message: refusal, type: 'invalid_request_error', code: null },
      });
    }
    /** @type {{ role: string, content: string }[]} */
    const messages = body.messages;
    const said = [...messages].reverse().find((message) => message.role === 'user')?.content;
    const turns = messages.filter((message) => message.role === 'assistant').length;
    const cap = Number.isInteger(body.max_completion_tokens) ? body.max_completion_tokens : null;
    let words = pepaReply(said ?? '', turns)
      .split(' ')
      .map((word, index, all) => (index < all.length - 1 ? `${word} ` : word));
    // The model stops at the cap: the words that fit in it, and the finish reason says so.
    let finish = 'stop';
    if (cap !== null) {
      let used = 0;
      const fit = words.findIndex((word) => (used += tokensOf(word)) > cap);
      if (fit !== -1) {
        words = words.slice(0, fit);
        finish = 'length';
      }
    }
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    /** @param {Record<string, unknown>} fields */
    const chunk = (fields) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], ...fields })}\n\n`;
    /** @param {Record<string, unknown>} delta @param {string | null} reason */
    const choice = (delta, reason = null) => [{ index: 0, delta, finish_reason: reason }];
    const usage = promptUsage(messages);
    stats.completions += 1;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
    });
    res.write(chunk({ choices: choice({ role: 'assistant', content: '' }) }));
    let sent = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const schedule = (/** @type {number} */ ms) => {
      timer = setTimeout(() => {
        if (timer !== undefined) writing.delete(timer);
        next();
      }, ms);
      writing.add(timer);
    };
    const next = () => {
      const word = words[sent];
      if (word !== undefined) {
        if (sent === 0) stats.firstWordMs.push(performance.now() - receivedAt);
        res.write(chunk({ choices: choice({ content: word }) }));
        sent += 1;
        schedule(latency ? latency.chatWordMs : 0);
        return;
      }
      timer = undefined;
      const completion = tokensOf(words.join(''));
      stats.promptTokens += usage.prompt;
      stats.cachedTokens += usage.cached;
      stats.completionTokens += completion;
      res.write(chunk({ choices: choice({}, finish) }));
      if (body.stream_options?.include_usage === true) {
        res.write(
          chunk({
            usage: {
              prompt_tokens: usage.prompt,
              completion_tokens: completion,
              total_tokens: usage.prompt + completion,
              prompt_tokens_details: { cached_tokens: usage.cached },
            },
          }),
        );
      }
      res.end('data: [DONE]\n\n');
    };
    schedule(latency ? latency.chatFirstWordMs : 0);
    // The reader went away: the reply stops where it is (an endpoint bills what it wrote).
    res.once('close', () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      writing.delete(timer);
      timer = undefined;
      stats.aborted += 1;
      log(`model reply ${id} stopped after ${sent} of ${words.length} words`);
    });
  }

  return {
    handles,
    answer,
    stats,
    /** How many replies are being written now. */
    get writing() {
      return writing.size;
    },
    /** Stops every reply being written (the server is closing). */
    stop() {
      for (const timer of writing) clearTimeout(timer);
      writing.clear();
    },
  };
}
