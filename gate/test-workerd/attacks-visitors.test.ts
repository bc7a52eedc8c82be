/**
 * Attacks on who a visitor is: rotating addresses inside one network, staying inside the limits
 * all day, and waiting for the court to restart. Each is held by the visitor's own limits or
 * their network's, and nobody else is held back by it.
 */
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addr, advance, court, inspect, setVars, sweep, TOKEN } from './bench';
import { api } from './gate-fetch';
import { endOfCallReport } from './provider-events';
import { admit, start } from './visitor-calls';

function startFrom(address: string, cf?: { asn: number }): Promise<Response> {
  return api('/api/calls', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': address },
    body: JSON.stringify({ botCheckToken: TOKEN }),
    ...(cf ? { cf } : {}),
  });
}

/** How many of these answers gave the visitor a call or a place. */
const held = (statuses: number[]) => statuses.filter((s) => s === 201 || s === 202).length;

describe('an attacker rotating addresses', () => {
  it('inside one IPv6 /64 holds one place, and a real visitor is admitted at once', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '10' });
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i += 1) {
      const suffix = `${((i * 7919) % 65_536).toString(16)}:${i.toString(16)}:beef:${i}`;
      statuses.push((await startFrom(`2001:db8:1:2:${suffix}`)).status);
    }
    expect(held(statuses)).toBe(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(39);
    expect((await startFrom(addr(1))).status).toBe(201);
    expect(await inspect()).toMatchObject({ activeCalls: 2, waiting: 0 });
  });

  it('inside one IPv4 /24 holds at most the network’s cap of places', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '10', GATE_NETWORK_CONCURRENT: '4' });
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i += 1) statuses.push((await startFrom(`203.0.113.${i}`)).status);
    expect(held(statuses)).toBe(4);
    expect((await startFrom(addr(1))).status).toBe(201);
  });

  it('inside one IPv6 /48, across its /64s, holds at most the network’s cap', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '10', GATE_NETWORK_CONCURRENT: '4' });
    const statuses: number[] = [];
    for (let i = 1; i <= 20; i += 1) {
      statuses.push((await startFrom(`2001:db8:7:${i.toString(16)}::1`)).status);
    }
    expect(held(statuses)).toBe(4);
  });

  it('across networks of one ASN holds at most the ASN’s cap', async () => {
    setVars({ GATE_MAX_CONCURRENT_CALLS: '10', GATE_ASN_CONCURRENT: '3' });
    const statuses: number[] = [];
    for (let i = 1; i <= 10; i += 1) {
      statuses.push((await startFrom(addr(100 + i), { asn: 64_500 })).status);
    }
    expect(held(statuses)).toBe(3);
    expect((await startFrom(addr(1), { asn: 64_501 })).status).toBe(201);
  });

  it('through the IPv4-mapped spelling of an address is the same visitor', async () => {
    await admit('192.0.2.9');
    expect((await startFrom('::ffff:192.0.2.9')).status).toBe(429);
    expect((await startFrom('::FFFF:c000:209')).status).toBe(429);
    expect((await startFrom('[::ffff:192.0.2.9]')).status).toBe(429);
  });

  it('inside one /64 all day is admitted only its daily allowance, and the court stays open', async () => {
    const admitted: string[] = [];
    for (let i = 1; i <= 60; i += 1) {
      const answer = await startFrom(`2001:db8:9:9::${i.toString(16)}`);
      if (answer.status === 201) {
        const { call } = (await answer.json()) as { call: { id: string } };
        admitted.push(call.id);
        await endOfCallReport(call.id, { cost: 0.45, seconds: 180 });
      }
      advance(200);
    }
    // USD 1.50 a visitor a day at a worst case of USD 0.45: three calls.
    expect(admitted.length).toBeLessThanOrEqual(3);
    expect((await startFrom(addr(1))).status).toBe(201);
  });
});

describe('a visitor inside their limits all day', () => {
  it('commits no more than their daily money, whatever the window allows', async () => {
    setVars({ GATE_DAILY_BUDGET_USD: '1000' });
    let admitted = 0;
    for (let i = 0; i < 72; i += 1) {
      const answer = await start('192.0.2.44');
      if (answer.status === 201) {
        admitted += 1;
        const { call } = (await answer.json()) as { call: { id: string } };
        await endOfCallReport(call.id, { cost: 0.45, seconds: 180 });
      }
      advance(201);
    }
    expect(admitted * 0.45).toBeLessThanOrEqual(1.5);
    expect(admitted).toBeGreaterThan(0);
  });
});

describe('a restart of the court', () => {
  it('keeps the start windows: a visitor refused before it is refused after it', async () => {
    for (let n = 0; n < 3; n += 1) {
      const call = await admit(addr(7));
      await endOfCallReport(call, { cost: 0.05, seconds: 20 });
      advance(60);
    }
    const before = await start(addr(7));
    expect(before.status).toBe(429);
    await abortAllDurableObjects();
    advance(2);
    const after = await start(addr(7));
    expect(after.status).toBe(429);
    expect(Number(after.headers.get('retry-after'))).toBeGreaterThan(400);
  });

  it('prunes start windows once they are over', async () => {
    for (let n = 1; n <= 5; n += 1) {
      const call = await admit(addr(n));
      await endOfCallReport(call, { cost: 0.05, seconds: 20 });
    }
    advance(601);
    await admit(addr(50));
    await sweep();
    const rows = await runInDurableObject(court(), (_instance, state) =>
      state.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM starts').one(),
    );
    // Only the start made within the window is kept (the visitor's and their network's).
    expect(rows.n).toBe(2);
  });

  it('deletes call records older than two days in the sweep', async () => {
    const old = await admit(addr(1));
    await endOfCallReport(old, { cost: 0.1 });
    advance(3 * 86_400);
    await admit(addr(2));
    await sweep();
    const stored = await runInDurableObject(court(), (_instance, state) =>
      state.storage.list({ prefix: 'call:' }),
    );
    expect([...stored.keys()]).toEqual(['call:call-2']);
  });
});
