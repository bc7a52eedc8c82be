import { describe, expect, it } from 'vitest';
import { checkRoomUrl, hostMatches, meetingTokenOf, roomUrlOf } from './room-url';

describe('checkRoomUrl', () => {
  it('accepts https rooms on Daily hosts', () => {
    expect(checkRoomUrl('https://vapi.daily.co/abc123')).toEqual({
      ok: true,
      url: 'https://vapi.daily.co/abc123',
    });
    expect(checkRoomUrl(' https://PEPA.daily.co/room ')).toMatchObject({ ok: true });
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    ['not a url', 'malformed'],
    ['javascript:alert(1)', 'not-https'],
    ['http://vapi.daily.co/room', 'not-https'],
    ['wss://vapi.daily.co/room', 'not-https'],
    ['https://evil.example/room', 'host-not-allowed'],
    ['https://daily.co/room', 'host-not-allowed'],
    ['https://evil-daily.co/room', 'host-not-allowed'],
    ['https://vapi.daily.co.evil.example/room', 'host-not-allowed'],
    ['https://user:pass@vapi.daily.co/room', 'host-not-allowed'],
  ])('refuses %j as %s', (url, reason) => {
    expect(checkRoomUrl(url)).toMatchObject({ ok: false, reason });
  });

  it('takes other hosts for self-hosted rooms, exactly or by wildcard', () => {
    expect(checkRoomUrl('https://rooms.pepa.example/r', ['rooms.pepa.example'])).toMatchObject({
      ok: true,
    });
    expect(checkRoomUrl('https://a.rooms.pepa.example/r', ['*.rooms.pepa.example'])).toMatchObject({
      ok: true,
    });
    expect(checkRoomUrl('https://vapi.daily.co/r', ['rooms.pepa.example'])).toMatchObject({
      ok: false,
      reason: 'host-not-allowed',
    });
  });
});

describe('hostMatches', () => {
  it('matches subdomains for a wildcard, never the bare domain or a look-alike', () => {
    expect(hostMatches('a.daily.co', '*.daily.co')).toBe(true);
    expect(hostMatches('a.b.daily.co', '*.daily.co')).toBe(true);
    expect(hostMatches('daily.co', '*.daily.co')).toBe(false);
    expect(hostMatches('xdaily.co', '*.daily.co')).toBe(false);
    expect(hostMatches('daily.co', ' DAILY.CO ')).toBe(true);
    expect(hostMatches('daily.co', '')).toBe(false);
  });
});

describe('roomUrlOf', () => {
  it('reads webCallUrl, else the web-call transport, and nothing from other transports', () => {
    expect(roomUrlOf({ webCallUrl: 'https://a.daily.co/r' })).toBe('https://a.daily.co/r');
    expect(roomUrlOf({ transport: { provider: 'daily', callUrl: 'https://b.daily.co/r' } })).toBe(
      'https://b.daily.co/r',
    );
    expect(roomUrlOf({ transport: { provider: 'twilio', callSid: 'CA1' } })).toBeNull();
    expect(roomUrlOf({ transport: { callUrl: 42 } })).toBeNull();
    expect(roomUrlOf({ webCallUrl: ' ', transport: null })).toBeNull();
  });
});

describe('meetingTokenOf', () => {
  it("reads the transport's callToken, and nothing that is not a non-empty string", () => {
    expect(meetingTokenOf({ transport: { provider: 'daily', callToken: 'tok-1' } })).toBe('tok-1');
    expect(meetingTokenOf({ transport: { callToken: '' } })).toBeNull();
    expect(meetingTokenOf({ transport: { callToken: 42 } })).toBeNull();
    expect(meetingTokenOf({ transport: 'tok' })).toBeNull();
    expect(meetingTokenOf({})).toBeNull();
    expect(meetingTokenOf(null)).toBeNull();
  });
});
