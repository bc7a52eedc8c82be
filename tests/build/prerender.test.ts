// Two builds in one process (as `npm run bench` does: live, then demo) each prerender their own
// page. The server render used to be imported from the same path both times, so the second build
// got the first one's cached module: the demo page was prerendered as the live page (no 'Demo'
// badge) and React reported a hydration mismatch (#418) when the demo loaded.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let work: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'pepa-prerender-test-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the prerendered page', () => {
  it('is rendered by its own build when one process builds live and then demo into the same folder', async () => {
    const script = `
      const { buildSite } = await import(${JSON.stringify(resolve(root, 'scripts/build.mjs'))});
      process.env.VITE_VAPI_PUBLIC_KEY = 'pk-test';
      process.env.VITE_VAPI_ASSISTANT_ID = 'asst-test';
      const { cp } = await import('node:fs/promises');
      const site = ${JSON.stringify(join(work, 'site'))};
      await buildSite({ outDir: site, quiet: true });
      await cp(site, ${JSON.stringify(join(work, 'live'))}, { recursive: true });
      delete process.env.VITE_VAPI_PUBLIC_KEY;
      delete process.env.VITE_VAPI_ASSISTANT_ID;
      await buildSite({ demo: true, mockPort: 4999, outDir: site, quiet: true });
    `;
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.startsWith('VITE') && key !== 'NODE_ENV'),
    );
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(result.status, result.stderr).toBe(0);

    const badge = /<span[^>]*>\s*Demo\s*<\/span>/;
    const live = await readFile(join(work, 'live', 'index.html'), 'utf8');
    const demo = await readFile(join(work, 'site', 'index.html'), 'utf8');
    expect(live).not.toMatch(badge);
    expect(demo).toMatch(badge);
  }, 300_000);
});
