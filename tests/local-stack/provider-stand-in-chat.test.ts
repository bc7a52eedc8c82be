// The demo's provider stand-in speaks chat as the vendored spec (the published document's chat
// shapes) describes it: `POST /chat` whole or streamed, `GET /chat/{id}` with the cost, sessions;
// in front of a real Prism, which still judges each request.
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { startProviderStandIn } from '../../gate/dev/provider-stand-in.mjs';
import { CHAT_PRICES, STREAM_PATH } from '../../gate/dev/stand-in-chat.mjs';
import { readSpec } from '../contract/spec';
import { judgeRequest, parseVerdict } from '../../gate/src/cards/judge/card-judge-prompt';

type StandIn = Awaited<ReturnType<typeof startProviderStandIn>>;
type Message = { role: string; content: string };
type Chat = {
  id: string;
  orgId: string;
  assistantId?: string;
  sessionId?: string;
  previousChatId?: string;
  messages: Message[];
  output: Message[];
  cost: number;
  costs: Array<{ type: string; cost: number; promptTokens?: number; completionTokens?: number }>;
};

/** The properties of a schema of the vendored provider spec (its chat's are the published ones). */
function fieldsOf(schema: string): string[] {
  const schemas = readSpec().components?.schemas as Record<string, { properties?: object }>;
  return Object.keys(schemas[schema]?.properties ?? {});
}

/** The run's Prism mock of the provider spec (tests/support/shared-prism.ts). */
const prismUrl = inject('prismUrl');
const running: StandIn[] = [];

afterEach(async () => {
  for (const standIn of running.splice(0)) await standIn.stop();
});

async function standIn(options: Partial<Parameters<typeof startProviderStandIn>[0]> = {}) {
  const started = await startProviderStandIn({ prismUrl: prismUrl, quiet: true, ...options });
  running.push(started);
  return started;
}

const KEY = { authorization: 'Bearer private-key' };

/** The field model's delays, with only the chat's set. */
const chatLatency = (chatFirstWordMs: number, chatWordMs: number) => ({
  siteverifyMs: 0,
  gateWorkMs: 0,
  callWebMs: 0,
  chatFirstWordMs,
  chatWordMs,
});

function post(url: string, body: unknown, init: RequestInit = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...KEY },
    body: JSON.stringify(body),
    ...init,
  });
}

const ask = (url: string, body: Record<string, unknown>) =>
  post(`${url}/chat`, { assistantId: 'demo-pepa-assistant', ...body });

/** The events of a server-sent stream: each event's `data:` text. */
function events(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      expect(lines.every((line) => line.startsWith('data: '))).toBe(true);
      return lines.map((line) => line.slice('data: '.length)).join('\n');
    });
}

describe("the provider stand-in's chat", () => {
  it("answers POST /chat with Pepa's reply, itemises its cost as the provider does and keeps it for GET /chat/{id}", async () => {
    const provider = await standIn();

    const answer = await ask(provider.url, { input: 'Should I buy $PEPA?' });

    expect(answer.status).toBe(200);
    const chat = (await answer.json()) as Chat;
    expect(fieldsOf('Chat')).toEqual(expect.arrayContaining(['cost', 'costs']));
    expect(fieldsOf('Chat')).toEqual(expect.arrayContaining(Object.keys(chat)));
    expect(chat.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(chat.assistantId).toBe('demo-pepa-assistant');
    expect(chat.output).toEqual([
      { role: 'assistant', content: expect.stringContaining('never gives financial advice') },
    ]);
    expect(chat.messages).toEqual([
      { role: 'user', content: 'Should I buy $PEPA?' },
      ...chat.output,
    ]);
    const [model, fee] = chat.costs;
    expect(model).toMatchObject({ type: 'model', promptTokens: expect.any(Number) });
    expect(model?.completionTokens).toBe(Math.ceil((chat.output[0]?.content.length ?? 0) / 4));
    expect(fee).toEqual({ type: 'chat', cost: CHAT_PRICES.chatFeeUsd });
    expect(chat.cost).toBeCloseTo((model?.cost ?? NaN) + (fee?.cost ?? NaN), 9);
    // About USD 0.005–0.02 a turn with a small model.
    expect(chat.cost).toBeGreaterThan(0.005);
    expect(chat.cost).toBeLessThan(0.02);

    const kept = await fetch(`${provider.url}/chat/${chat.id}`, { headers: KEY });
    expect(kept.status).toBe(200);
    expect(await kept.json()).toEqual(chat);
    expect(provider.chat.stats).toMatchObject({ chats: 1, streamed: 0, aborted: 0 });
  });

  it("answers the card judge's request, as the gate sends it and Prism accepts it, with a verdict the gate parses", async () => {
    const provider = await standIn();
    const verdicts = [];
    for (const line of ['The moon shines on my pond tonight.', 'Connect your wallet, darling.']) {
      const answer = await post(`${provider.url}/chat`, judgeRequest(line, 'c0ffee'));
      expect(answer.status).toBe(200);
      const chat = (await answer.json()) as Chat;
      verdicts.push(parseVerdict(chat.output[0]?.content ?? ''));
      // The chat's fee and the judge's few tokens: about half a cent.
      expect(chat.cost).toBeGreaterThan(CHAT_PRICES.chatFeeUsd);
      expect(chat.cost).toBeLessThan(CHAT_PRICES.chatFeeUsd + 0.0002);
    }
    expect(verdicts).toEqual([{ kind: 'allow' }, { kind: 'refuse', harm: 'funds' }]);
  });

  it('streams a reply as data-only events naming the chat and the path of its words, ended by [DONE]', async () => {
    const provider = await standIn();

    const answer = await ask(provider.url, { input: 'Hello Pepa!', stream: true });

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(answer.headers.get('cache-control')).toBe('no-cache, no-transform');
    const data = events(await answer.text());
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((text) => JSON.parse(text) as Record<string, string>);
    expect(chunks.length).toBeGreaterThan(3);
    const id = chunks[0]?.id;
    for (const chunk of chunks) {
      expect(Object.keys(chunk).sort()).toEqual(['delta', 'id', 'path']);
      expect(fieldsOf('CreateChatStreamResponse')).toEqual(
        expect.arrayContaining(Object.keys(chunk)),
      );
      expect(chunk).toMatchObject({ id, path: STREAM_PATH });
    }
    // No event carries the cost: the chat, read afterwards, does, and its output is the words.
    const kept = (await (
      await fetch(`${provider.url}/chat/${id}`, { headers: KEY })
    ).json()) as Chat;
    expect(kept.output[0]?.content).toBe(chunks.map((chunk) => chunk.delta).join(''));
    expect(kept.cost).toBeGreaterThan(0);
    expect(provider.chat.stats).toMatchObject({ chats: 1, streamed: 1 });
    expect(provider.chat.writing).toBe(0);
  });

  it('continues from previousChatId with its messages, and refuses an unknown one or both ways at once', async () => {
    const provider = await standIn();
    const first = (await (await ask(provider.url, { input: 'Hello Pepa!' })).json()) as Chat;

    const next = (await (
      await ask(provider.url, { input: 'Where do I stake?', previousChatId: first.id })
    ).json()) as Chat;

    expect(next.previousChatId).toBe(first.id);
    expect(next.messages.slice(0, 2)).toEqual(first.messages);
    expect(next.messages[2]).toEqual({ role: 'user', content: 'Where do I stake?' });
    expect(next.output[0]?.content).toContain('pond');
    // The longer conversation is read again in full: the second turn costs more tokens.
    expect(next.costs[0]?.promptTokens).toBeGreaterThan(first.costs[0]?.promptTokens ?? Infinity);

    const unknown = await ask(provider.url, { input: 'Hi', previousChatId: 'no-such-chat' });
    expect(unknown.status).toBe(404);
    const both = await ask(provider.url, {
      input: 'Hi',
      previousChatId: first.id,
      sessionId: 'some-session',
    });
    expect(both.status).toBe(400);
    expect(await both.json()).toEqual({
      message: 'Send either previousChatId or sessionId, not both.',
    });
    expect(provider.chat.chats.size).toBe(2);
  });

  it("carries a session's conversation from each of its chats to the next, and streams its id", async () => {
    const provider = await standIn();
    const created = await post(`${provider.url}/session`, { assistantId: 'demo-pepa-assistant' });
    expect(created.status).toBe(201);
    const session = (await created.json()) as { id: string; status: string };
    expect(session).toMatchObject({ status: 'active', expirationSeconds: 86_400 });
    const found = await fetch(`${provider.url}/session/${session.id}`, { headers: KEY });
    expect(await found.json()).toEqual(session);

    const first = (await (
      await ask(provider.url, { input: 'Hello Pepa!', sessionId: session.id })
    ).json()) as Chat;
    const streamed = await ask(provider.url, {
      input: 'Tell me a secret',
      sessionId: session.id,
      stream: true,
    });
    const [chunk] = events(await streamed.text())
      .slice(0, -1)
      .map((text) => JSON.parse(text) as Record<string, string>);

    expect(chunk?.sessionId).toBe(session.id);
    const second = (await (
      await fetch(`${provider.url}/chat/${chunk?.id}`, { headers: KEY })
    ).json()) as Chat;
    expect(second.messages.slice(0, 2)).toEqual(first.messages);
    expect(second.sessionId).toBe(session.id);
    const lost = await ask(provider.url, { input: 'Hi', sessionId: 'no-such-session' });
    expect(lost.status).toBe(404);
  });

  it("still lets Prism judge the key: a chat without one gets Prism's 401 and nothing is kept", async () => {
    const provider = await standIn();

    const answer = await fetch(`${provider.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ assistantId: 'demo-pepa-assistant', input: 'Hello' }),
    });

    expect(answer.status).toBe(401);
    expect(provider.chat.stats.chats).toBe(0);
  });

  it("plays the field model's delays: no word before the first word's delay", async () => {
    const provider = await standIn({
      latency: chatLatency(300, 5),
    });

    const asked = performance.now();
    const answer = await ask(provider.url, { input: 'Hello Pepa!', stream: true });
    const reader = answer.body?.getReader();
    const first = await reader?.read();
    const firstWordAfter = performance.now() - asked;

    expect(new TextDecoder().decode(first?.value)).toMatch(/^data: \{/);
    expect(firstWordAfter).toBeGreaterThanOrEqual(300);
    await reader?.cancel();
  });

  it('stops a reply whose reader left: no word after, and the chat keeps and is charged for what was said', async () => {
    const provider = await standIn({
      latency: chatLatency(0, 60_000),
    });

    const answer = await ask(provider.url, { input: 'Hello Pepa!', stream: true });
    const reader = answer.body?.getReader();
    const first = new TextDecoder().decode((await reader?.read())?.value);
    const chunk = JSON.parse(first.slice('data: '.length)) as { id: string; delta: string };
    await reader?.cancel();

    await vi.waitFor(() => expect(provider.chat.writing).toBe(0));
    expect(provider.chat.stats.aborted).toBe(1);
    const kept = (await (
      await fetch(`${provider.url}/chat/${chunk.id}`, { headers: KEY })
    ).json()) as Chat;
    expect(kept.output).toEqual([{ role: 'assistant', content: chunk.delta }]);
    expect(kept.costs[0]?.completionTokens).toBe(Math.ceil(chunk.delta.length / 4));
  });
});
