import { describe, expect, it } from 'vitest';
import { PEPA_GATE_CREDENTIAL_NAME, pepaAssistant } from './pepa';
import { diffAssistant, gateTargetFrom, SyncError, syncAssistant } from './sync';
import { providerStandIn, writesIn } from './testing/provider-stand-in';

describe('assistant:sync', () => {
  const base = { baseUrl: 'http://provider.test', assistant: pepaAssistant() };

  it('creates Pepa when absent, then reports no changes on a second run', async () => {
    const provider = providerStandIn();
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const first = await syncAssistant({
      ...base,
      privateKey: 'secret',
      fetch: provider.fetch,
      log,
    });
    expect(first.action).toBe('created');
    expect(provider.assistants.size).toBe(1);
    const second = await syncAssistant({
      ...base,
      privateKey: 'secret',
      fetch: provider.fetch,
      log,
      assistantId: first.id,
    });
    expect(second).toMatchObject({ action: 'unchanged', changes: [] });
    expect(lines.at(-1)).toMatch(/no changes/);
    expect(writesIn(provider.requests).map((request) => request.method)).toEqual(['POST']);
  });

  it('diffs a drifted copy field by field, patches it, and is idempotent', async () => {
    const provider = providerStandIn();
    provider.assistants.set('p1', {
      ...pepaAssistant(),
      id: 'p1',
      firstMessage: 'Hi',
      maxDurationSeconds: 900,
    });
    const lines: string[] = [];
    const run = () =>
      syncAssistant({
        ...base,
        privateKey: 'secret',
        fetch: provider.fetch,
        assistantId: 'p1',
        log: (line) => lines.push(line),
      });
    const first = await run();
    expect(first.action).toBe('updated');
    expect(first.changes.map((change) => change.path)).toEqual([
      'firstMessage',
      'maxDurationSeconds',
    ]);
    expect(lines).toContain('  ~ maxDurationSeconds: 900 -> 180');
    expect(writesIn(provider.requests)).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        path: '/assistant/p1',
        body: { firstMessage: base.assistant.firstMessage, maxDurationSeconds: 180 },
      }),
    ]);
    expect((await run()).action).toBe('unchanged');
    expect(writesIn(provider.requests)).toHaveLength(1);
  });

  it('sends no writes on a dry run, whether Pepa exists or not', async () => {
    const provider = providerStandIn();
    const log = () => {};
    expect(
      (
        await syncAssistant({
          ...base,
          privateKey: 'secret',
          fetch: provider.fetch,
          dryRun: true,
          log,
        })
      ).action,
    ).toBe('would-create');
    provider.assistants.set('p1', { ...pepaAssistant(), id: 'p1', firstMessage: 'Hi' });
    expect(
      (
        await syncAssistant({
          ...base,
          privateKey: 'secret',
          fetch: provider.fetch,
          dryRun: true,
          log,
          assistantId: 'p1',
        })
      ).action,
    ).toBe('would-update');
    expect(provider.requests.length).toBeGreaterThan(0);
    expect(writesIn(provider.requests)).toEqual([]);
  });

  it('fails in one line without a private key, and in one line with a wrong one', async () => {
    const provider = providerStandIn();
    const missing = syncAssistant({ ...base, privateKey: undefined, fetch: provider.fetch });
    await expect(missing).rejects.toThrow(SyncError);
    await expect(missing).rejects.toThrow(/^Set VAPI_PRIVATE_KEY [^\n]*$/);
    expect(provider.requests).toEqual([]);
    const wrong = syncAssistant({
      ...base,
      privateKey: 'public-key',
      fetch: provider.fetch,
      log: () => {},
    });
    await expect(wrong).rejects.toThrow(
      /^The provider refused VAPI_PRIVATE_KEY \(HTTP 401\)[^\n]*$/,
    );
  });

  it('ignores fields the provider adds that the repository does not define', () => {
    expect(
      diffAssistant(
        { ...pepaAssistant(), id: 'x', voice: { ...pepaAssistant().voice, speed: 1 } },
        pepaAssistant(),
      ),
    ).toEqual([]);
  });
});

describe('assistant:sync with the court gate', () => {
  const SECRET = 'w'.repeat(40);
  const gate = { url: 'https://pepa-court.example.org', secret: SECRET };
  const base = {
    baseUrl: 'http://provider.test',
    assistant: pepaAssistant(),
    privateKey: 'secret',
  };

  it("creates the bearer webhook credential and points Pepa's server messages at the gate", async () => {
    const provider = providerStandIn();
    const lines: string[] = [];
    const result = await syncAssistant({
      ...base,
      gate,
      fetch: provider.fetch,
      log: (line) => lines.push(line),
    });

    expect(result.credential).toEqual({ action: 'created', id: expect.any(String) });
    expect(writesIn(provider.requests)[0]).toMatchObject({
      method: 'POST',
      path: '/credential',
      body: {
        provider: 'webhook',
        name: PEPA_GATE_CREDENTIAL_NAME,
        authenticationPlan: { type: 'bearer', token: SECRET },
      },
    });
    const pepa = provider.assistants.get(result.id ?? '');
    expect(pepa).toMatchObject({
      server: {
        url: 'https://pepa-court.example.org/api/provider-events',
        credentialId: result.credential?.id,
      },
      serverMessages: ['status-update', 'end-of-call-report'],
    });
    expect(lines).toContain(
      `Created the webhook credential "${PEPA_GATE_CREDENTIAL_NAME}" (${result.credential?.id}).`,
    );
  });

  it('finds the credential by name on the next run and changes nothing', async () => {
    const provider = providerStandIn();
    const first = await syncAssistant({ ...base, gate, fetch: provider.fetch, log: () => {} });
    const lines: string[] = [];
    const second = await syncAssistant({
      ...base,
      gate,
      assistantId: first.id,
      fetch: provider.fetch,
      log: (line) => lines.push(line),
    });
    expect(second).toMatchObject({
      action: 'unchanged',
      credential: { action: 'found', id: first.credential?.id },
    });
    expect(lines[0]).toMatch(/its token is not readable, so it is kept .*--rotate-webhook-secret/);
    expect(writesIn(provider.requests).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /credential',
      'POST /assistant',
    ]);
    // The provider never hands the token back.
    const listed = await (
      await provider.fetch('http://provider.test/credential', {
        headers: { authorization: 'Bearer secret' },
      })
    ).text();
    expect(listed).not.toContain(SECRET);
  });

  it('replaces the token with PATCH when asked to rotate, and only then', async () => {
    const provider = providerStandIn();
    const first = await syncAssistant({ ...base, gate, fetch: provider.fetch, log: () => {} });
    const rotated = 'r'.repeat(40);
    const result = await syncAssistant({
      ...base,
      gate: { ...gate, secret: rotated, rotate: true },
      assistantId: first.id,
      fetch: provider.fetch,
      log: () => {},
    });
    expect(result.credential).toEqual({ action: 'rotated', id: first.credential?.id });
    expect(writesIn(provider.requests).at(-1)).toMatchObject({
      method: 'PATCH',
      path: `/credential/${first.credential?.id}`,
      body: { provider: 'webhook', authenticationPlan: { type: 'bearer', token: rotated } },
    });
    expect(provider.credentials.size).toBe(1);
    expect(provider.credentials.get(first.credential?.id ?? '')?.authenticationPlan).toEqual({
      type: 'bearer',
      token: rotated,
    });
  });

  it('sends no writes on a dry run, and shows the server fields it would set', async () => {
    const provider = providerStandIn();
    provider.assistants.set('p1', { ...pepaAssistant(), id: 'p1' });
    const lines: string[] = [];
    const result = await syncAssistant({
      ...base,
      gate,
      assistantId: 'p1',
      dryRun: true,
      fetch: provider.fetch,
      log: (line) => lines.push(line),
    });
    expect(result).toMatchObject({
      action: 'would-update',
      credential: { action: 'would-create' },
    });
    expect(result.changes.map((change) => change.path)).toEqual([
      'serverMessages',
      'server.url',
      'server.credentialId',
    ]);
    expect(lines).toContain(
      '  ~ server.url: (unset) -> "https://pepa-court.example.org/api/provider-events"',
    );
    expect(writesIn(provider.requests)).toEqual([]);
  });

  it('without GATE_URL keeps Pepa silent to servers and says the gate will not hear calls end', async () => {
    const provider = providerStandIn();
    const lines: string[] = [];
    const result = await syncAssistant({
      ...base,
      fetch: provider.fetch,
      log: (l) => lines.push(l),
    });
    expect(provider.assistants.get(result.id ?? '')).toMatchObject({ serverMessages: [] });
    expect(provider.assistants.get(result.id ?? '')).not.toHaveProperty('server');
    expect(lines[0]).toMatch(/^GATE_URL is not set: .*the court gate will not hear calls end/);
    expect(provider.requests.some((request) => request.path === '/credential')).toBe(false);
  });

  it('reads the gate from GATE_URL and GATE_WEBHOOK_SECRET, refusing what cannot work', () => {
    expect(gateTargetFrom({})).toBeUndefined();
    expect(
      gateTargetFrom({ GATE_URL: 'https://pepa.example/', GATE_WEBHOOK_SECRET: SECRET }),
    ).toEqual({ url: 'https://pepa.example', secret: SECRET, rotate: false });
    expect(
      gateTargetFrom({ GATE_URL: 'http://127.0.0.1:8787', GATE_WEBHOOK_SECRET: SECRET }),
    ).toMatchObject({ url: 'http://127.0.0.1:8787' });
    const refusals: [Record<string, string>, RegExp][] = [
      [{ GATE_URL: 'http://pepa.example', GATE_WEBHOOK_SECRET: SECRET }, /must use https/],
      [{ GATE_URL: 'https://pepa.example/api', GATE_WEBHOOK_SECRET: SECRET }, /no path/],
      [{ GATE_URL: 'pepa.example', GATE_WEBHOOK_SECRET: SECRET }, /public origin/],
      [{ GATE_URL: 'https://pepa.example' }, /^Set GATE_WEBHOOK_SECRET/],
      [{ GATE_URL: 'https://pepa.example', GATE_WEBHOOK_SECRET: 'short' }, /at least 32/],
    ];
    for (const [env, message] of refusals) {
      expect(() => gateTargetFrom(env)).toThrow(SyncError);
      expect(() => gateTargetFrom(env)).toThrow(message);
    }
    expect(() => gateTargetFrom({}, { rotate: true })).toThrow(/needs GATE_URL/);
  });
});
