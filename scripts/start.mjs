// `npm start`: installs what is missing, builds the site and serves it on http://127.0.0.1:$PORT.
// Without VITE_VAPI_PUBLIC_KEY and VITE_VAPI_ASSISTANT_ID it is the embedded demo on the production
// path, no keys needed: the site's Worker (the court gate and the built site) in workerd, in front
// of a stand-in provider on $MOCK_PORT (Prism's mock of the vendored spec, plus the server
// messages Prism cannot send), and the offline room simulator. GATE_* variables set the gate's
// limits for a try (`GATE_MAX_CONCURRENT_CALLS=2 npm start`, then three tabs, shows the line).
//
// Options: --no-install (skip the dependency check), --no-build (serve the existing build),
// --out=DIR (build into and serve DIR instead of dist/).
import { resolve } from 'node:path';
import { checkServicePorts, DEMO_EDGE_LIMIT, demoGateVars, isLive } from './lib/demo-services.mjs';
import { ensureDependencies } from './lib/ensure-deps.mjs';
import { onProjectNode } from './lib/project-node.mjs';
import { stopOnSignal } from './lib/stop-on-signal.mjs';

const root = resolve(import.meta.dirname, '..');
const args = new Set(process.argv.slice(2));
const outDir =
  process.argv.find((arg) => arg.startsWith('--out='))?.slice('--out='.length) ?? 'dist';
const live = isLive();

// Ports first: a busy port should not cost an install and a build to find out.
const { port, mockPort } = await checkServicePorts('npm start', live);
if (!args.has('--no-install')) ensureDependencies(root);
// Built and served by the project's Node, once it is installed.
await onProjectNode(root, ['--no-install']);
console.log(
  live
    ? `Starting $PEPA (live build, key and assistant id from the environment).`
    : `Starting the $PEPA demo (no provider keys set: local mock API and simulated room).`,
);

const { buildSite } = await import('./build.mjs');
const { startStaticServer } = await import('./lib/static-server.mjs');

if (!args.has('--no-build')) {
  console.log(`Building the ${live ? 'live site' : 'demo'} into ${outDir}/ …`);
  const started = performance.now();
  try {
    await buildSite({ demo: !live, mockPort: mockPort ?? undefined, quiet: true, outDir });
  } catch (error) {
    console.error(`Build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  console.log(`Built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
}

/** @type {Array<() => Promise<unknown>>} */
const stops = [];
stopOnSignal(stops);
// A mock port is checked for the demo only.
if (mockPort === null) {
  // A static-only build: the page calls the provider itself with the public key.
  const site = await startStaticServer({ root: resolve(root, outDir), port });
  stops.push(() => site.close());
  console.log(`$PEPA (live, static-only) on ${site.url}  — Ctrl-C to stop`);
} else {
  const { startCourtStack } = await import('./lib/court-stack.mjs');
  try {
    const court = await startCourtStack({
      sitePort: port,
      mockPort,
      assetsDir: resolve(root, outDir),
      vars: demoGateVars(),
      edgeLimit: DEMO_EDGE_LIMIT,
      quiet: true,
    });
    stops.push(() => court.stop());
    console.log(`Stand-in provider (server messages, in front of Prism) on ${court.standInUrl}`);
    console.log(`$PEPA (demo, through the court gate) on ${court.url}  — Ctrl-C to stop`);
  } catch (error) {
    console.error(`npm start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
