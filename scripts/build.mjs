// @ts-check
// Builds the site: the client bundle, then a server render of each page into the built HTML
// (index.html for "/", 404.html for every other path), so the text is there before any script.
//
//   node scripts/build.mjs          live build: needs VITE_VAPI_PUBLIC_KEY and VITE_VAPI_ASSISTANT_ID
//   node scripts/build.mjs --demo   the offline demo (local mock API on $MOCK_PORT, room simulator)
//   --out=DIR                       build into DIR instead of dist/
import { build } from 'vite';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_MOCK_PORT, useDemoEnvironment } from './lib/demo-services.mjs';
import { PortError, readPort } from './lib/ports.mjs';

const root = resolve(import.meta.dirname, '..');

/**
 * @param {{ demo?: boolean, mockPort?: number, quiet?: boolean, outDir?: string }} [options]
 *   `outDir` (default `dist`) lets tests and benchmarks build beside a developer's own `dist/`.
 */
export async function buildSite({
  demo = false,
  mockPort,
  quiet = false,
  outDir: out = 'dist',
} = {}) {
  const outDir = resolve(root, out);
  // The server render is imported from inside the repository, so its bare imports (react…)
  // resolve from node_modules wherever the site itself is built.
  const ssrDir = await mkdtemp(join(root, 'node_modules', '.pepa-ssr-'));
  if (demo) useDemoEnvironment(mockPort ?? DEFAULT_MOCK_PORT);
  try {
    const logLevel = quiet ? 'warn' : 'info';
    // Quiet builds (npm start, tests, the bench) skip Rolldown's timing report: on a busy
    // machine it warns that plugins were slow, which is the machine, not the build.
    const rolldownOptions = quiet ? { checks: { bundlerTimings: false } } : {};
    try {
      await build({ root, logLevel, build: { outDir, emptyOutDir: true, rolldownOptions } });
      await build({
        root,
        logLevel,
        build: {
          ssr: 'src/app/entry-server.tsx',
          outDir: ssrDir,
          emptyOutDir: true,
          rolldownOptions,
        },
      });
    } catch (error) {
      // A configuration problem is the deployer's to fix: say what is wrong, not where it threw.
      if (error instanceof Error && /Invalid site configuration/.test(error.message)) {
        const message = error.message.slice(error.message.indexOf('Invalid site configuration'));
        throw new Error(message, { cause: error });
      }
      throw error;
    }

    /** @type {typeof import('../src/app/entry-server.tsx')} */
    const { render } = await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);
    const template = await readFile(join(outDir, 'index.html'), 'utf8');
    /** @param {Parameters<typeof render>[0]} route */
    const page = (route) => template.replace('<!--app-html-->', render(route));

    await writeFile(join(outDir, 'index.html'), page('home'));
    await writeFile(
      join(outDir, '404.html'),
      page('not-found')
        .replace(/<title>[^<]*<\/title>/, '<title>Page not found — $PEPA</title>')
        .replace(
          '<meta name="theme-color"',
          '<meta name="robots" content="noindex" />\n    <meta name="theme-color"',
        ),
    );
  } finally {
    await rm(ssrDir, { recursive: true, force: true });
  }
  return outDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const demo = process.argv.includes('--demo');
  const outDir = process.argv.find((arg) => arg.startsWith('--out='))?.slice('--out='.length);
  let mockPort;
  try {
    mockPort = demo ? readPort('MOCK_PORT', DEFAULT_MOCK_PORT) : undefined;
  } catch (error) {
    if (!(error instanceof PortError)) throw error;
    console.error(`Build failed: ${error.message}`);
    process.exit(1);
  }
  buildSite({ demo, mockPort, outDir }).catch((error) => {
    console.error(`\nBuild failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
