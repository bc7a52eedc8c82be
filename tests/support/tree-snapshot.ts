// A fingerprint of the paths tests must never write to: the working dist/ and the tracked
// folders a build or generator could touch. `npm test` takes one before and after the run.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Folders, relative to the repository root, whose bytes a test run must leave as they were. */
export const GUARDED_PATHS = ['dist', 'openapi', 'generated', 'public', 'tests/fixtures', 'docs'];

/** Maps each file under the guarded paths to the SHA-256 of its bytes. */
export function snapshotTree(root: string, paths = GUARDED_PATHS): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of paths) {
    const dir = join(root, path);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      files.set(
        relative(root, file),
        createHash('sha256').update(readFileSync(file)).digest('hex'),
      );
    }
  }
  return files;
}

/** Lists what differs between two snapshots: files added, removed or changed. */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, hash] of before) {
    if (!after.has(file)) problems.push(`removed: ${file}`);
    else if (after.get(file) !== hash) problems.push(`changed: ${file}`);
  }
  for (const file of after.keys()) if (!before.has(file)) problems.push(`added: ${file}`);
  return problems.sort();
}
