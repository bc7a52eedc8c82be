// The demo's production path, locally: the court gate (the site's Worker, run in workerd through
// wrangler's own dev server, serving the built site as its assets) in front of the provider
// stand-in (gate/dev/provider-stand-in.mjs), which sits in front of the Prism mock of the
// provider's API. No keys: the gate gets demo secrets, Cloudflare's always-pass Turnstile test
// secret and the stand-in as both the provider and siteverify. Every GATE_* variable in the
// environment (or in `vars`) is passed on, so `GATE_MAX_CONCURRENT_CALLS=2 npm start` shows the
// line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startProviderStandIn, TURNSTILE_TEST_SECRETS } from '../../gate/dev/provider-stand-in.mjs';
import { isPortFree } from './ports.mjs';
import { startPrism } from './prism.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const WRANGLER_CONFIG = resolve(root, 'gate', 'wrangler.jsonc');

/**
 * The stand-in's part of the field latency model (docs/demo-simulator.md), when `PEPA_LATENCY=field`; the page
 * plays the rest with `?latency=field`.
 * @returns {{ siteverifyMs: number, gateWorkMs: number, callWebMs: number, chatFirstWordMs: number, chatWordMs: number } | null}
 */
export function standInLatency(env = process.env) {
  if (env.PEPA_LATENCY !== 'field') return null;
  /** @type {{ siteverifyMs: number, gateWorkMs: number, callWebMs: number, chatFirstWordMs: number, chatWordMs: number }} */
  const model = JSON.parse(
    readFileSync(resolve(root, 'src/lib/call/simulator/field-latency.json'), 'utf8'),
  );
  return {
    siteverifyMs: model.siteverifyMs,
    gateWorkMs: model.gateWorkMs,
    callWebMs: model.callWebMs,
    chatFirstWordMs: model.chatFirstWordMs,
    chatWordMs: model.chatWordMs,
  };
}

/** The demo's secrets: good for nothing but the local stack. */
export const DEMO_SECRETS = {
  VAPI_PRIVATE_KEY: 'demo-private-key-not-a-secret',
  VAPI_ASSISTANT_ID: 'demo-pepa-assistant',
  TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.pass,
  GATE_WEBHOOK_SECRET: 'demo-webhook-secret',
  GATE_VISITOR_SALT: 'demo-visitor-salt',
  GATE_ADMIN_TOKEN: 'demo-admin-token',
  // The model engine's key, which the stand-in's endpoint takes as any key.
  MODEL_API_KEY: 'demo-model-key-not-a-secret',
};

/**
 * Every GATE_* variable in `env`, then in `vars` (which win); empty values are not passed on.
 * @param {Record<string, string | undefined>} [env]
 * @param {Record<string, string | number | undefined>} [vars]
 * @returns {Record<string, string>}
 */
export function gateVars(env = process.env, vars = {}) {
  /** @type {Record<string, string>} */
  const merged = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('GATE_') && value !== undefined && value !== '') merged[name] = value;
  }
  for (const [name, value] of Object.entries(vars)) {
    if (value !== undefined) merged[name] = String(value);
  }
  return merged;
}

/**
 * The Worker's bindings for `values`: plain variables, or secrets (which wrangler keeps out of
 * its printed binding table).
 * @param {Record<string, string>} values
 * @param {'plain_text' | 'secret_text'} type
 * @returns {Record<string, { type: 'plain_text' | 'secret_text', value: string }>}
 */
export function textBindings(values, type) {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { type, value }]));
}

/**
 * The Worker's config at `configPath`, written as JSON to `outPath` with its edge limiter's
 * allowance per period set to `limit` (and its entry point made absolute, so it may be written
 * anywhere). Returns `outPath`.
 * @param {string} configPath
 * @param {string} outPath
 * @param {number} limit
 */
export async function withEdgeLimit(configPath, outPath, limit) {
  const { experimental_readRawConfig: readRawConfig } = await import('wrangler');
  const { rawConfig } = readRawConfig({ config: configPath });
  const { $schema: _schema, ...config } = /** @type {Record<string, any>} */ (rawConfig);
  config.main = resolve(dirname(configPath), String(config.main));
  config.ratelimits = (config.ratelimits ?? []).map((/** @type {any} */ limiter) => ({
    ...limiter,
    simple: { ...limiter.simple, limit },
  }));
  writeFileSync(outPath, JSON.stringify(config, null, 2));
  return outPath;
}

/**
 * Where the Worker itself listens, behind wrangler's dev proxy, as wrangler's DevEnv tells its
 * proxy on each reload (`reloadComplete`'s `proxyData.userWorkerUrl`); the proxy is still told.
 * A request sent there skips only the proxy: its URL is the socket's (the gate's site hosts
 * include 127.0.0.1), and its CF-Connecting-IP is kept. Returns a reader of the latest address,
 * or of null when the DevEnv has no such hook (another wrangler), so that a caller falls back
 * to the proxy.
 * @param {import('wrangler').unstable_DevEnv} devEnv
 * @returns {() => string | null}
 */
function workerSocketOf(devEnv) {
  /** @type {string | null} */
  let latest = null;
  const proxy = devEnv.proxy;
  if (typeof proxy?.onReloadComplete !== 'function') return () => null;
  const tellProxy = proxy.onReloadComplete.bind(proxy);
  proxy.onReloadComplete = (event) => {
    const at = event.proxyData?.userWorkerUrl;
    if (at) latest = `${at.protocol}//${at.hostname}:${at.port}`;
    tellProxy(event);
  };
  return () => latest;
}

/** How long a gate that is listening is given to load its Worker and answer a first request. */
export const FIRST_ANSWER_MS = 60_000;

/**
 * Asks `url` until it answers, for at most `withinMs`: a machine busy starting browsers and other
 * stacks can take longer than one request's patience to load the Worker the first time. Resolves
 * with null once it answered, else with what the last attempt met.
 * @param {string} url
 * @param {number} withinMs
 * @returns {Promise<string | null>}
 */
export async function firstAnswer(url, withinMs) {
  const deadline = Date.now() + withinMs;
  let last = 'no attempt';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(Math.max(1000, deadline - Date.now())),
      });
      await response.arrayBuffer();
      return null;
    } catch (error) {
      last = String(error);
      await new Promise((done) => setTimeout(done, 250));
    }
  }
  return last;
}

/**
 * Starts Prism (on a free port, unless `prismUrl` names one running), the provider stand-in on
 * `mockPort` and the gate on `sitePort`.
 * @param {{
 *   sitePort: number,
 *   mockPort: number,
 *   assetsDir: string,
 *   vars?: Record<string, string | number>,
 *   quiet?: boolean,
 *   standIn?: Omit<Parameters<typeof startProviderStandIn>[0], 'prismUrl' | 'gateUrl' | 'port'>,
 *   env?: NodeJS.ProcessEnv,
 *   liveSource?: boolean,
 *   edgeLimit?: number | null,
 *   prismUrl?: string | null,
 * }} options
 *   `vars`: GATE_* (or other) Worker variables over the environment's; `standIn`: the surge's
 *   options for the stand-in (call lengths, lost messages, time compression); `liveSource`:
 *   wrangler's `dev.watch` (the config and assets watched). Wrangler (as of 4.86) bundles the Worker
 *   with esbuild's watch whatever `dev.watch` says, so an edit of gate/src may reload the
 *   running gate; the court's line and calls live in the Durable Object's storage (persisted
 *   in a temporary folder), which a reload keeps. `edgeLimit`: the edge limiter's requests per
 *   visitor per period instead of wrangler.jsonc's (the demo's pages all come from one address).
 * `prismUrl`: a Prism of the vendored provider spec already running, which this stack uses and
 * leaves running (a suite's courts share one; Prism keeps no state between requests).
 * `url` is wrangler's dev server, the address a browser is given: a proxy of wrangler's own (its
 * live reload and inspector) in front of the Worker, in a second workerd process. `workerUrl` is
 * the Worker's own socket, with nothing of wrangler's in between, as a request meets it on
 * Cloudflare (null when wrangler did not say it; see workerSocketOf).
 * @returns {Promise<{ url: string, workerUrl: string | null, standInUrl: string, standIn: Awaited<ReturnType<typeof startProviderStandIn>>, secrets: typeof DEMO_SECRETS, stop: () => Promise<void> }>}
 */
export async function startCourtStack({
  sitePort,
  mockPort,
  assetsDir,
  vars = {},
  quiet = false,
  standIn: standInOptions = {},
  env = process.env,
  liveSource = false,
  edgeLimit = null,
  prismUrl = null,
}) {
  const host = '127.0.0.1';
  const url = `http://${host}:${sitePort}`;
  if (!(await isPortFree(sitePort, host))) {
    throw new Error(`Cannot start the gate: ${url} is already in use.`);
  }
  /** @type {Array<() => Promise<unknown>>} */
  const stops = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
  };
  try {
    const prism = prismUrl ? { url: prismUrl } : await startPrism({ quiet: true });
    if ('stop' in prism) stops.push(() => prism.stop());
    const secrets = {
      ...DEMO_SECRETS,
      ...(env.GATE_WEBHOOK_SECRET ? { GATE_WEBHOOK_SECRET: env.GATE_WEBHOOK_SECRET } : {}),
      ...(vars.GATE_WEBHOOK_SECRET
        ? { GATE_WEBHOOK_SECRET: String(vars.GATE_WEBHOOK_SECRET) }
        : {}),
    };
    const standIn = await startProviderStandIn({
      quiet: true,
      latency: standInLatency(env),
      ...standInOptions,
      prismUrl: prism.url,
      gateUrl: url,
      webhookSecret: secrets.GATE_WEBHOOK_SECRET,
      port: mockPort,
      host,
    });
    stops.push(() => standIn.stop());
    if (!quiet)
      console.log(`Provider stand-in on ${standIn.url} (in front of Prism on ${prism.url})`);

    const state = mkdtempSync(join(tmpdir(), 'pepa-court-'));
    stops.push(async () => rmSync(state, { recursive: true, force: true }));
    // Miniflare would fetch Cloudflare's request metadata (`request.cf`) from the network; its
    // built-in stand-in does for a local run.
    process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';
    const { unstable_DevEnv: DevEnv } = await import('wrangler');
    const devEnv = new DevEnv();
    const ownSocket = workerSocketOf(devEnv);
    const worker = await devEnv.startWorker({
      config:
        edgeLimit === null
          ? WRANGLER_CONFIG
          : await withEdgeLimit(WRANGLER_CONFIG, join(state, 'wrangler.local.json'), edgeLimit),
      assets: resolve(assetsDir),
      // No .env or .dev.vars from the working tree: the demo's values are all given here.
      envFiles: [],
      sendMetrics: false,
      bindings: {
        ...textBindings(
          {
            VAPI_API_URL: standIn.url,
            TURNSTILE_VERIFY_URL: standIn.siteverifyUrl,
            // The stand-in's siteverify reports the page solved on localhost; the gate also
            // answers on 127.0.0.1.
            GATE_SITE_HOSTS: env.GATE_SITE_HOSTS || 'localhost,127.0.0.1',
            // The model engine's endpoint is the stand-in's (GATE_TEXT_ENGINE=provider-chat
            // in the environment tries the provider's chat instead).
            GATE_MODEL_API_URL: standIn.modelApiUrl,
            ...gateVars(env, vars),
            // Cards name the local stack's own origin, not a deployed site's from the shell.
            GATE_SITE_ORIGIN: vars.GATE_SITE_ORIGIN ? String(vars.GATE_SITE_ORIGIN) : url,
          },
          'plain_text',
        ),
        ...textBindings(secrets, 'secret_text'),
      },
      dev: {
        server: { hostname: host, port: sitePort },
        inspector: false,
        remote: false,
        persist: join(state, 'state'),
        watch: liveSource,
        liveReload: false,
        enableContainers: false,
        logLevel: quiet ? 'error' : 'warn',
      },
    });
    stops.push(() => worker.dispose());
    await worker.ready;
    // Ready means listening; the first request also waits for the Worker's first load.
    const unanswered = await firstAnswer(`${url}/api/report`, FIRST_ANSWER_MS);
    if (unanswered !== null) {
      throw new Error(
        `The gate did not answer on ${url} within ${FIRST_ANSWER_MS / 1000} s (${unanswered}).`,
      );
    }
    if (!quiet) console.log(`Court gate (wrangler, workerd) on ${url}`);
    /** @type {Promise<void> | undefined} */
    let stopped;
    return {
      url,
      workerUrl: ownSocket(),
      standInUrl: standIn.url,
      standIn,
      secrets,
      stop: () => (stopped ??= stopAll()),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
