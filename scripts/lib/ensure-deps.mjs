// @ts-check
// Installs the locked dependencies when node_modules is missing or older than the lockfile, with
// `npm ci` kept to one summary line on success.
//
// npm's warnings are not hidden: on a supported Node a clean install has none (no package's
// `engines` excludes the range package.json states, and `allowScripts` decides every install
// script; tests/build/install.test.ts holds both to the lockfile), so a warning that does print
// is news, such as a Node outside that range. Errors print in full.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const NPM_ARGS = ['ci', '--no-audit', '--no-fund'];

/** @param {string} root the repository's root folder */
export function ensureDependencies(root) {
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing the locked dependencies (npm ci, about a minute on a fresh clone)…');
  const started = performance.now();
  const result = spawnSync('npm', NPM_ARGS, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    console.error(`Installing dependencies failed (npm ${NPM_ARGS.join(' ')}): see above.`);
    process.exit(result.status ?? 1);
  }
  // npm's own summary ("added 563 packages in 40s") is the one line worth keeping.
  const summary = (result.stdout ?? '').trim().split('\n').filter(Boolean).pop();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    summary ? `Dependencies: ${summary.trim()}` : `Dependencies installed in ${seconds} s.`,
  );
}
