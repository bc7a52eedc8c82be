import { describe, expect, it } from 'vitest';
import { parseSiteConfig } from '../../src/config/site-config';
import { contentSecurityPolicy, headersFile } from '../site-html-plugin';
import {
  dailyHostsInSource,
  installedDailySource,
  missingDailySources,
  requiredDailySources,
} from './daily-hosts.mjs';

const live = parseSiteConfig({
  VITE_VAPI_PUBLIC_KEY: 'public-key',
  VITE_VAPI_ASSISTANT_ID: 'assistant-id',
});

describe('dailyHostsInSource', () => {
  it('finds the base domains in the array with daily.co, and absolute URLs as origins', () => {
    const source = [
      'var U=["daily.co","dailywebrtc.com","dailywebrtc.net"];',
      'var z=z("https://c.".concat(t,"/call-machine"));',
      'new Or({dsn:"https://key@o1.ingest.example.io/42"});',
      'new Request("http://www.example.com");',
      'e.x==="console.assert"',
    ].join('\n');
    expect(dailyHostsInSource(source)).toEqual({
      baseDomains: ['daily.co', 'dailywebrtc.com', 'dailywebrtc.net'],
      origins: ['https://o1.ingest.example.io'],
      unknown: [],
    });
  });

  it('reports a host-like literal outside the base-domain list for review', () => {
    const source = 'var U=["daily.co"];var relay="relay.dailyrtc.io";';
    expect(dailyHostsInSource(source).unknown).toEqual(['relay.dailyrtc.io']);
  });
});

describe('the page policy and the installed daily-js', () => {
  it('reads every host daily-js uses, with nothing left unreviewed', async () => {
    const { source } = await installedDailySource();
    const hosts = dailyHostsInSource(source);
    expect(hosts.unknown).toEqual([]);
    // The fallback domains are what a network that blocks daily.co needs.
    expect(hosts.baseDomains).toEqual(
      expect.arrayContaining(['daily.co', 'dailywebrtc.com', 'dailywebrtc.net']),
    );
  });

  it('allows every host daily-js loads scripts from or connects to, in the meta and _headers', async () => {
    const { source } = await installedDailySource();
    const required = requiredDailySources(dailyHostsInSource(source));
    expect(missingDailySources(contentSecurityPolicy(live), required)).toEqual([]);
    const headerPolicy = /Content-Security-Policy: (.*)/.exec(headersFile(live))?.[1] ?? '';
    expect(missingDailySources(headerPolicy, required)).toEqual([]);
  });

  it('names what a policy that allows only daily.co lacks', () => {
    const required = requiredDailySources({
      baseDomains: ['daily.co', 'dailywebrtc.com'],
      origins: [],
    });
    const policy =
      "default-src 'self'; script-src 'self' https://*.daily.co; connect-src 'self' https://*.daily.co wss://*.daily.co";
    expect(missingDailySources(policy, required)).toEqual([
      'script-src https://*.dailywebrtc.com',
      'worker-src https://*.dailywebrtc.com',
      'connect-src https://*.dailywebrtc.com',
      'connect-src wss://*.dailywebrtc.com',
    ]);
  });
});
