/**
 * The court only hears what can be true: tickets and rating tokens prove themselves in the
 * Worker, a ticket is its visitor's, and junk is refused before any Durable Object hop.
 */
import { describe, expect, it } from 'vitest';
import { inOneWindow, LIMITER_ALLOWANCE, limiterWindow } from './limiter-window';
import { addr, advance, inspect } from './bench';
import { api, body, type ProblemBody } from './gate-fetch';
import { statusEnded } from './provider-events';
import { admit, checkIn, queue, rate, start, ticketHeaders } from './visitor-calls';

const heard = async () => (await inspect()).heard;

describe('a ticket id seen by someone else', () => {
  it('cannot take the visitor’s turn or give up their place', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const place = await queue(addr(3));
    const path = `/api/tickets/${place.ticket.id}`;
    const stranger = { 'cf-connecting-ip': addr(9) };
    // The id alone, from the path of a log or a shared screen.
    expect((await api(path, { method: 'POST', headers: stranger })).status).toBe(404);
    // Even with the secret, from another visitor.
    const stolen = { ...stranger, 'ticket-secret': place.ticket.secret };
    expect((await api(path, { method: 'POST', headers: stolen })).status).toBe(404);
    expect((await api(path, { method: 'DELETE', headers: stolen })).status).toBe(204);
    expect(await inspect()).toMatchObject({ waiting: 1 });
    // The visitor, with their secret, still has their place.
    advance(1);
    expect((await checkIn(place.ticket.id)).status).toBe(200);
  });

  it('never travels with its secret in the path', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const place = await queue(addr(3));
    expect(place.ticket.secret.length).toBeGreaterThanOrEqual(16);
    expect(place.ticket.id).not.toContain(place.ticket.secret);
    expect(ticketHeaders(place.ticket.id)['ticket-secret']).toBe(place.ticket.secret);
  });
});

describe('junk at the court’s paths', () => {
  it('is refused in the Worker: the court hears none of it', async () => {
    await admit(addr(1));
    await admit(addr(2));
    await queue(addr(3));
    const before = await heard();
    for (let i = 0; i < 30; i += 1) {
      const from = { 'cf-connecting-ip': `192.0.2.${i + 1}` };
      await api('/api/calls', {
        method: 'POST',
        headers: { ...from, 'content-type': 'application/json' },
        body: '{}',
      });
      const id = crypto.randomUUID().replace(/-/g, '');
      await api(`/api/tickets/${id}`, { method: 'POST', headers: from });
      await api(`/api/tickets/${id}`, {
        method: 'DELETE',
        headers: { ...from, 'ticket-secret': 'AAAAAAAAAAAAAAAAAAAAAA' },
      });
      await rate({ callId: `junk-${i}`, score: 'content' }, { address: from['cf-connecting-ip'] });
    }
    expect((await heard()) - before).toBe(0);
  });
});

describe('ratings', () => {
  it('from a stranger, or before the call ended, or twice: one answer, and only the caller counts', async () => {
    const call = await admit(addr(1));
    const stranger = await rate({ callId: call, score: 'displeased' }, { cookie: null });
    expect(stranger.status).toBe(404);
    // The caller, while the call is under way.
    const early = await rate({ callId: call, score: 'delighted' });
    expect(early.status).toBe(404);
    await statusEnded(call);
    expect((await rate({ callId: call, score: 'delighted' })).status).toBe(204);
    const twice = await rate({ callId: call, score: 'delighted' });
    const unknown = await rate({ callId: 'call-404', score: 'content' }, { cookie: 'forged' });
    const answers = [stranger, early, twice, unknown];
    const bodies = await Promise.all(answers.map((a) => body<ProblemBody>(a)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([404]));
    expect(new Set(bodies.map((b) => `${b.code}|${b.detail ?? ''}`)).size).toBe(1);
  });

  it('from one address, hundreds at once, are cut off with the 429 the contract promises', async () => {
    // In one of the limiter's windows: a hundred split across two could all be let through.
    const statuses = await inOneWindow(async (address) => {
      const answers: number[] = [];
      for (let i = 0; i < 100; i += 1) {
        answers.push((await rate({ callId: `call-${i}`, score: 'content' }, { address })).status);
      }
      return answers;
    });
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(30);
  });
});

// Each test walks past the limiter's allowance one request at a time: on a busy machine that
// takes longer than the suite's usual 20 s.
describe('the edge limiter', { timeout: 60_000 }, () => {
  it('keeps a visitor hammering with a valid ticket from reaching the court', async () => {
    await admit(addr(1));
    await admit(addr(2));
    const place = await queue(addr(3));
    const before = await heard();
    const statuses: number[] = [];
    const firstWindow = limiterWindow();
    for (let i = 0; i < 120; i += 1) statuses.push((await checkIn(place.ticket.id)).status);
    // The limiter's windows are fixed to the clock: hammering that runs past the end of one
    // (a slow machine) meets a fresh allowance in the next.
    const windows = limiterWindow() - firstWindow + 1;
    const allowance = LIMITER_ALLOWANCE * windows;
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(120 - allowance);
    // At most the limiter's allowance in each window it spanned reached the court.
    expect((await heard()) - before).toBeLessThanOrEqual(allowance + 1);
  });

  it('counts a start from a visitor over it without a bot check or a court hop', async () => {
    const statuses: number[] = [];
    const firstWindow = limiterWindow();
    for (let i = 0; i < 70; i += 1) statuses.push((await start(addr(5), null)).status);
    // Past the allowance of each window the starts spanned (fixed to the clock, as above), every
    // start is refused at the edge; none reached the bot check's court or the court.
    const windows = limiterWindow() - firstWindow + 1;
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(
      70 - LIMITER_ALLOWANCE * windows,
    );
    expect(statuses.filter((s) => s !== 429 && s !== 403)).toEqual([]);
    expect(await heard()).toBe(0);
  });
});
