import { describe, expect, it } from 'vitest';
import { addr, advance, inspect, sweep } from './bench';
import { body, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { endOfCallReport, providerEvent, statusEnded } from './provider-events';
import { admit, checkIn, queue, start } from './visitor-calls';

describe('a call frees its place', () => {
  it('on the provider’s status-update ended, and the next in line is admitted', async () => {
    const call = await admit(addr(1));
    await admit(addr(2));
    const waiting = await queue(addr(3));
    const answer = await statusEnded(call);
    expect(answer.status).toBe(200);
    expect(await body(answer)).toEqual({ applied: true });
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
    advance(1);
    expect((await checkIn(waiting.ticket.id)).status).toBe(201);
    expect(await inspect()).toMatchObject({ activeCalls: 2, waiting: 0 });
  });

  it('on an end-of-call report alone, which also settles its cost', async () => {
    const call = await admit(addr(1));
    expect((await inspect()).committedUsd).toBe(0.45);
    expect(await body(await endOfCallReport(call, { cost: 0.12 }))).toEqual({ applied: true });
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0.12 });
  });

  it('not on other status updates or message types (in progress marks the call joined)', async () => {
    const call = await admit(addr(1));
    const inProgress = await providerEvent({
      type: 'status-update',
      status: 'in-progress',
      call: { id: call },
    });
    expect(await body(inProgress)).toEqual({ applied: true });
    const again = await providerEvent({
      type: 'status-update',
      status: 'in-progress',
      call: { id: call },
    });
    expect(await body(again)).toEqual({ applied: false });
    const transcript = await providerEvent({ type: 'transcript', call: { id: call } });
    expect(await body(transcript)).toEqual({ applied: false });
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
  });

  it('only for a call the gate admitted', async () => {
    await admit(addr(1));
    const stranger = await statusEnded('call-the-gate-never-made');
    expect(await body(stranger)).toEqual({ applied: false });
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
  });
});

describe('the provider’s messages', () => {
  it('are refused without the webhook credential, changing nothing', async () => {
    const call = await admit(addr(1));
    const message = { type: 'status-update', status: 'ended', call: { id: call } };
    // The last is as long as the secret, one character off.
    for (const authorization of [
      null,
      'Bearer wrong-secret',
      'Basic dGVzdA==',
      'Bearer ',
      'Bearer test-webhook-secreT',
    ]) {
      const answer = await providerEvent(message, authorization);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'unauthorized' });
    }
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
  });

  it('are accepted with the credential in the provider’s secret header too', async () => {
    const call = await admit(addr(1));
    const answer = await providerEvent(
      { type: 'status-update', status: 'ended', call: { id: call } },
      null,
    );
    expect(answer.status).toBe(401);
    const { api } = await import('./gate-fetch');
    const withHeader = await api('/api/provider-events', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-vapi-secret': 'test-webhook-secret' },
      body: JSON.stringify({
        message: { type: 'status-update', status: 'ended', call: { id: call } },
      }),
    });
    expect(await body(withHeader)).toEqual({ applied: true });
  });

  it('are applied once however often they are replayed', async () => {
    const first = await admit(addr(1));
    const second = await admit(addr(2));
    expect(await body(await statusEnded(first))).toEqual({ applied: true });
    expect(await body(await statusEnded(first))).toEqual({ applied: false });
    // The replay did not free the other call's place.
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
    expect(await body(await endOfCallReport(first, { cost: 0.2 }))).toEqual({ applied: true });
    expect(await body(await endOfCallReport(first, { cost: 0.2 }))).toEqual({ applied: false });
    expect(await body(await statusEnded(first))).toEqual({ applied: false });
    // Spend: the first call's cost once, the second's worst case still reserved.
    expect(await inspect()).toMatchObject({ activeCalls: 1, committedUsd: 0.65 });
    expect(await body(await endOfCallReport(second, { cost: 0.3 }))).toEqual({ applied: true });
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0.5 });
  });
});

describe('the backstop', () => {
  it('frees a place held past the call’s maximum plus the grace, charging the worst case', async () => {
    world.provider.lookUpFails = true;
    await admit(addr(1));
    advance(180 + 30 - 1);
    await sweep();
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
    advance(2);
    await sweep();
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0.45 });
    // A report that comes after all changes nothing.
    expect(await body(await endOfCallReport('call-1', { cost: 0.05 }))).toEqual({
      applied: false,
    });
  });

  it('asks the provider about a quiet call and frees it when the provider says it ended', async () => {
    const call = await admit(addr(1));
    advance(30);
    await sweep();
    expect(world.provider.lookedUp).toEqual([]);
    advance(31);
    await sweep();
    expect(world.provider.lookedUp).toEqual([call]);
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
    world.provider.calls.set(call, { id: call, status: 'ended', cost: 0.07 });
    advance(10);
    await sweep();
    // Not asked again until its probe interval passed.
    expect(world.provider.lookedUp).toEqual([call]);
    advance(25);
    await sweep();
    expect(world.provider.lookedUp).toEqual([call, call]);
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0.07 });
  });

  it('keeps the place while the provider says the call goes on or does not answer', async () => {
    await admit(addr(1));
    advance(61);
    await sweep();
    world.provider.lookUpFails = true;
    advance(31);
    await sweep();
    expect(world.provider.lookedUp).toHaveLength(2);
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
  });

  it('charges the worst case for a call that ended without a report', async () => {
    const call = await admit(addr(1));
    advance(20);
    await statusEnded(call);
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0.45 });
    advance(200);
    // Something else keeps the sweep running.
    await admit(addr(2));
    await sweep();
    expect((await inspect()).committedUsd).toBe(0.9);
    expect(await body(await endOfCallReport(call, { cost: 0.01 }))).toEqual({ applied: false });
  });

  it('settles a call that ended without a report even when the court is otherwise empty', async () => {
    const call = await admit(addr(1));
    advance(20);
    await statusEnded(call);
    for (let elapsed = 0; elapsed < 200; elapsed += 10) {
      advance(10);
      await sweep();
    }
    expect((await inspect()).committedUsd).toBe(0.45);
    expect(await body(await endOfCallReport(call, { cost: 0.01 }))).toEqual({ applied: false });
    // Once settled, the sweep stops.
    expect(await sweep()).toBe(false);
  });
});

describe('when the provider will not create the call', () => {
  it('answers 502 and, when it refused outright, gives the place and its reservation back', async () => {
    world.provider.createFails = 402;
    const answer = await start(addr(1));
    expect(answer.status).toBe(502);
    expect(await body<ProblemBody>(answer)).toMatchObject({ code: 'provider-error' });
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0 });
    world.provider.createFails = 422;
    expect((await start(addr(2))).status).toBe(502);
    world.provider.createFails = null;
    expect((await start(addr(3))).status).toBe(201);
    expect(await inspect()).toMatchObject({ activeCalls: 1, committedUsd: 0.45 });
  });

  it('answers 502 and keeps the place and its worst case held when it may have made the call', async () => {
    world.provider.createFails = 500;
    expect((await start(addr(1))).status).toBe(502);
    expect(await inspect()).toMatchObject({ activeCalls: 1, committedUsd: 0.45 });
  });

  it('asks for a pause when the provider itself is at its limit', async () => {
    world.provider.createFails = 429;
    const answer = await start(addr(1));
    expect(answer.status).toBe(502);
    expect(answer.headers.get('retry-after')).toBe('5');
  });
});
