import { describe, expect, it } from 'vitest';
import { pepaAssistant } from './pepa';
import { diffAssistant, SyncError, syncAssistant } from './sync';
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
