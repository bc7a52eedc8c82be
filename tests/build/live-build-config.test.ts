import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function environmentWithout(prefix: string): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith(prefix)));
}

describe('a deployment build', () => {
  it('fails, naming the missing variables, when the key and assistant id are not set', () => {
    const result = spawnSync(process.execPath, ['scripts/build.mjs'], {
      cwd: root,
      env: { ...environmentWithout('VITE_'), VITE_VAPI_PUBLIC_KEY: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Build failed: Invalid site configuration:');
    expect(result.stderr).toContain(
      'VITE_VAPI_PUBLIC_KEY and VITE_VAPI_ASSISTANT_ID must be set for a live build (or set VITE_PEPA_DEMO=true for the offline demo)',
    );
  });

  it('names a malformed variable too, before anything is built', () => {
    const result = spawnSync(process.execPath, ['scripts/build.mjs'], {
      cwd: root,
      env: {
        ...environmentWithout('VITE_'),
        VITE_VAPI_PUBLIC_KEY: 'pk',
        VITE_VAPI_ASSISTANT_ID: 'asst',
        VITE_COURT_URL: 'not a url',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('VITE_COURT_URL must be an absolute URL (got "not a url")');
  });
});
