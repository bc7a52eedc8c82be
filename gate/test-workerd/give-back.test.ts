/**
 * A call the page never joined: given back by the visitor it was admitted for (its secret), the
 * place is free at once; left alone, the join backstop frees it in seconds, not at the call's
 * limit.
 */
import { describe, expect, it } from 'vitest';
import { addr, advance, inspect, setVars, sweep } from './bench';
import { api, body, type AdmittedBody, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { providerEvent, statusEnded } from './provider-events';
import { checkIn, queue, start } from './visitor-calls';

/** Admits `address` at once; says the call's id and its secret. */
async function admitted(address: string): Promise<{ id: string; secret: string }> {
  const answer = await start(address);
  expect(answer.status).toBe(201);
  const admission = await body<AdmittedBody>(answer);
  return { id: admission.call.id, secret: admission.callSecret };
}

function giveBack(callId: string, secret: string | null, address: string): Promise<Response> {
  return api(`/api/calls/${callId}`, {
    method: 'DELETE',
    headers: {
      'cf-connecting-ip': address,
      ...(secret === null ? {} : { 'call-secret': secret }),
    },
  });
}

/** The provider has created the call but nobody joined it yet. */
function unjoined(callId: string): void {
  const call = world.provider.calls.get(callId);
  if (call) call.status = 'queued';
}

describe('a call given back', () => {
  it('frees its place at once for the next visitor', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '1' });
    const call = await admitted(addr(1));
    const answer = await giveBack(call.id, call.secret, addr(1));
    expect(answer.status).toBe(204);
    expect(await inspect()).toMatchObject({ activeCalls: 0 });
    expect((await start(addr(2))).status).toBe(201);
  });

  it('lets the visitor in line take the place at their next check-in', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '1' });
    const call = await admitted(addr(1));
    const waiting = await queue(addr(2));
    await giveBack(call.id, call.secret, addr(1));
    advance(waiting.retryAfterSeconds);
    expect((await checkIn(waiting.ticket.id)).status).toBe(201);
  });

  it('is the same 204 when given back twice, and frees one place only', async () => {
    const first = await admitted(addr(1));
    await admitted(addr(2));
    expect((await giveBack(first.id, first.secret, addr(1))).status).toBe(204);
    expect((await giveBack(first.id, first.secret, addr(1))).status).toBe(204);
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
    // The provider's word that it ended comes after: nothing more is freed.
    expect(await body(await statusEnded(first.id))).toEqual({ applied: false });
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
  });

  it('keeps the reservation until the provider reports what the call cost', async () => {
    const call = await admitted(addr(1));
    expect((await inspect()).committedUsd).toBe(0.45);
    await giveBack(call.id, call.secret, addr(1));
    expect((await inspect()).committedUsd).toBe(0.45);
    const report = await providerEvent({
      type: 'end-of-call-report',
      call: { id: call.id },
      cost: 0,
    });
    expect(await body(report)).toEqual({ applied: true });
    expect((await inspect()).committedUsd).toBe(0);
  });

  it('cannot be done by a stranger: every wrong proof is the same 404, and the place stays', async () => {
    const call = await admitted(addr(1));
    const other = await admitted(addr(2));
    const attempts = [
      // Another visitor with the right secret.
      giveBack(call.id, call.secret, addr(3)),
      // The right visitor with another call's secret.
      giveBack(call.id, other.secret, addr(1)),
      // No secret, a made-up one, a call that does not exist.
      giveBack(call.id, null, addr(1)),
      giveBack(call.id, 'AAAAAAAAAAAAAAAAAAAAAA', addr(1)),
      giveBack('call-the-gate-never-made', call.secret, addr(1)),
    ];
    const answers = await Promise.all(attempts);
    const bodies = await Promise.all(answers.map((answer) => body<ProblemBody>(answer)));
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
    expect(new Set(bodies.map((problem) => JSON.stringify(problem))).size).toBe(1);
    expect(await inspect()).toMatchObject({ activeCalls: 2 });
  });

  it('does not free a call the provider said is in progress: its end does', async () => {
    const call = await admitted(addr(1));
    const joined = await providerEvent({
      type: 'status-update',
      status: 'in-progress',
      call: { id: call.id },
    });
    expect(await body(joined)).toEqual({ applied: true });
    expect((await giveBack(call.id, call.secret, addr(1))).status).toBe(204);
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
    await statusEnded(call.id);
    expect(await inspect()).toMatchObject({ activeCalls: 0 });
  });

  it('asks the provider to end a call nobody joins, in seconds', async () => {
    await admitted(addr(1));
    const created = world.provider.created[0]?.body as { assistantOverrides?: unknown };
    expect(created.assistantOverrides).toMatchObject({ customerJoinTimeoutSeconds: 20 });
  });
});

describe('the backstop for a call that never joined', () => {
  it('frees its place within seconds when the provider says it has not started', async () => {
    const call = await admitted(addr(1));
    unjoined(call.id);
    advance(30);
    await sweep();
    expect(world.provider.lookedUp).toEqual([]);
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
    advance(2);
    await sweep();
    expect(world.provider.lookedUp).toEqual([call.id]);
    expect(await inspect()).toMatchObject({ activeCalls: 0, committedUsd: 0.45 });
  });

  it('keeps the place of a call the provider says is in progress, and asks no more for a minute', async () => {
    const call = await admitted(addr(1));
    advance(32);
    await sweep();
    expect(world.provider.lookedUp).toEqual([call.id]);
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
    advance(10);
    await sweep();
    expect(world.provider.lookedUp).toEqual([call.id]);
  });

  it('keeps the place while the provider does not answer, asking again every ten seconds', async () => {
    const call = await admitted(addr(1));
    world.provider.lookUpFails = true;
    advance(32);
    await sweep();
    advance(4);
    await sweep();
    expect(world.provider.lookedUp).toEqual([call.id]);
    advance(7);
    await sweep();
    expect(world.provider.lookedUp).toEqual([call.id, call.id]);
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
  });

  it('never asks about a call the provider said is in progress', async () => {
    const call = await admitted(addr(1));
    await providerEvent({ type: 'status-update', status: 'in-progress', call: { id: call.id } });
    advance(45);
    await sweep();
    expect(world.provider.lookedUp).toEqual([]);
    expect(await inspect()).toMatchObject({ activeCalls: 1 });
  });
});
