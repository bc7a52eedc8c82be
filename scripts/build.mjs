// Builds the site: the client bundle, then a server render of each page into the built HTML
// (index.html for "/", 404.html for every other path), so the text is there before any script.
//
//   node scripts/build.mjs          live build: needs VITE_VAPI_PUBLIC_KEY and VITE_VAPI_ASSISTANT_ID
//   node scripts/build.mjs --demo   the offline demo (local mock API and the room simulator)
import { build } from 'vite';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

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
  const ssrDir = `${outDir}-ssr`;
  if (demo) {
    process.env.VITE_PEPA_DEMO = 'true';
    if (mockPort !== undefined && !process.env.VITE_VAPI_API_URL) {
      process.env.VITE_VAPI_API_URL = `http://127.0.0.1:${mockPort}`;
    }
  }
  const logLevel = quiet ? 'warn' : 'info';
  try {
    await build({ root, logLevel, build: { outDir, emptyOutDir: true } });
    await build({
      root,
      logLevel,
      build: { ssr: 'src/app/entry-server.tsx', outDir: ssrDir, emptyOutDir: true },
    });
  } catch (error) {
    // A configuration problem is the deployer's to fix: say what is wrong, not where it threw.
    if (error instanceof Error && /Invalid site configuration/.test(error.message)) {
      const message = error.message.slice(error.message.indexOf('Invalid site configuration'));
      throw new Error(message, { cause: error });
    }
    throw error;
  }

  const { render } = await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);
  const template = await readFile(join(outDir, 'index.html'), 'utf8');
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
  await rm(ssrDir, { recursive: true, force: true });
  return outDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const demo = process.argv.includes('--demo');
  buildSite({ demo }).catch((error) => {
    console.error(`\nBuild failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
