// Every request assistant:sync and key:restrict send, validated by Prism against the vendored spec.
import { describe, expect, inject, it } from 'vitest';
import { pepaAssistant } from '../../assistant/pepa';
import { restrictKey } from '../../assistant/restrict-key';
import { syncAssistant } from '../../assistant/sync';
import { providerStandIn } from '../../assistant/testing/provider-stand-in';

/** The run's Prism mock of the provider spec (tests/support/shared-prism.ts). */
const prismUrl = inject('prismUrl');
const seen: { method: string; path: string; status: number; violations: string | null }[] = [];
const recording: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  seen.push({
    method: request.method,
    path: new URL(request.url).pathname,
    status: response.status,
    violations: response.headers.get('sl-violations'),
  });
  return response;
};

describe('the go-live scripts against the provider contract', () => {
  it('assistant:sync reads by name and by id and patches with requests the spec accepts', async () => {
    seen.length = 0;
    const byName = await syncAssistant({
      privateKey: 'test-key',
      baseUrl: prismUrl,
      assistant: pepaAssistant(),
      fetch: recording,
      log: () => {},
    });
    expect(byName.action).toBe('updated');
    await syncAssistant({
      privateKey: 'test-key',
      baseUrl: prismUrl,
      assistant: pepaAssistant(),
      assistantId: byName.id,
      fetch: recording,
      log: () => {},
    });
    expect(seen.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      'GET /assistant',
      `PATCH /assistant/${byName.id}`,
      `GET /assistant/${byName.id}`,
      `PATCH /assistant/${byName.id}`,
    ]);
    for (const entry of seen) {
      expect(entry.status).toBeLessThan(300);
      expect(entry.violations).toBeNull();
    }
  });

  it('assistant:sync with the gate creates, then rotates, the webhook credential with requests the spec accepts', async () => {
    // A stand-in that remembers the credential, with every request also checked by Prism.
    const provider = providerStandIn({ privateKey: 'test-key', validateWith: prismUrl });
    const common = {
      privateKey: 'test-key',
      baseUrl: 'http://provider.test',
      assistant: pepaAssistant(),
      fetch: provider.fetch,
      log: () => {},
    };
    const gate = { url: 'https://pepa.example', secret: 's'.repeat(40) };
    const created = await syncAssistant({ ...common, gate });
    const rotated = await syncAssistant({
      ...common,
      assistantId: created.id,
      gate: { ...gate, rotate: true },
    });
    expect(rotated.credential).toEqual({ action: 'rotated', id: created.credential?.id });
    expect(provider.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /credential',
      'POST /credential',
      'GET /assistant',
      'POST /assistant',
      'GET /credential',
      `PATCH /credential/${created.credential?.id}`,
      `GET /assistant/${created.id}`,
    ]);
    for (const request of provider.requests) {
      expect(request.contract?.status).toBeLessThan(300);
      expect(request.contract?.violations).toBeNull();
    }
  });

  it('key:restrict lists keys and patches the public one with requests the spec accepts', async () => {
    seen.length = 0;
    const tokens = (await (
      await fetch(`${prismUrl}/token`, { headers: { authorization: 'Bearer test-key' } })
    ).json()) as { id: string }[];
    const result = await restrictKey({
      privateKey: 'test-key',
      publicKey: tokens[0]?.id,
      siteUrl: 'https://pepa.example/',
      assistantId: 'a1',
      baseUrl: prismUrl,
      fetch: recording,
      log: () => {},
    });
    expect(result).toBe('updated');
    expect(seen.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      'GET /token',
      `PATCH /token/${tokens[0]?.id}`,
    ]);
    for (const entry of seen) {
      expect(entry.status).toBeLessThan(300);
      expect(entry.violations).toBeNull();
    }
  });
});
