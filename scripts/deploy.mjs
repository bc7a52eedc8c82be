// @ts-check
// `npm run deploy [-- options] [-- wrangler options]`: the whole site as one Worker. Checks the
// court gate's configuration (npm run doctor's gate lines), builds the live site, then runs
// `wrangler deploy -c gate/wrangler.jsonc` with the build as the Worker's static assets.
//
//   --dry-run        build and bundle only: wrangler's own --dry-run (passed through) contacts
//                    no Cloudflare service; the gate checks are shown but do not stop it (they
//                    read the provider only when VAPI_PRIVATE_KEY is set)
//   --force          deploy even though a gate check fails (or the page holds the public key)
//   --out <dir>      build into <dir> instead of dist/ and deploy that (tests use a temp folder)
//   --skip-build     deploy the build already in --out (default dist/) as it is
//
// Every other argument goes to wrangler as is: `npm run deploy -- --dry-run --outdir /tmp/b`.
// Limits exported in the shell (GATE_MAX_CONCURRENT_CALLS, GATE_DAILY_BUDGET_USD, …) override
// gate/wrangler.jsonc's vars with `--var`, so what the doctor checked is what runs.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runnerImport } from 'vite';
import { buildSite } from './build.mjs';

const root = resolve(import.meta.dirname, '..');
export const WRANGLER_CONFIG = 'gate/wrangler.jsonc';

/**
 * Splits the command line into the deploy's own options and wrangler's.
 * @param {readonly string[]} argv
 */
export function parseDeployArgs(argv) {
  const options = { dryRun: false, force: false, skipBuild: false, out: 'dist' };
  /** @type {string[]} */
  const wrangler = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--dry-run') {
      options.dryRun = true;
      wrangler.push(arg);
    } else if (arg === '--force') {
      options.force = true;
    } else if (arg === '--skip-build') {
      options.skipBuild = true;
    } else if (arg === '--out' || arg === '--assets') {
      const value = argv[i + 1];
      if (!value || value.startsWith('--')) throw new Error(`${arg} needs a folder`);
      options.out = value;
      i += 1;
    } else if (arg.startsWith('--out=') || arg.startsWith('--assets=')) {
      options.out = arg.slice(arg.indexOf('=') + 1);
    } else if (arg === '-c' || arg === '--config' || arg.startsWith('--config=')) {
      throw new Error(`the Worker's configuration is ${WRANGLER_CONFIG}; ${arg} is not taken`);
    } else {
      wrangler.push(arg);
    }
  }
  return { options, wrangler };
}

/**
 * The `wrangler deploy` arguments: the Worker's configuration, the build as its assets, the
 * shell's limit overrides as `--var`, then the caller's own.
 * @param {{ out: string, env: Record<string, string | undefined>, overridable: readonly string[], extra: readonly string[] }} input
 */
export function wranglerArgs({ out, env, overridable, extra }) {
  const vars = overridable
    .filter((name) => env[name]?.trim())
    .flatMap((name) => ['--var', `${name}:${env[name]?.trim()}`]);
  return ['deploy', '-c', WRANGLER_CONFIG, '--assets', resolve(root, out), ...vars, ...extra];
}

/** @param {readonly string[]} args @param {Record<string, string | undefined>} env */
function runWrangler(args, env) {
  // The CLI its package names in `bin` (the package exports no path to it).
  const manifest = createRequire(import.meta.url).resolve('wrangler/package.json');
  /** @type {{ bin: Record<string, string> }} */
  const { bin: bins } = JSON.parse(readFileSync(manifest, 'utf8'));
  const bin = resolve(dirname(manifest), bins['wrangler'] ?? 'bin/wrangler.js');
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, env, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`deploy: cannot run wrangler (${error.message})`);
      resolveRun(1);
    });
    child.on('exit', (code, signal) => resolveRun(code ?? (signal ? 1 : 0)));
  });
}

/**
 * @param {{ argv: readonly string[], env: Record<string, string | undefined>, log?: (line: string) => void, error?: (line: string) => void }} input
 * @returns {Promise<number>} the exit code
 */
export async function deploy({ argv, env, log = console.log, error = console.error }) {
  let parsed;
  try {
    parsed = parseDeployArgs(argv);
  } catch (problem) {
    error(`deploy: ${problem instanceof Error ? problem.message : String(problem)}`);
    return 1;
  }
  const { options, wrangler } = parsed;
  /** @type {import('vite').InlineConfig} */
  const importOptions = { configFile: false, logLevel: 'silent' };
  /** @type {{ module: typeof import('../assistant/doctor.ts') }} */
  const { module: doctor } = await runnerImport('./assistant/doctor.ts', importOptions);
  /** @type {{ module: typeof import('../assistant/gate-settings.ts') }} */
  const { module: settings } = await runnerImport('./assistant/gate-settings.ts', importOptions);

  // The gate's lines of `npm run doctor`: a failing one (or a public key in the page) stops a
  // real deploy unless --force; a dry run only shows them.
  const rows = (await doctor.runDoctor({ env, dist: options.out })).filter((row) => row.gate);
  const blocking = rows.filter((row) => row.status === 'fail' || row.status === 'warn');
  if (blocking.length > 0) {
    log(doctor.formatDoctorTable(blocking).split('\n').slice(0, -2).join('\n'));
    const names = blocking.map((row) => row.check).join(', ');
    if (options.dryRun) {
      log(`\ndeploy: a real deploy would stop here (${names}); this dry run goes on.`);
    } else if (options.force) {
      log(`\ndeploy: --force: deploying despite ${names}.`);
    } else {
      error(
        `\ndeploy: not deploying: ${blocking.length} gate check(s) need attention (${names}). Fix them (npm run doctor), or pass --force.`,
      );
      return 1;
    }
  } else {
    log(`deploy: the gate's ${rows.length} checks pass.`);
  }

  if (options.skipBuild) {
    if (!existsSync(resolve(root, options.out, 'index.html'))) {
      error(`deploy: --skip-build, but ${options.out} holds no build.`);
      return 1;
    }
  } else {
    try {
      await buildSite({ outDir: options.out });
    } catch (problem) {
      error(
        `\ndeploy: build failed: ${problem instanceof Error ? problem.message : String(problem)}`,
      );
      return 1;
    }
  }

  const args = wranglerArgs({
    out: options.out,
    env,
    overridable: settings.GATE_OVERRIDABLE_VARS,
    extra: wrangler,
  });
  log(`deploy: wrangler ${args.join(' ')}`);
  const childEnv = { ...env };
  // A dry run contacts nobody: no usage metrics either.
  if (options.dryRun) childEnv.WRANGLER_SEND_METRICS ??= 'false';
  return runWrangler(args, childEnv);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  deploy({ argv: process.argv.slice(2), env: { ...process.env } }).then(
    (code) => process.exit(code),
    (problem) => {
      console.error(`deploy: ${problem instanceof Error ? problem.message : String(problem)}`);
      process.exit(1);
    },
  );
}
