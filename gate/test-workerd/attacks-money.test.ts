/**
 * Money never unmetered: a call the provider may have created, though its answer never came,
 * keeps its place and its worst case until the provider says what became of it.
 */
import { describe, expect, it } from 'vitest';
import { addr, advance, inspect, setVars, sweep } from './bench';
import { type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { providerEvent } from './provider-events';
import { start } from './visitor-calls';

function leaseOf(index: number): string {
  const created = world.provider.created[index]?.body as {
    assistantOverrides?: { metadata?: { gateLease?: unknown } };
  };
  const lease = created.assistantOverrides?.metadata?.gateLease;
  if (typeof lease !== 'string') throw new Error('The call was not tagged with its lease');
  return lease;
}

describe('a provider that answers after the gate stopped waiting', () => {
  it('keeps the place and the worst case held, so the provider never runs two calls on a limit of one', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '1' });
    world.provider.createFails = 'late';
    const first = await start(addr(1));
    expect(first.status).toBe(502);
    expect(((await first.json()) as ProblemBody).code).toBe('provider-error');
    world.provider.createFails = null;
    // The call exists at the provider: nobody else is admitted over it.
    expect((await start(addr(2))).status).toBe(202);
    expect(world.provider.created).toHaveLength(1);
    expect(await inspect()).toMatchObject({ activeCalls: 1, committedUsd: 0.45 });
  });

  it('attaches the call by its tag when its server messages come, and settles its cost', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '1' });
    world.provider.createFails = 'late';
    await start(addr(1));
    const lease = leaseOf(0);
    const call = { id: 'call-1', assistantOverrides: { metadata: { gateLease: lease } } };
    await providerEvent({ type: 'status-update', status: 'ended', call });
    expect(await inspect()).toMatchObject({ activeCalls: 0 });
    await providerEvent({
      type: 'end-of-call-report',
      call,
      cost: 0.9,
      durationSeconds: 170,
      endedReason: 'customer-ended-call',
    });
    expect((await inspect()).committedUsd).toBe(0.9);
  });

  it('finds the call by its tag when no message comes, and settles it from the provider', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '1' });
    world.provider.createFails = 'late';
    await start(addr(1));
    const found = world.provider.calls.get('call-1');
    if (!found) throw new Error('The provider did not create the call');
    found.status = 'ended';
    found.cost = 0.3;
    advance(61);
    await sweep();
    expect(world.provider.listed).toBeGreaterThan(0);
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0.3 });
  });

  it('charges the worst case when the provider never says, and frees the place after the call’s limit', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '1' });
    world.provider.createFails = 'down';
    world.provider.lookUpFails = true;
    await start(addr(1));
    advance(180 + 31);
    await sweep();
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0.45 });
  });

  it('gives the place and the reservation back when the provider refused outright', async () => {
    world.provider.createFails = 400;
    expect((await start(addr(1))).status).toBe(502);
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0 });
  });
});
