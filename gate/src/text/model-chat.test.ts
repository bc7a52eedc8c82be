import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { vChatCompletionRequest } from '../../../generated/model/valibot.gen';
import { PEPA_CHAT } from '../../../generated/pepa-chat';
import {
  modelPiece,
  modelRequest,
  openModelStream,
  usageCostUsd,
  worstTurnUsd,
  type ModelSettings,
} from './model-chat';
import { TURN_ATTEMPTS, type RetryClock } from '../floor/turn-retries';

const settings: ModelSettings = {
  apiUrl: 'https://model.test/v1/',
  apiKey: 'sk-test',
  prices: { input: 0.15, cachedInput: 0.075, output: 0.6 },
};

/** A clock whose pauses are recorded and pass at once. */
function recordingClock(): RetryClock & { slept: number[] } {
  const slept: number[] = [];
  return { slept, sleep: async (ms) => void slept.push(ms), random: () => 1 };
}

/** The endpoint as a stubbed fetch answering `answers` in order; what it was asked, recorded. */
function endpoint(answers: (() => Response)[]) {
  const asked: { url: string; authorization: string | null; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      asked.push({
        url: request.url,
        authorization: request.headers.get('authorization'),
        body: await request.json(),
      });
      const answer = answers.shift();
      if (!answer) throw new TypeError('fetch failed');
      return answer();
    }),
  );
  return asked;
}

const streamed = () =>
  new Response('data: {}\n\n', { status: 200, headers: { 'content-type': 'text/event-stream' } });
const refusal =
  (status: number, code: string | null, headers: Record<string, string> = {}) =>
  () =>
    Response.json({ error: { message: 'no', type: 'x', code } }, { status, headers });

const chunk = (fields: Record<string, unknown>) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [],
    ...fields,
  });

describe("the model engine's request", () => {
  it("is Pepa's prompt, what was said before in order, then the visitor's words", () => {
    const body = modelRequest(
      [
        { who: 'visitor', text: 'gm' },
        { who: 'pepa', text: 'Ribbit, gm!' },
      ],
      'wen moon',
      'v:abc',
    );
    expect(body.messages).toEqual([
      { role: 'system', content: PEPA_CHAT.systemPrompt },
      { role: 'user', content: 'gm' },
      { role: 'assistant', content: 'Ribbit, gm!' },
      { role: 'user', content: 'wen moon' },
    ]);
    expect(v.safeParse(vChatCompletionRequest, body).success).toBe(true);
  });

  it("uses her voice's model, caps the reply at her voice's token limit and asks for the usage", () => {
    const body = modelRequest([], 'hi', 'v:abc');
    expect(body).toMatchObject({
      model: PEPA_CHAT.model,
      temperature: PEPA_CHAT.temperature,
      max_completion_tokens: PEPA_CHAT.maxCompletionTokens,
      stream: true,
      stream_options: { include_usage: true },
      user: 'v:abc',
    });
    expect(PEPA_CHAT.maxCompletionTokens).toBeLessThanOrEqual(150);
  });
});

describe("a chunk of the model's stream", () => {
  it('gives the words of the first choice', () => {
    const piece = modelPiece(
      chunk({
        choices: [
          { index: 0, delta: { content: 'Ribbit' }, finish_reason: null },
          { index: 1, delta: { content: 'other' }, finish_reason: null },
        ],
      }),
    );
    expect(piece).toEqual({ id: 'chatcmpl-1', words: 'Ribbit', usage: null });
  });

  it('gives the usage of the last chunk, which has no choices', () => {
    const usage = {
      prompt_tokens: 1500,
      completion_tokens: 90,
      total_tokens: 1590,
      prompt_tokens_details: { cached_tokens: 1024 },
    };
    expect(modelPiece(chunk({ usage }))).toEqual({ id: 'chatcmpl-1', words: '', usage });
  });

  it('is nothing when it is not JSON or not a chunk of the contract', () => {
    expect(modelPiece('[DONE]')).toBeNull();
    expect(modelPiece('{"delta":"words"}')).toBeNull();
    expect(modelPiece(chunk({ usage: { prompt_tokens: -1 } }))).toBeNull();
    expect(modelPiece(chunk({ choices: [{ index: 0, delta: { content: 5 } }] }))).toBeNull();
  });
});

describe("a reply's cost from its usage", () => {
  it('prices cached prompt tokens at the cached price and the rest at their own', () => {
    const usd = usageCostUsd(
      {
        prompt_tokens: 1500,
        completion_tokens: 100,
        total_tokens: 1600,
        prompt_tokens_details: { cached_tokens: 1000 },
      },
      settings.prices,
    );
    expect(usd).toBeCloseTo((500 * 0.15 + 1000 * 0.075 + 100 * 0.6) / 1e6, 12);
  });

  it('is not trusted when more tokens were cached than the prompt had', () => {
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 1,
      total_tokens: 11,
      prompt_tokens_details: { cached_tokens: 11 },
    };
    expect(usageCostUsd(usage, settings.prices)).toBeNull();
  });
});

describe("a reply's worst case from what is asked", () => {
  const bytesOf = (text: string) => new TextEncoder().encode(text).length;

  it('counts every byte of the prompt a token, uncached, and the whole completion cap', () => {
    const request = modelRequest([{ who: 'pepa', text: 'Ribbit!' }], 'gm', 'visitor');
    const prompt = bytesOf(PEPA_CHAT.systemPrompt) + bytesOf('Ribbit!') + bytesOf('gm') + 3 * 8;
    expect(worstTurnUsd(request, settings.prices)).toBeCloseTo(
      (prompt * 0.15 + PEPA_CHAT.maxCompletionTokens * 0.6) / 1e6,
      12,
    );
  });

  it('grows with what was said, and a reply’s real cost never passes it', () => {
    const short = worstTurnUsd(modelRequest([], 'gm', 'v'), settings.prices);
    const long = modelRequest(
      [{ who: 'visitor', text: 'ribbit '.repeat(500) }],
      '🐸'.repeat(100),
      'v',
    );
    expect(worstTurnUsd(long, settings.prices)).toBeGreaterThan(short);
    // A prompt of as many tokens as it has bytes, none cached, and the full reply.
    const usage = {
      prompt_tokens: long.messages.reduce((sum, message) => sum + bytesOf(message.content), 0),
      completion_tokens: PEPA_CHAT.maxCompletionTokens,
      total_tokens: 0,
    };
    expect(usageCostUsd(usage, settings.prices)).toBeLessThanOrEqual(
      worstTurnUsd(long, settings.prices),
    );
  });
});

describe("opening the model's stream", () => {
  const open = (clock = recordingClock()) =>
    openModelStream(settings, modelRequest([], 'hi', 'v:1'), new AbortController().signal, clock);

  it('posts the request with the key as a bearer token, and gives the stream', async () => {
    const asked = endpoint([streamed]);
    const opening = await open();
    expect(opening.ok).toBe(true);
    expect(asked).toEqual([
      {
        url: 'https://model.test/v1/chat/completions',
        authorization: 'Bearer sk-test',
        body: modelRequest([], 'hi', 'v:1'),
      },
    ]);
  });

  it('tries again after 429 and 5xx, with a growing pause, and no more than its attempts', async () => {
    endpoint([refusal(429, 'rate_limit_exceeded'), refusal(503, null), refusal(500, null)]);
    const clock = recordingClock();
    const opening = await open(clock);
    expect(opening).toEqual({
      ok: false,
      failure: { kind: 'busy', status: 500, retryAfterSeconds: 5 },
      attempts: TURN_ATTEMPTS,
    });
    expect(clock.slept).toEqual([250, 500]);
  });

  it('honours a short Retry-After and answers a long one without waiting', async () => {
    endpoint([refusal(429, null, { 'retry-after': '2' }), streamed]);
    const clock = recordingClock();
    expect((await open(clock)).ok).toBe(true);
    expect(clock.slept).toEqual([2000]);
    endpoint([refusal(429, null, { 'retry-after': '120' })]);
    expect(await open()).toMatchObject({
      ok: false,
      failure: { kind: 'busy', retryAfterSeconds: 120 },
      attempts: 1,
    });
  });

  it('says an account without quota cannot pay, and does not try again', async () => {
    endpoint([refusal(429, 'insufficient_quota'), streamed]);
    expect(await open()).toEqual({
      ok: false,
      failure: { kind: 'billing', status: 402 },
      attempts: 1,
    });
  });

  it('says a refused request (a bad key) is refused, and does not try again', async () => {
    endpoint([refusal(401, 'invalid_api_key'), streamed]);
    expect(await open()).toEqual({
      ok: false,
      failure: { kind: 'refused', status: 401 },
      attempts: 1,
    });
  });

  it('says an endpoint that did not answer may have begun a reply', async () => {
    endpoint([]);
    expect(await open()).toEqual({
      ok: false,
      failure: { kind: 'unknown', status: 0 },
      attempts: 1,
    });
  });
});
