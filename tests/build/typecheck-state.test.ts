// `npm run typecheck` starts from nothing every time, as on a fresh clone. TypeScript 7's saved
// state (incremental) once passed a check it should have failed: after the generated client's
// upload type changed, a second run in a checkout holding the state of earlier runs reported no
// error in tests/contract/provider-api.test.ts, which a run from nothing reported at once, and
// spec:update, which checks candidates the same way, accepted the update
// (docs/decisions/0008-typescript-7-checker.md).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../..');

/** package.json's `typecheck` script. */
function typecheckScript(): string {
  const pkg = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return pkg.scripts['typecheck'] ?? '';
}

/** The tsconfig files `npm run typecheck` names, in its order. */
function typecheckProjects(): string[] {
  return [...typecheckScript().matchAll(/ -p (\S+)/g)].map(([, project = '']) => project);
}

/** A tsconfig's own compiler options, comments allowed (as the compiler reads them). */
function ownOptions(project: string): Record<string, unknown> {
  const file = resolve(repoRoot, project);
  const { config, error } = ts.parseConfigFileTextToJson(file, readFileSync(file, 'utf8'));
  if (error)
    throw new Error(`${project}: ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
  return (config as { compilerOptions?: Record<string, unknown> }).compilerOptions ?? {};
}

describe('npm run typecheck', () => {
  it('checks the app, the gate and the scripts, each with its own tsconfig', () => {
    expect(typecheckProjects()).toEqual([
      'tsconfig.json',
      'gate/tsconfig.json',
      'tsconfig.scripts.json',
    ]);
  });

  it('keeps no compiler state between runs: no tsconfig it names is incremental or composite', () => {
    for (const project of typecheckProjects()) {
      const options = ownOptions(project);
      expect(
        { project, incremental: options['incremental'], composite: options['composite'] },
        `${project} must not save compiler state`,
      ).toEqual({ project, incremental: undefined, composite: undefined });
      expect(options['tsBuildInfoFile'], project).toBeUndefined();
    }
    expect(typecheckScript()).not.toMatch(/--incremental|--build| -b /);
  });

  it('runs the compiler with its collector held back until a project nears 2 GiB', () => {
    expect(typecheckScript()).toMatch(/^export GOGC=off GOMEMLIMIT=2GiB && /);
  });
});
