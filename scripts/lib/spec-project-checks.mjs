// The project's own checks a candidate provider document must pass before it is vendored: the
// OpenAPI lint `npm run spec:lint` runs, and `npm run typecheck` itself (package.json's script, so
// the two cannot drift apart) in a copy of the project holding the document and its client.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

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
 * the repository's node_modules. The check starts from nothing, as on a fresh clone: no saved
 * compiler state can hide an error (docs/decisions/0008-typescript-7-checker.md).
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
  if (run.status === 0) return [];
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  const lines = output.split('\n').filter((line) => /error TS\d+/.test(line));
  if (lines.length > 0) return lines;
  const first = output.trim().split('\n')[0] ?? '';
  return [`npm run typecheck exited with ${run.status ?? run.signal}${first ? `: ${first}` : ''}`];
}
