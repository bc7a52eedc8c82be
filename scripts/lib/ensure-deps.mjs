// Installs the locked dependencies when node_modules is missing or older than the lockfile.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

function npm(root, args) {
  return spawnSync('npm', [...args, '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

export function ensureDependencies(root) {
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing dependencies (npm ci)…');
  if (npm(root, ['ci']).status === 0) return;
  // `npm ci` refuses a lockfile without entries for other platforms' optional binaries (some
  // registries omit them); `npm install` installs the same locked versions from it.
  console.log('npm ci refused the lockfile; installing the locked versions with npm install…');
  const result = npm(root, ['install']);
  if (result.status !== 0) {
    console.error('Installing dependencies failed: see the output above.');
    process.exit(result.status ?? 1);
  }
}
