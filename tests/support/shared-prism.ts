// Vitest global setup of the contract and local-stack projects: one Prism mock of the vendored
// provider spec for every file of the run that checks requests against it, where each file used
// to start its own (about 2 CPU-s and a second and a half per start). Prism answers from the
// spec's examples and keeps no state between requests, so the files cannot see each other's
// traffic. A file reads the address with `inject('prismUrl')`.
//
// Both projects run this setup in the same Vitest process; the first to set up starts the mock
// and the last to tear down stops it, so a run of both projects starts one, and a run of one
// file starts one too.
import type { TestProject } from 'vitest/node';
import { startPrism } from '../../scripts/lib/prism.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Prism mock of openapi/vapi.json, as http://127.0.0.1:port. */
    prismUrl: string;
  }
}

type Running = Awaited<ReturnType<typeof startPrism>>;

/** Held on globalThis: each project may load this module afresh, the process is the same. */
const KEY = Symbol.for('pepa.tests.sharedPrism');
type Shared = { users: number; prism: Promise<Running> };
const holder = globalThis as typeof globalThis & { [KEY]?: Shared };

export default async function setup(project: TestProject) {
  const shared = (holder[KEY] ??= { users: 0, prism: startPrism({ quiet: true }) });
  shared.users += 1;
  let prism: Running;
  try {
    prism = await shared.prism;
  } catch (error) {
    shared.users -= 1;
    if (shared.users === 0) delete holder[KEY];
    throw error;
  }
  project.provide('prismUrl', prism.url);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[KEY];
    await prism.stop();
  };
}
