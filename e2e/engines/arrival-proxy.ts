// A small proxy in front of the served site that changes how one path arrives: late by a given
// time, failing its first requests, or answered with what the gate would answer in a state the
// local court cannot reach on demand. WebKitWebDriver cannot intercept a request, so the arrival
// matrix puts this in front of the site for every engine alike: each engine meets the same
// arrival, made the same way. It also forwards the Host and Origin of the site itself, so the
// court gate behind it answers as it answers the site's own pages.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ArrivalRules {
  /** Requests whose path matches are answered this late. */
  late?: { path: RegExp; ms: number };
  /** The first `times` requests whose path matches are answered with a 503. */
  fail?: { path: RegExp; times: number };
  /** Every page (an HTML response) is served with `Cache-Control: no-store`. */
  noStorePages?: boolean;
  /** Requests whose path matches get this answer, and the site never hears of them. */
  answer?: { path: RegExp; status: number; headers: Record<string, string>; body: string };
}

export interface ArrivalProxy {
  /** The proxy's origin, ending in a slash. */
  readonly url: string;
  /** The paths it changed, in order, as `failed /x`, `late /x` or `answered /x`. */
  readonly changed: string[];
  close(): Promise<void>;
}

export async function startArrivalProxy(site: string, rules: ArrivalRules): Promise<ArrivalProxy> {
  const upstream = new URL(site);
  const changed: string[] = [];
  let failuresLeft = rules.fail?.times ?? 0;
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const headers = { ...incoming.headers, host: upstream.host };
    if (headers.origin) headers.origin = upstream.origin;
    if (headers.referer)
      headers.referer = new URL(new URL(headers.referer).pathname, upstream).href;
    const upstreamRequest = request(
      {
        // A connection of its own for each request: a kept-alive one may be closed by the site
        // just as it is reused (its idle timeout), and the reset would reach the browser as a
        // failed request no arrival asked for.
        agent: false,
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers,
      },
      (answer) => {
        const answerHeaders = { ...answer.headers };
        if (rules.noStorePages && /text\/html/.test(String(answerHeaders['content-type']))) {
          answerHeaders['cache-control'] = 'no-store';
        }
        outgoing.writeHead(answer.statusCode ?? 502, answerHeaders);
        answer.pipe(outgoing);
      },
    );
    upstreamRequest.on('error', () => outgoing.destroy());
    incoming.pipe(upstreamRequest);
  };

  const server = createServer((incoming, outgoing) => {
    const path = new URL(incoming.url ?? '/', upstream).pathname;
    if (rules.fail && failuresLeft > 0 && rules.fail.path.test(path)) {
      failuresLeft -= 1;
      changed.push(`failed ${path}`);
      incoming.resume();
      outgoing.writeHead(503, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      outgoing.end('Unavailable');
      return;
    }
    if (rules.answer && rules.answer.path.test(path)) {
      changed.push(`answered ${path}`);
      incoming.resume();
      outgoing.writeHead(rules.answer.status, rules.answer.headers);
      outgoing.end(rules.answer.body);
      return;
    }
    if (rules.late && rules.late.path.test(path)) {
      changed.push(`late ${path}`);
      const timer = setTimeout(() => {
        timers.delete(timer);
        forward(incoming, outgoing);
      }, rules.late.ms);
      timers.add(timer);
      return;
    }
    forward(incoming, outgoing);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    changed,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise((done) => server.close(done));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
