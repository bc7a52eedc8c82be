// `npm start`: installs what is missing, builds the site and serves it on http://127.0.0.1:$PORT.
// Without VITE_VAPI_PUBLIC_KEY and VITE_VAPI_ASSISTANT_ID it is the embedded demo: a Prism mock of
// the vendored provider spec on $MOCK_PORT and the offline room simulator, no keys needed.
//
// Options: --no-install (skip the dependency check), --no-build (serve the existing build),
// --out=DIR (build into and serve DIR instead of dist/).
import { resolve } from 'node:path';
import { stopOnSignal } from './lib/stop-on-signal.mjs';
import { ensureDependencies } from './lib/ensure-deps.mjs';

const root = resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
const outDir =
  process.argv.find((arg) => arg.startsWith('--out='))?.slice('--out='.length) ?? 'dist';
if (!args.has('--no-install')) ensureDependencies(root);

const port = Number(process.env.PORT ?? 5173);
const mockPort = Number(process.env.MOCK_PORT ?? 4010);
const live = Boolean(process.env.VITE_VAPI_PUBLIC_KEY && process.env.VITE_VAPI_ASSISTANT_ID);

const { buildSite } = await import('./build.mjs');
const { startStaticServer } = await import('./lib/static-server.mjs');

if (!args.has('--no-build')) {
  try {
    await buildSite({ demo: !live, mockPort, quiet: true, outDir });
  } catch (error) {
    console.error(`Build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

const stops = [];
if (!live) {
  const { startPrism } = await import('./lib/prism.mjs');
  const mock = await startPrism({ port: mockPort, quiet: true });
  stops.push(() => mock.stop());
  console.log(`Mock provider API (Prism) on ${mock.url}`);
}
const site = await startStaticServer({ root: resolve(root, outDir), port });
stops.push(() => site.close());
console.log(`$PEPA ${live ? '(live)' : '(demo)'} on ${site.url}  — Ctrl-C to stop`);

stopOnSignal(stops);
