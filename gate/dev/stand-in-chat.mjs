// @ts-check
// The provider stand-in's chat: `POST /chat` (whole, or streamed as server-sent events),
// `GET /chat/{id}` with the chat's cost, and `POST /session` / `GET /session/{id}`, in the shapes
// of the provider's published document (`Chat`, `ChatCost`, `ModelCost`,
// `CreateChatStreamResponse`, `Session`). Prism has already validated the request against the
// vendored spec when these run; what Prism cannot do (keep chats, continue one, stream its words,
// price it) is done here.
//
// As the provider documents its chat (POST /chat with stream: true): a stream is `data:` lines
// only, each `{ id, path: "chat.output[0].content", delta }`, ended by `data: [DONE]`; no event
// carries the cost, which `GET /chat/{id}` gives once the reply is complete; `previousChatId` and
// `sessionId` cannot be sent together; a chat's `output` is what the model said for that request,
// its `messages` the history it was given plus that output.
import { randomUUID } from 'node:crypto';
import { send } from './stand-in-http.mjs';
import { judgedWords, standInVerdict } from './stand-in-judge.mjs';

const CHAT_PATH = /^\/chat\/([^/?]+)$/;
const SESSION_PATH = /^\/session\/([^/?]+)$/;

/** Where a streamed reply's words go in the chat, as every chunk names it. */
export const STREAM_PATH = 'chat.output[0].content';

/** A session's default life, as the provider documents it: 24 hours. */
const SESSION_SECONDS = 24 * 60 * 60;

/**
 * What a turn costs: the model's tokens (a small model's prices per million tokens) and the
 * provider's per-chat fee (USD 0.005, a third-party price list's figure; the provider states
 * none). Tokens are counted as a quarter of the characters, the usual rule of thumb for English.
 */
export const CHAT_PRICES = {
  model: 'gpt-4o-mini',
  promptUsdPerMillion: 0.15,
  completionUsdPerMillion: 0.6,
  chatFeeUsd: 0.005,
  /** Tokens of the assistant's own prompt, sent with every turn. */
  systemPromptTokens: 900,
};

/**
 * Pepa's replies by text: shorter than her spoken ones, the same court and the same rules (no
 * financial advice, the contract address only from the site).
 */
const REPLIES = [
  {
    asks: /\b(buy|price|moon|pump|invest|100x|worth)\b/i,
    reply:
      "A royal frog never gives financial advice. $PEPA is a meme token, made for fun: only spend what you'd happily lose.",
  },
  {
    asks: /\b(contract|address|mint|token address)\b/i,
    reply: 'Copy the address from the card on this site, never from a stranger in my messages.',
  },
  {
    asks: /\b(stake|staking|pond)\b/i,
    reply: 'Staking opens in my pond soon. The lily pads are already warm.',
  },
];
const SMALL_TALK = [
  'Ribbit! A fine question for a fine guest. In my court, every frog is royalty.',
  'The meme stream flows strong today, my friend. Ask me about the pond or the lounge.',
  'Stay a while. The lily pads are warm and the gossip is fresh.',
];

/**
 * @typedef {{ role: string, content: string }} ChatMessage
 * @typedef {{
 *   id: string, orgId: string, assistantId?: string, name?: string, sessionId?: string,
 *   previousChatId?: string, input: string | ChatMessage[], messages: ChatMessage[],
 *   output: ChatMessage[], cost: number, costs: Array<Record<string, unknown>>,
 *   createdAt: string, updatedAt: string,
 * }} StandInChat
 * @typedef {{
 *   id: string, orgId: string, assistantId?: string, name?: string, status: 'active',
 *   expirationSeconds: number, createdAt: string, updatedAt: string, chats: string[],
 * }} StandInSession
 */

/** @param {number} usd */
const roundUsd = (usd) => Math.round(usd * 1e6) / 1e6;

/** @param {string} text */
const tokensOf = (text) => Math.ceil(text.length / 4);

/**
 * The turn's price, as the provider itemises it.
 * @param {ChatMessage[]} prompt everything the model read
 * @param {string} completion what it wrote
 * @param {number} [systemTokens] the assistant's own prompt: Pepa's unless another was sent
 */
export function priceTurn(prompt, completion, systemTokens = CHAT_PRICES.systemPromptTokens) {
  const promptTokens =
    systemTokens + prompt.reduce((sum, message) => sum + tokensOf(message.content), 0);
  const completionTokens = tokensOf(completion);
  const modelCost = roundUsd(
    (promptTokens * CHAT_PRICES.promptUsdPerMillion +
      completionTokens * CHAT_PRICES.completionUsdPerMillion) /
      1e6,
  );
  const costs = [
    {
      type: 'model',
      model: { provider: 'openai', model: CHAT_PRICES.model },
      promptTokens,
      completionTokens,
      cost: modelCost,
    },
    { type: 'chat', cost: CHAT_PRICES.chatFeeUsd },
  ];
  return { cost: roundUsd(modelCost + CHAT_PRICES.chatFeeUsd), costs };
}

/**
 * Pepa's reply to what the visitor last said.
 * @param {string} said
 * @param {number} turn how many replies the conversation has had
 */
export function pepaReply(said, turn) {
  const cued = REPLIES.find(({ asks }) => asks.test(said));
  return cued ? cued.reply : (SMALL_TALK[turn % SMALL_TALK.length] ?? '');
}

/**
 * @param {unknown} input the request's `input`: a string, or messages
 * @returns {ChatMessage[] | null} null when it is neither
 */
function inputMessages(input) {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return null;
  /** @type {ChatMessage[]} */
  const messages = [];
  for (const item of input) {
    if (!item || typeof item.role !== 'string' || typeof item.content !== 'string') return null;
    messages.push({ role: item.role, content: item.content });
  }
  return messages;
}

/**
 * @param {{
 *   orgId?: string,
 *   latency?: { chatFirstWordMs: number, chatWordMs: number } | null,
 *   log?: (line: string) => void,
 * }} options
 *   `orgId`: the organisation its chats and sessions belong to.
 *   `latency`: the field latency model's chat delays (docs/demo-simulator.md): a streamed reply's
 *   first word after `chatFirstWordMs`, each next one `chatWordMs` later; a whole reply after
 *   all of it.
 */
export function createChatStandIn({ orgId = 'pepa-demo-org', latency = null, log = () => {} }) {
  /** @type {Map<string, StandInChat>} */
  const chats = new Map();
  /** @type {Map<string, StandInSession>} */
  const sessions = new Map();
  /**
   * Replies being written now: each chat's timer for its next word, or for a whole reply.
   * @type {Map<string, ReturnType<typeof setTimeout>>}
   */
  const streaming = new Map();
  const stats = {
    chats: 0,
    streamed: 0,
    aborted: 0,
    sessions: 0,
    /** Each streamed reply's first words, ms from its request reaching the stand-in. */
    /** @type {number[]} */
    firstWordMs: [],
  };

  /**
   * Whether a request is one this module answers.
   * @param {string | undefined} method
   * @param {string} path
   */
  function handles(method, path) {
    return (
      (method === 'POST' && (path === '/chat' || path === '/session')) ||
      (method === 'GET' && (CHAT_PATH.test(path) || SESSION_PATH.test(path)))
    );
  }

  /**
   * The history a new chat continues: the previous chat's messages, or the session's chats'.
   * @param {any} body
   * @returns {{ history: ChatMessage[] } | { status: number, message: string }}
   */
  function historyFor(body) {
    if (body.previousChatId !== undefined && body.sessionId !== undefined) {
      return { status: 400, message: 'Send either previousChatId or sessionId, not both.' };
    }
    if (body.previousChatId !== undefined) {
      const previous = chats.get(String(body.previousChatId));
      if (!previous) return { status: 404, message: 'Previous chat not found' };
      return { history: previous.messages };
    }
    if (body.sessionId !== undefined) {
      const session = sessions.get(String(body.sessionId));
      if (!session) return { status: 404, message: 'Session not found' };
      const last = session.chats.at(-1);
      return { history: last ? (chats.get(last)?.messages ?? []) : [] };
    }
    return { history: [] };
  }

  /**
   * @param {import('node:http').ServerResponse} res
   * @param {any} body
   * @param {number} receivedAt when the request reached the stand-in (performance.now())
   */
  function createChat(res, body, receivedAt) {
    const input = inputMessages(body?.input);
    if (!input || input.length === 0) {
      return send(res, 400, { message: 'input must be a string or a list of messages' });
    }
    const found = historyFor(body);
    if ('status' in found) return send(res, found.status, { message: found.message });
    const prompt = [...found.history, ...input];
    const said = [...input].reverse().find((message) => message.role === 'user')?.content ?? '';
    const turns = prompt.filter((message) => message.role === 'assistant').length;
    // A quote card's judge (a transient assistant with the judge's rubric) answers in its place.
    const judged = judgedWords(body);
    const rubric = judged === null ? null : String(body.assistant.model.messages[0].content);
    const reply = judged === null ? pepaReply(said, turns) : standInVerdict(judged);
    const now = new Date().toISOString();
    /** @type {StandInChat} */
    const chat = {
      id: randomUUID(),
      orgId,
      ...(typeof body.assistantId === 'string' ? { assistantId: body.assistantId } : {}),
      ...(typeof body.name === 'string' ? { name: body.name } : {}),
      ...(typeof body.sessionId === 'string' ? { sessionId: body.sessionId } : {}),
      ...(typeof body.previousChatId === 'string' ? { previousChatId: body.previousChatId } : {}),
      input: body.input,
      messages: prompt,
      output: [],
      cost: 0,
      costs: [],
      createdAt: now,
      updatedAt: now,
    };
    /** Stores the chat with what Pepa said of her reply by now, priced for that. */
    const complete = (/** @type {string} */ spoken) => {
      const output = [{ role: 'assistant', content: spoken }];
      const price =
        rubric === null ? priceTurn(prompt, spoken) : priceTurn(prompt, spoken, tokensOf(rubric));
      Object.assign(chat, price, {
        output,
        messages: [...prompt, ...output],
        updatedAt: new Date().toISOString(),
      });
      chats.set(chat.id, chat);
      if (chat.sessionId) sessions.get(chat.sessionId)?.chats.push(chat.id);
    };
    stats.chats += 1;
    const words = reply
      .split(' ')
      .map((word, index, all) => (index < all.length - 1 ? `${word} ` : word));
    if (body.stream !== true) {
      const wait = latency ? latency.chatFirstWordMs + latency.chatWordMs * (words.length - 1) : 0;
      const timer = setTimeout(() => {
        streaming.delete(chat.id);
        complete(reply);
        send(res, 200, chat);
      }, wait);
      streaming.set(chat.id, timer);
      res.once('close', () => {
        if (!streaming.has(chat.id)) return;
        clearTimeout(timer);
        streaming.delete(chat.id);
        stats.aborted += 1;
      });
      return;
    }

    stats.streamed += 1;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
    });
    let sent = 0;
    let written = '';
    const next = () => {
      const word = words[sent];
      if (word === undefined) {
        streaming.delete(chat.id);
        complete(reply);
        res.end('data: [DONE]\n\n');
        return;
      }
      if (sent === 0) stats.firstWordMs.push(performance.now() - receivedAt);
      const chunk = {
        id: chat.id,
        path: STREAM_PATH,
        delta: word,
        ...(chat.sessionId ? { sessionId: chat.sessionId } : {}),
      };
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      written += word;
      sent += 1;
      streaming.set(chat.id, setTimeout(next, latency ? latency.chatWordMs : 0));
    };
    streaming.set(chat.id, setTimeout(next, latency ? latency.chatFirstWordMs : 0));
    // The reader went away: the reply stops where it is, and the chat keeps what was said.
    res.once('close', () => {
      const timer = streaming.get(chat.id);
      if (timer === undefined) return;
      clearTimeout(timer);
      streaming.delete(chat.id);
      stats.aborted += 1;
      complete(written);
      log(`chat ${chat.id} stopped after ${sent} of ${words.length} words`);
    });
  }

  /**
   * @param {import('node:http').ServerResponse} res
   * @param {any} body
   */
  function createSession(res, body) {
    const now = new Date().toISOString();
    const expirationSeconds = Number.isInteger(body?.expirationSeconds)
      ? Number(body.expirationSeconds)
      : SESSION_SECONDS;
    /** @type {StandInSession} */
    const session = {
      id: randomUUID(),
      orgId,
      ...(typeof body?.assistantId === 'string' ? { assistantId: body.assistantId } : {}),
      ...(typeof body?.name === 'string' ? { name: body.name } : {}),
      status: 'active',
      expirationSeconds,
      createdAt: now,
      updatedAt: now,
      chats: [],
    };
    sessions.set(session.id, session);
    stats.sessions += 1;
    const { chats: _chats, ...answer } = session;
    return send(res, 201, answer);
  }

  /**
   * Answers a request `handles` accepted; Prism has validated it.
   * @param {import('node:http').ServerResponse} res
   * @param {string} path
   * @param {Buffer} raw the request's body
   * @param {string | undefined} method
   * @param {number} [receivedAt] when the request reached the stand-in (performance.now())
   */
  function answer(res, path, raw, method, receivedAt = performance.now()) {
    if (method === 'GET') {
      const chatId = CHAT_PATH.exec(path)?.[1];
      if (chatId !== undefined) {
        const chat = chats.get(decodeURIComponent(chatId));
        if (!chat) return send(res, 404, { message: 'Chat not found', statusCode: 404 });
        return send(res, 200, chat);
      }
      const session = sessions.get(decodeURIComponent(SESSION_PATH.exec(path)?.[1] ?? ''));
      if (!session) return send(res, 404, { message: 'Session not found', statusCode: 404 });
      const { chats: _chats, ...found } = session;
      return send(res, 200, found);
    }
    let body;
    try {
      body = JSON.parse(raw.toString('utf8') || '{}');
    } catch {
      return send(res, 400, { message: 'The body must be JSON' });
    }
    return path === '/session' ? createSession(res, body) : createChat(res, body, receivedAt);
  }

  return {
    handles,
    answer,
    stats,
    chats,
    /** How many replies are being written now. */
    get writing() {
      return streaming.size;
    },
    /** Stops every reply being written (the server is closing). */
    stop() {
      for (const timer of streaming.values()) clearTimeout(timer);
      streaming.clear();
    },
  };
}
