// The demo's production path, locally: the court gate (the site's Worker, run by `wrangler dev` in
// workerd, serving the built site as its assets) in front of the provider stand-in
// (gate/dev/provider-stand-in.mjs), which sits in front of the Prism mock of the provider's API.
// No keys: the gate gets demo secrets, Cloudflare's always-pass Turnstile test secret and the
// stand-in as both the provider and siteverify. Every GATE_* variable in the environment (or in
// `vars`) is passed on, so `GATE_MAX_CONCURRENT_CALLS=2 npm start` shows the line.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startProviderStandIn, TURNSTILE_TEST_SECRETS } from '../../gate/dev/provider-stand-in.mjs';
import { isPortFree } from './ports.mjs';
import { startPrism } from './prism.mjs';

/**
 * The stand-in's part of the field latency model (README), when `PEPA_LATENCY=field`; the page
 * plays the rest with `?latency=field`.
 */
export function standInLatency(env = process.env) {
  if (env.PEPA_LATENCY !== 'field') return null;
  const model = JSON.parse(
    readFileSync(resolve(root, 'src/lib/call/simulator/field-latency.json'), 'utf8'),
  );
  return {
    siteverifyMs: model.siteverifyMs,
    gateWorkMs: model.gateWorkMs,
    callWebMs: model.callWebMs,
  };
}

const root = resolve(import.meta.dirname, '..', '..');
const wranglerBin = resolve(root, 'node_modules', '.bin', 'wrangler');
const guard = resolve(root, 'gate', 'dev', 'process-guard.mjs');
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 8_000;

/** The demo's secrets: good for nothing but the local stack. */
export const DEMO_SECRETS = {
  VAPI_PRIVATE_KEY: 'demo-private-key-not-a-secret',
  VAPI_ASSISTANT_ID: 'demo-pepa-assistant',
  TURNSTILE_SECRET_KEY: TURNSTILE_TEST_SECRETS.pass,
  GATE_WEBHOOK_SECRET: 'demo-webhook-secret',
  GATE_VISITOR_SALT: 'demo-visitor-salt',
  GATE_ADMIN_TOKEN: 'demo-admin-token',
};

/** `--var NAME:VALUE` for every GATE_* variable in `env`, then in `vars` (which win). */
export function gateVarArgs(env = process.env, vars = {}) {
  const merged = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('GATE_') && value !== undefined && value !== '') merged[name] = value;
  }
  for (const [name, value] of Object.entries(vars)) {
    if (value !== undefined) merged[name] = String(value);
  }
  return Object.entries(merged).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
}

/** The env file's text: one NAME=value a line, values quoted. */
export function envFileText(values) {
  return (
    Object.entries(values)
      .map(([name, value]) => `${name}=${JSON.stringify(String(value))}`)
      .join('\n') + '\n'
  );
}

/**
 * A copy of the Worker's source (gate/ and the generated clients it imports) in `dir`, so the
 * running gate does not reload, losing its line, when a file in the working tree changes:
 * `wrangler dev` always watches what it bundles. Returns the copy's wrangler config.
 */
export function snapshotWorker(dir) {
  for (const part of ['gate/src', 'gate/wrangler.jsonc', 'gate/tsconfig.json', 'generated']) {
    cpSync(resolve(root, part), join(dir, part), { recursive: true });
  }
  // The Worker's bare imports (valibot) resolve from the copy as from the checkout.
  symlinkSync(resolve(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return join(dir, 'gate', 'wrangler.jsonc');
}

const delay = (ms) => new Promise((done) => setTimeout(done, ms));

/** Resolves once anything answers HTTP at `url`. */
async function answers(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts Prism (on a free port), the provider stand-in on `mockPort` and the gate on `sitePort`.
 * @param {{
 *   sitePort: number,
 *   mockPort: number,
 *   assetsDir: string,
 *   vars?: Record<string, string | number>,
 *   quiet?: boolean,
 *   standIn?: Omit<Parameters<typeof startProviderStandIn>[0], 'prismUrl' | 'gateUrl' | 'port'>,
 *   env?: NodeJS.ProcessEnv,
 *   liveSource?: boolean,
 * }} options
 *   `vars`: GATE_* (or other) Worker variables over the environment's; `standIn`: the surge's
 *   options for the stand-in (call lengths, lost messages, time compression); `liveSource`:
 *   run the working tree's gate/ (reloaded, its line lost, on every change) instead of a copy
 *   taken at start.
 * @returns {Promise<{ url: string, standInUrl: string, standIn: Awaited<ReturnType<typeof startProviderStandIn>>, secrets: typeof DEMO_SECRETS, stop: () => Promise<void> }>}
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
}) {
  const host = '127.0.0.1';
  const url = `http://${host}:${sitePort}`;
  if (!(await isPortFree(sitePort, host))) {
    throw new Error(`Cannot start the gate: ${url} is already in use.`);
  }
  const stops = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
  };
  try {
    const prism = await startPrism({ quiet: true });
    stops.push(() => prism.stop());
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

    const temp = mkdtempSync(join(tmpdir(), 'pepa-court-'));
    stops.push(async () => rmSync(temp, { recursive: true, force: true }));
    const envFile = join(temp, 'gate.env');
    // The env file holds the secrets alone: wrangler reads only those wrangler.jsonc declares in
    // `secrets.required` from it. Variables go as --var.
    writeFileSync(envFile, envFileText(secrets));
    const standInVars = {
      VAPI_API_URL: standIn.url,
      TURNSTILE_VERIFY_URL: standIn.siteverifyUrl,
      // The stand-in's siteverify reports the page solved on localhost; the gate also answers
      // on 127.0.0.1.
      GATE_SITE_HOSTS: env.GATE_SITE_HOSTS || 'localhost,127.0.0.1',
    };
    const config = liveSource
      ? resolve(root, 'gate', 'wrangler.jsonc')
      : snapshotWorker(join(temp, 'worker'));
    const args = [
      wranglerBin,
      'dev',
      '-c',
      config,
      '--assets',
      resolve(assetsDir),
      '--port',
      String(sitePort),
      '--ip',
      host,
      '--local',
      '--show-interactive-dev-session=false',
      '--persist-to',
      join(temp, 'state'),
      '--env-file',
      envFile,
      '--log-level',
      quiet ? 'error' : 'warn',
      ...gateVarArgs(env, { ...standInVars, ...vars }),
    ];
    const child = spawn(process.execPath, [guard, ...args], {
      cwd: temp,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        ...env,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_LOG_PATH: join(temp, 'logs'),
        NO_COLOR: '1',
        FORCE_COLOR: '0',
      },
    });
    let output = '';
    const keep = (chunk) => {
      output = (output + chunk.toString()).slice(-6000);
    };
    child.stdout.on('data', (chunk) => (quiet ? keep(chunk) : process.stdout.write(chunk)));
    child.stderr.on('data', (chunk) => (quiet ? keep(chunk) : process.stderr.write(chunk)));
    const exited = new Promise((done) => child.once('exit', () => done()));
    const killOnExit = () => child.kill('SIGTERM');
    process.once('exit', killOnExit);
    stops.push(async () => {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
    });

    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`The gate (wrangler dev) exited before it answered.\n${output.trim()}`);
      }
      // Any answer from the Worker will do; the report answers 401 without the owner's token.
      if (await answers(`${url}/api/report`)) break;
      if (Date.now() > deadline) {
        throw new Error(
          `The gate did not answer on ${url} within ${READY_TIMEOUT_MS} ms.\n${output.trim()}`,
        );
      }
      await delay(250);
    }
    if (!quiet) console.log(`Court gate (wrangler dev, workerd) on ${url}`);
    let stopped;
    return {
      url,
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
