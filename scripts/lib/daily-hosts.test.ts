import { describe, expect, it } from 'vitest';
import { parseSiteConfig } from '../../src/config/site-config';
import {
  contentSecurityPolicy,
  DAILY_DOMAINS,
  DAILY_ERROR_REPORTING,
  headersFile,
} from '../site-html-plugin';
import {
  dailyHostsInSource,
  installedDailySource,
  missingDailySources,
  NOT_HOSTS,
  NOT_REQUESTED,
  parsePolicy,
  requiredDailySources,
} from './daily-hosts.mjs';

const live = parseSiteConfig({
  VITE_VAPI_PUBLIC_KEY: 'public-key',
  VITE_VAPI_ASSISTANT_ID: 'assistant-id',
});

/** The policy a built page carries in its `_headers` file. */
const headerPolicy = (headers: string) => /Content-Security-Policy: (.*)/.exec(headers)?.[1] ?? '';

describe('dailyHostsInSource', () => {
  it("takes the call machine's domain from its URL, and other absolute URLs as origins", () => {
    const source = [
      'function B(e){return F("https://c.daily.co/call-machine/versioned/".concat("0.87.0"),e)}',
      'var e=yield fetch("https://gs.daily.co/_ks_/x-swsl/:");',
      'new Or({dsn:"https://key@o1.ingest.example.io/42"});',
      'new Request("http://www.example.com");',
      'e.x==="console.assert"',
    ].join('\n');
    expect(dailyHostsInSource(source)).toEqual({
      callMachine: ['https://c.daily.co'],
      domains: ['daily.co'],
      origins: ['https://gs.daily.co', 'https://o1.ingest.example.io'],
      problems: [],
    });
  });

  it('reads the call machine put together from a list of base domains, failover domains too', () => {
    const source = [
      'var U=["daily.co","dailywebrtc.com","dailywebrtc.net"],V=null;',
      'var o=z("https://c.".concat(t,"/call-machine/versioned/","0.92.2","/static"),e);',
      'e.x==="console.assert";var f=["0.1","2"];',
    ].join('\n');
    expect(dailyHostsInSource(source)).toEqual({
      callMachine: ['https://c.daily.co', 'https://c.dailywebrtc.com', 'https://c.dailywebrtc.net'],
      domains: ['daily.co', 'dailywebrtc.com', 'dailywebrtc.net'],
      origins: [],
      problems: [],
    });
  });

  it('reports a call machine put together from domains it cannot tell apart', () => {
    const template = 'var m="https://c.".concat(t,"/call-machine/");';
    expect(dailyHostsInSource(template).problems).toEqual([
      'no call-machine URL ("…/call-machine/…")',
      'no single list of base domains for the call machine ("https://c.")',
    ]);
    const twoLists = `var U=["daily.co"],W=["relay.example.net"];${template}`;
    expect(dailyHostsInSource(twoLists).problems).toEqual([
      'no call-machine URL ("…/call-machine/…")',
      'no single list of base domains for the call machine ("https://c.")',
      'unreviewed host-like literal "daily.co"',
      'unreviewed host-like literal "relay.example.net"',
    ]);
  });

  it('reports a host-like literal nobody has reviewed', () => {
    const source = 'var m="https://c.daily.co/call-machine/x.js";var relay="relay.dailyrtc.io";';
    expect(dailyHostsInSource(source).problems).toEqual([
      'unreviewed host-like literal "relay.dailyrtc.io"',
    ]);
  });

  it('reports a URL whose host is put together at run time, and a missing call machine', () => {
    const source = 'var U=["daily.co"];var m="https://c.".concat(U[0],"/call-machine/");';
    expect(dailyHostsInSource(source).problems).toEqual([
      'URL without a full host name "https://c."',
      'no call-machine URL ("…/call-machine/…")',
      'unreviewed host-like literal "daily.co"',
    ]);
  });
});

describe('the page policy and the installed daily-js', () => {
  it('reads every host daily-js uses, with nothing left unreviewed', async () => {
    const { source } = await installedDailySource();
    const hosts = dailyHostsInSource(source);
    expect(hosts.problems).toEqual([]);
    expect(hosts.callMachine).not.toEqual([]);
  });

  it('names in the policy exactly the domains and error reporting daily-js uses', async () => {
    const hosts = dailyHostsInSource((await installedDailySource()).source);
    expect([...DAILY_DOMAINS]).toEqual(hosts.domains);
    expect(hosts.origins).toContain(DAILY_ERROR_REPORTING);
  });

  it('keeps only reviews of strings the installed daily-js still has', async () => {
    const source = (await installedDailySource()).source;
    const lower = source.toLowerCase();
    const stale = [
      ...[...NOT_HOSTS.keys()].filter((literal) => !lower.includes(`"${literal}"`)),
      ...[...NOT_REQUESTED.keys()].filter((url) => !source.includes(url)),
    ];
    expect(stale).toEqual([]);
  });

  it("names daily-js's failover domains, for networks that block daily.co", async () => {
    const hosts = dailyHostsInSource((await installedDailySource()).source);
    expect(hosts.domains).toEqual(['daily.co', 'dailywebrtc.com', 'dailywebrtc.net']);
    const policy = parsePolicy(contentSecurityPolicy(live));
    for (const domain of ['dailywebrtc.com', 'dailywebrtc.net']) {
      expect(policy.get('script-src')).toContain(`https://*.${domain}`);
      expect(policy.get('connect-src')).toEqual(
        expect.arrayContaining([`https://*.${domain}`, `wss://*.${domain}`]),
      );
    }
  });

  it('allows every host daily-js loads scripts from or connects to, in the meta and _headers', async () => {
    const { source } = await installedDailySource();
    const required = requiredDailySources(dailyHostsInSource(source));
    expect(missingDailySources(contentSecurityPolicy(live), required)).toEqual([]);
    expect(missingDailySources(headerPolicy(headersFile(live)), required)).toEqual([]);
  });

  it('names what a policy lacks for a domain, a socket and an error-reporting origin', () => {
    const required = requiredDailySources({
      domains: ['daily.co'],
      origins: ['https://gs.daily.co', 'https://o1.ingest.example.io'],
    });
    const policy =
      "default-src 'self'; script-src 'self' https://*.daily.co; connect-src 'self' https://*.daily.co";
    expect(missingDailySources(policy, required)).toEqual([
      'connect-src wss://*.daily.co',
      'connect-src https://o1.ingest.example.io',
    ]);
  });

  it('allows a subdomain under a wildcard, but not the bare domain or a look-alike', () => {
    const policy = "connect-src 'self' https://*.daily.co";
    const required = (origin: string) => ({ 'connect-src': [origin] });
    expect(missingDailySources(policy, required('https://gs.daily.co'))).toEqual([]);
    expect(missingDailySources(policy, required('https://a.b.daily.co'))).toEqual([]);
    expect(missingDailySources(policy, required('https://daily.co'))).toEqual([
      'connect-src https://daily.co',
    ]);
    expect(missingDailySources(policy, required('https://evil-daily.co'))).toEqual([
      'connect-src https://evil-daily.co',
    ]);
    expect(missingDailySources(policy, required('wss://gs.daily.co'))).toEqual([
      'connect-src wss://gs.daily.co',
    ]);
  });
});
