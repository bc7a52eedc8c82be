// The project's own checks a candidate provider document must pass before it is vendored: the
// OpenAPI lint `npm run spec:lint` runs, and `npm run typecheck` against the client generated
// from it.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, posix, resolve } from 'node:path';

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
 * What gate/tsconfig.json includes, as paths from the repository's root.
 * @returns {string[]}
 */
function gateInclude() {
  const gate = JSON.parse(readFileSync(join(repoRoot, 'gate', 'tsconfig.json'), 'utf8'));
  /** @type {string[]} */
  const include = gate.include ?? [];
  return include.map((entry) => posix.normalize(posix.join('gate', entry)));
}

/**
 * Type-checks exactly what `npm run typecheck` checks (the app, the assistant, the tests, the
 * scripts and the configs: the `include` of tsconfig.json) against a freshly generated client: a
 * folder that links each of those entries to the app's checkout (the repository's where the
 * checkout lacks one) and generated/ to the new output, checked with symlinks preserved so
 * `../../generated/…` resolves to the new client.
 * @param {string} appRoot
 * @param {string} generatedDir
 * @param {string} work a scratch folder
 * @returns {string[]} the compiler's error lines, none when it type-checks
 */
export function typecheckApp(appRoot, generatedDir, work) {
  const app = join(work, 'app');
  mkdirSync(app);
  const project = JSON.parse(readFileSync(join(repoRoot, 'tsconfig.json'), 'utf8'));
  /** @type {string[]} */
  const include = project.include ?? [];
  const entries = new Set();
  for (const pattern of include) {
    if (pattern === 'generated') continue;
    if (pattern.includes('*')) {
      // A root-level glob such as `*.config.ts`: the files it matches, from the checkout.
      const matcher = new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`);
      for (const name of readdirSync(repoRoot)) if (matcher.test(name)) entries.add(name);
    } else entries.add(pattern);
  }
  // The court gate is checked too (`npm run typecheck` runs its own tsconfig): it creates calls
  // with the provider's client, and the tests and scripts import its local stand-ins.
  entries.add('gate');
  for (const entry of entries) {
    const source = existsSync(join(appRoot, entry)) ? join(appRoot, entry) : join(repoRoot, entry);
    if (existsSync(source)) symlinkSync(source, join(app, entry));
  }
  symlinkSync(generatedDir, join(app, 'generated'), 'dir');
  symlinkSync(join(repoRoot, 'node_modules'), join(app, 'node_modules'), 'dir');
  // The gate's tests read its own contract (their answers are checked against it).
  mkdirSync(join(app, 'openapi'));
  symlinkSync(join(repoRoot, 'openapi', 'gate.json'), join(app, 'openapi', 'gate.json'));
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      extends: join(repoRoot, 'tsconfig.json'),
      compilerOptions: { preserveSymlinks: true },
      include,
    }),
  );
  const gateProject = join(app, 'tsconfig.gate.json');
  writeFileSync(
    gateProject,
    JSON.stringify({
      extends: join(repoRoot, 'gate', 'tsconfig.json'),
      compilerOptions: { preserveSymlinks: true },
      // The gate's own `include`, from the app folder rather than gate/.
      include: gateInclude(),
    }),
  );
  const tsc = resolve(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const runs = [app, gateProject].map((project) =>
    spawnSync(process.execPath, [tsc, '-p', project], { cwd: app, encoding: 'utf8' }),
  );
  if (runs.every((run) => run.status === 0)) return [];
  const lines = runs
    .map((run) => `${run.stdout ?? ''}${run.stderr ?? ''}`)
    .join('\n')
    .split('\n')
    .filter((line) => /error TS\d+/.test(line));
  const failed = runs.find((run) => run.status !== 0);
  return lines.length > 0 ? lines : [`tsc exited with ${failed?.status}`];
}
