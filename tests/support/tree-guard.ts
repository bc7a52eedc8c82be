// Vitest global setup: fails the run when any test wrote to dist/ or a guarded tracked folder.
import { resolve } from 'node:path';
import { diffSnapshots, snapshotTree } from './tree-snapshot';

const root = resolve(import.meta.dirname, '../..');

export default function setup() {
  const before = snapshotTree(root);
  return () => {
    const problems = diffSnapshots(before, snapshotTree(root));
    if (problems.length > 0) {
      throw new Error(
        `The tests wrote to the working tree (${problems.length} file(s)); build into a temporary folder instead:\n  ${problems.slice(0, 20).join('\n  ')}`,
      );
    }
  };
}
