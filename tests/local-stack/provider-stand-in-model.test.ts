// The demo's stand-in for the model engine's endpoint, as the gate's own client and chunk reader
// meet it: a streamed completion in the shapes of openapi/model-chat.json, its words, its finish,
// its usage (with prompt caching), its refusals.
import { afterEach, describe, expect, it } from 'vitest';
import { startProviderStandIn } from '../../gate/dev/provider-stand-in.mjs';
import { MODEL_PRICES } from '../../gate/dev/stand-in-model.mjs';
import { PEPA_CHAT } from '../../generated/pepa-chat';
import {
  modelPiece,
  modelRequest,
  openModelStream,
  type ModelPiece,
  type ModelSettings,
} from '../../gate/src/text/model-chat';

type StandIn = Awaited<ReturnType<typeof startProviderStandIn>>;
const running: StandIn[] = [];

afterEach(async () => {
  for (const standIn of running.splice(0)) await standIn.stop();
});

/** The stand-in alone: the model's path never reaches Prism, so none is started. */
async function standIn(latency: { chatFirstWordMs: number; chatWordMs: number } | null = null) {
  const started = await startProviderStandIn({
    prismUrl: 'http://127.0.0.1:9',
    quiet: true,
    latency: latency && { siteverifyMs: 0, gateWorkMs: 0, callWebMs: 0, ...latency },
  });
  running.push(started);
  return started;
}

const settingsFor = (server: StandIn, apiKey = 'sk-demo'): ModelSettings => ({
  apiUrl: server.modelApiUrl,
  apiKey,
  prices: {
    input: MODEL_PRICES.inputUsdPerMillion,
    cachedInput: MODEL_PRICES.cachedInputUsdPerMillion,
    output: MODEL_PRICES.outputUsdPerMillion,
  },
});

/** Every `data:` line of a stream, read to its end. */
async function dataLines(body: ReadableStream<Uint8Array>): Promise<string[]> {
  const text = await new Response(body).text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

async function completion(server: StandIn, body = modelRequest([], 'wen moon?', 'v:1')) {
  const opening = await openModelStream(settingsFor(server), body, new AbortController().signal);
  if (!opening.ok) throw new Error(`no stream: ${JSON.stringify(opening.failure)}`);
  const lines = await dataLines(opening.body);
  const pieces = lines.slice(0, -1).map(modelPiece);
  return { lines, pieces };
}

describe("the model engine's stand-in", () => {
  it("streams Pepa's reply word by word in chunks of the contract, then the usage, then [DONE]", async () => {
    const server = await standIn();
    const { lines, pieces } = await completion(server);
    expect(lines.at(-1)).toBe('[DONE]');
    expect(pieces.every((piece) => piece !== null)).toBe(true);
    const read = pieces as ModelPiece[];
    const words = read.map((piece) => piece.words).join('');
    expect(words).toMatch(/financial advice/);
    expect(read.filter((piece) => piece.words !== '').length).toBeGreaterThan(3);
    const usage = read.at(-1)?.usage;
    expect(usage).toMatchObject({ completion_tokens: Math.ceil(words.length / 4) });
    expect(usage?.prompt_tokens).toBeGreaterThan(PEPA_CHAT.systemPrompt.length / 4);
    expect(read.slice(0, -1).every((piece) => piece.usage === null)).toBe(true);
    expect(new Set(read.map((piece) => piece.id)).size).toBe(1);
    expect(server.model.stats).toMatchObject({ completions: 1, refused: 0, aborted: 0 });
  });

  it("reports a long prompt's start as cached once it was read before", async () => {
    const server = await standIn();
    const history = Array.from({ length: 6 }, (_, i) => ({
      who: i % 2 ? ('pepa' as const) : ('visitor' as const),
      text: 'Tell me all about the pond, the lounge and the grotto, please. '.repeat(3),
    }));
    const body = modelRequest(history, 'and the memes?', 'v:1');
    const first = await completion(server, body);
    const second = await completion(server, body);
    const cachedOf = (pieces: (ModelPiece | null)[]) =>
      pieces.at(-1)?.usage?.prompt_tokens_details?.cached_tokens;
    expect(first.pieces.at(-1)?.usage?.prompt_tokens).toBeGreaterThanOrEqual(1024);
    expect(cachedOf(first.pieces)).toBe(0);
    expect(cachedOf(second.pieces)).toBeGreaterThan(0);
    expect((cachedOf(second.pieces) ?? 0) % 128).toBe(0);
  });

  it('stops at the completion token cap and says the length ended it', async () => {
    const server = await standIn();
    const body = { ...modelRequest([], 'wen moon?', 'v:1'), max_completion_tokens: 3 };
    const { lines } = await completion(server, body);
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line));
    expect(
      chunks.flatMap((chunk) =>
        (chunk.choices as { finish_reason: string | null }[]).map((c) => c.finish_reason),
      ),
    ).toContain('length');
    expect(chunks.at(-1).usage.completion_tokens).toBeLessThanOrEqual(3);
  });

  it('refuses a request without a key, or one the contract does not accept', async () => {
    const server = await standIn();
    const noKey = await openModelStream(
      settingsFor(server, ''),
      modelRequest([], 'hi', 'v:1'),
      new AbortController().signal,
    );
    expect(noKey).toMatchObject({ ok: false, failure: { kind: 'refused', status: 401 } });
    const unstreamed = await openModelStream(
      settingsFor(server),
      { ...modelRequest([], 'hi', 'v:1'), stream: false },
      new AbortController().signal,
    );
    expect(unstreamed).toMatchObject({ ok: false, failure: { kind: 'refused', status: 400 } });
    expect(server.model.stats).toMatchObject({ completions: 0, refused: 2 });
  });

  it('stops writing when the reader goes away, and counts when its first word went', async () => {
    const server = await standIn({ chatFirstWordMs: 50, chatWordMs: 200 });
    const controller = new AbortController();
    const opening = await openModelStream(
      settingsFor(server),
      modelRequest([], 'hi', 'v:1'),
      controller.signal,
    );
    if (!opening.ok) throw new Error('no stream');
    const reader = opening.body.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('"content":"R')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    controller.abort();
    await reader.cancel().catch(() => undefined);
    await expect.poll(() => server.model.stats.aborted).toBe(1);
    expect(server.model.writing).toBe(0);
    expect(server.model.stats.firstWordMs).toHaveLength(1);
  });
});
