// `npm start`: installs what is missing, builds the site and serves it on http://127.0.0.1:$PORT.
// Without VITE_VAPI_PUBLIC_KEY and VITE_VAPI_ASSISTANT_ID it is the embedded demo: a Prism mock of
// the vendored provider spec on $MOCK_PORT and the offline room simulator, no keys needed.
//
// Options: --no-install (skip the dependency check), --no-build (serve the existing build),
// --out=DIR (build into and serve DIR instead of dist/).
import { resolve } from 'node:path';
import { checkServicePorts, isLive, startDemoMock } from './lib/demo-services.mjs';
import { ensureDependencies } from './lib/ensure-deps.mjs';
import { stopOnSignal } from './lib/stop-on-signal.mjs';

const root = resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
const outDir =
  process.argv.find((arg) => arg.startsWith('--out='))?.slice('--out='.length) ?? 'dist';
const live = isLive();

// Ports first: a busy port should not cost an install and a build to find out.
const { PORT: port, MOCK_PORT: mockPort } = await checkServicePorts('npm start', live);
console.log(
  live
    ? `Starting $PEPA (live build, key and assistant id from the environment).`
    : `Starting the $PEPA demo (no provider keys set: local mock API and simulated room).`,
);
if (!args.has('--no-install')) ensureDependencies(root);

const { buildSite } = await import('./build.mjs');
const { startStaticServer } = await import('./lib/static-server.mjs');

if (!args.has('--no-build')) {
  console.log(`Building the ${live ? 'live site' : 'demo'} into ${outDir}/ …`);
  const started = performance.now();
  try {
    await buildSite({ demo: !live, mockPort, quiet: true, outDir });
  } catch (error) {
    console.error(`Build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  console.log(`Built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

const stops = [];
stopOnSignal(stops);
if (!live) stops.push(await startDemoMock(mockPort));
const site = await startStaticServer({ root: resolve(root, outDir), port });
stops.push(() => site.close());
console.log(`$PEPA ${live ? '(live)' : '(demo)'} on ${site.url}  — Ctrl-C to stop`);
