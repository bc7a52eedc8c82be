// The project's own checks a candidate provider document must pass before it is vendored: the
// OpenAPI lint `npm run spec:lint` runs, and `npm run typecheck` itself (package.json's script, so
// the two cannot drift apart) in a copy of the project holding the document and its client.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '..', '..');

/**
 * The project's own OpenAPI lint, as `npm run spec:lint` (a step of `npm run verify`) runs it on
 * the vendored document: redocly with the repository's redocly.yaml. Its errors fail that step;
 * its warnings do not. One line per problem: `rule at pointer: message`.
 * @param {string} file
 * @returns {{ errorCount: number, errors: string[], warnings: string[] }}
 */
export function projectLint(file) {
  const redocly = resolve(repoRoot, 'node_modules', '.bin', 'redocly');
  const result = spawnSync(
    redocly,
    [
      'lint',
      file,
      '--config',
      join(repoRoot, 'redocly.yaml'),
      '--format',
      'json',
      '--max-problems',
      '100000',
    ],
    { cwd: repoRoot, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
  );
  /**
   * @typedef {{ ruleId: string, severity: string, message: string,
   *   location?: Array<{ pointer?: string }> }} LintProblem
   */
  /** @type {{ problems?: LintProblem[], totals?: { errors?: number } }} */
  let report;
  try {
    report = JSON.parse(result.stdout ?? '');
  } catch {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n')[0];
    return {
      errorCount: 1,
      errors: [`redocly lint exited with ${result.status}: ${output}`],
      warnings: [],
    };
  }
  /** @param {LintProblem} problem */
  const line = (problem) =>
    `${problem.ruleId} at ${problem.location?.[0]?.pointer ?? '#'}: ${problem.message}`;
  const problems = report.problems ?? [];
  const errors = problems.filter((problem) => problem.severity === 'error').map(line);
  const warnings = problems.filter((problem) => problem.severity !== 'error').map(line);
  return { errorCount: report.totals?.errors ?? errors.length, errors, warnings };
}

/**
 * Top-level folders of a checkout that are not the project's sources: dependencies, history,
 * the generated client (replaced by the candidate's), build or test output and caches
 * (.gitignore).
 */
const NOT_SOURCES =
  /^(?:\.git|\.cache|node_modules|generated|bench|coverage|test-results|playwright-report|\.wrangler|\.?[\w-]*dist(?:-[\w-]+)?)$/;

/**
 * Where `npm run typecheck` keeps what it learnt (each tsconfig's `tsBuildInfoFile`): the files'
 * hashes and their errors, so that a second run checks only what changed and what depends on it.
 */
export const TYPECHECK_CACHE = join('.cache', 'typecheck');

/**
 * The lists of paths a compiler's saved state keeps, relative to its own folder: the files it
 * checked, and the package.json files it read or looked for (TypeScript 7 keeps these to know
 * when a dependency changed).
 */
const STATE_PATH_LISTS = ['fileNames', 'packageJsons', 'missingPackageJsons'];

/**
 * A compiler's saved state (a .tsbuildinfo) moved from one checkout's typecheck cache to
 * another's. It names its files relative to its own folder: the checkout's own files keep their
 * place in the tree, and the dependencies (node_modules, which a candidate links to the
 * repository's) their real location, as the compiler resolves them. Undefined when the text is
 * not a state this can read (cut short while written, say): then there is nothing to start from.
 * Whatever it holds, the compiler rechecks each file whose text or whose dependencies' types
 * differ from the state's, so an old state or one from another tree costs time, never a result.
 * @param {string} text
 * @param {{ root: string, dir: string }} from the checkout and the state's folder in it
 * @param {{ root: string, dir: string }} to
 * @returns {string | undefined}
 */
export function movedBuildInfo(text, from, to) {
  /** @type {unknown} */
  let state;
  try {
    state = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof state !== 'object' || state === null || !('fileNames' in state)) return undefined;
  /** @type {Record<string, unknown>} */
  const fields = { ...state };
  const lists = STATE_PATH_LISTS.filter((key) => key in fields);
  /** @param {unknown} list */
  const isPathList = (list) =>
    Array.isArray(list) && list.every((name) => typeof name === 'string');
  if (!lists.every((key) => isPathList(fields[key]))) return undefined;
  /** @param {string} name */
  const move = (name) => {
    const absolute = resolve(from.dir, name);
    const inTree = relative(from.root, absolute);
    const own =
      !inTree.startsWith('..') &&
      !isAbsolute(inTree) &&
      !inTree.split(sep).includes('node_modules');
    const target = own ? join(to.root, inTree) : realLocation(absolute);
    return relative(to.dir, target).split(sep).join('/');
  };
  for (const key of lists) fields[key] = /** @type {string[]} */ (fields[key]).map(move);
  return JSON.stringify(fields);
}

/** @param {string} path */
function realLocation(path) {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Copies each saved compiler state from one checkout's typecheck cache to another's (see
 * movedBuildInfo). With `onlyNew`, a state the target already has is left as it is. Each file is
 * written whole under another name and then renamed, so a compiler reading it never sees half.
 * @param {string} fromRoot
 * @param {string} toRoot
 * @param {{ onlyNew?: boolean }} [options]
 */
export function copyTypecheckCache(fromRoot, toRoot, { onlyNew = false } = {}) {
  const from = { root: fromRoot, dir: join(fromRoot, TYPECHECK_CACHE) };
  const to = { root: toRoot, dir: join(toRoot, TYPECHECK_CACHE) };
  if (!existsSync(from.dir)) return;
  for (const name of readdirSync(from.dir)) {
    if (!name.endsWith('.tsbuildinfo')) continue;
    const target = join(to.dir, name);
    if (onlyNew && existsSync(target)) continue;
    let text;
    try {
      text = readFileSync(join(from.dir, name), 'utf8');
    } catch {
      continue;
    }
    const moved = movedBuildInfo(text, from, to);
    if (moved === undefined) continue;
    mkdirSync(dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, moved);
    renameSync(partial, target);
  }
}

/**
 * Copies a checkout's sources (everything but NOT_SOURCES and any node_modules) into `target`,
 * over what is there.
 * @param {string} root
 * @param {string} target
 */
export function copySources(root, target) {
  for (const name of readdirSync(root)) {
    if (NOT_SOURCES.test(name)) continue;
    cpSync(join(root, name), join(target, name), {
      recursive: true,
      force: true,
      filter: (source) => basename(source) !== 'node_modules',
    });
  }
}

/**
 * Runs `npm run typecheck` (package.json's own script: the one definition of the project's type
 * check) in a copy of the checkout where openapi/vapi.json is the candidate document and
 * generated/ the client generated from it. The copy holds the repository's sources with the
 * app checkout's own entries over them (the tests' layouts keep only some folders), and links
 * the repository's node_modules. The copy starts from the repository's typecheck cache, so the
 * compiler rechecks only what the candidate changes (the generated client and what uses it); a
 * repository without one gets the first candidate's.
 * @param {{ appRoot: string, spec: string, generatedDir: string, work: string }} options
 * @returns {string[]} the compiler's error lines, none when it type-checks
 */
export function typecheckCandidate({ appRoot, spec, generatedDir, work }) {
  const project = join(work, 'project');
  mkdirSync(project);
  copySources(repoRoot, project);
  if (appRoot !== repoRoot) copySources(appRoot, project);
  mkdirSync(join(project, 'openapi'), { recursive: true });
  copyFileSync(spec, join(project, 'openapi', 'vapi.json'));
  cpSync(generatedDir, join(project, 'generated'), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(project, 'node_modules'), 'dir');
  copyTypecheckCache(repoRoot, project);
  // The npm that runs this script when there is one (`npm run spec:update`), else the PATH's.
  const npmCli = process.env.npm_execpath;
  const [command, args] =
    npmCli && /\.c?js$/.test(npmCli)
      ? [process.execPath, [npmCli, 'run', '--silent', 'typecheck']]
      : ['npm', ['run', '--silent', 'typecheck']];
  const run = spawnSync(command, args, {
    cwd: project,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  copyTypecheckCache(project, repoRoot, { onlyNew: true });
  if (run.status === 0) return [];
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  const lines = output.split('\n').filter((line) => /error TS\d+/.test(line));
  if (lines.length > 0) return lines;
  const first = output.trim().split('\n')[0] ?? '';
  return [`npm run typecheck exited with ${run.status ?? run.signal}${first ? `: ${first}` : ''}`];
}
