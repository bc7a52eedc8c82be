/**
 * The project's own import graph, read the way TypeScript reads imports (static imports, type
 * imports, `export … from`, `import()` with a literal, `require`), for the structure tests: which
 * source files import which, and the import cycles among them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'generated', '.wrangler', 'dist', 'test-results']);

/** Every source file under `roots` (relative to `root`), generated code and declarations left out. */
export function sourceFiles(root: string, roots: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.') || SKIPPED_DIRS.has(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(name) && !name.endsWith('.d.ts')) files.push(relative(root, path));
    }
  };
  for (const top of roots) {
    const dir = resolve(root, top);
    if (existsSync(dir)) walk(dir);
  }
  return files.sort();
}

/** The file a relative specifier names, as Node and the bundler resolve it; null for packages. */
function resolveSpecifier(root: string, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(root, dirname(from), specifier);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    ...['.ts', '.tsx', '.mjs', '.js'].map((extension) => base + extension),
    ...['index.ts', 'index.tsx', 'index.mjs', 'index.js'].map((index) => join(base, index)),
  ];
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  return found === undefined ? null : relative(root, found);
}

/** For each file, the project files it imports (those among `files`). */
export function importGraph(root: string, files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(resolve(root, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = importedFiles
      .map(({ fileName }) => resolveSpecifier(root, file, fileName))
      .filter((target): target is string => target !== null && known.has(target));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The graph's cycles: each strongly connected component of more than one file, or a file that
 * imports itself (Tarjan's algorithm), each listed in sorted order.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];

  const visit = (file: string) => {
    index.set(file, counter);
    lowLink.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfLoop = (graph.get(file) ?? []).includes(file);
    if (component.length > 1 || selfLoop) cycles.push(component.sort());
  };

  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
