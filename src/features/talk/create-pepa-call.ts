import { createWebCall, type Call } from '../../api/vapi';
import { siteConfig } from '../../config/site';
import type { DailyCallFactory } from '../voice/daily-types';
import { PepaCall, type ResourceCounts } from '../voice/pepa-call';

/**
 * Demo-only knobs in the query string: `sim` names faults to play, `simScale` speeds the room up
 * (0.2 is five times faster), for browser tests and benchmarks.
 */
export function simulatorOptionsFrom<TFault>(
  search: string,
  parseFaults: (search: string) => TFault[],
): { faults: TFault[]; timeScale?: number } {
  const scale = Number(new URLSearchParams(search).get('simScale'));
  const faults = parseFaults(search);
  return Number.isFinite(scale) && scale > 0 && scale <= 10
    ? { faults, timeScale: scale }
    : { faults };
}

/**
 * The Daily factory for this build. A live build uses Daily itself; the demo build uses the
 * offline room simulator, with faults chosen in the page's query string (`?sim=join-failure`, …).
 * The check is on the build-time constant so that a live build contains no simulator code at all.
 */
let runtime: Promise<DailyCallFactory> | null = null;

export function loadCallRuntime(): Promise<DailyCallFactory> {
  // One factory for the page: the simulator's rooms share its (simulated) network.
  runtime ??= (
    import.meta.env.VITE_PEPA_DEMO === 'true'
      ? Promise.all([
          import('../voice/simulator/room-simulator'),
          import('../voice/simulator/simulator-faults'),
        ]).then(([{ createSimulatorFactory }, { parseSimulatorFaults }]) =>
          createSimulatorFactory(
            simulatorOptionsFrom(window.location.search, parseSimulatorFaults),
          ),
        )
      : import('../voice/daily-factory').then(({ createDailyCallFactory }) =>
          createDailyCallFactory(),
        )
  ).catch((error: unknown) => {
    // A chunk that failed to load (offline, a new deployment) is fetched again on the next try.
    runtime = null;
    throw error;
  });
  return runtime;
}

const createDailyCall: DailyCallFactory = (options) =>
  loadCallRuntime().then((create) => create(options));

declare global {
  interface Window {
    /** Demo builds only: what the call object holds, for the soak test to watch. */
    __pepaCallResources?: () => ResourceCounts;
  }
}

/** The page's call object: web calls through the generated client, rooms through Daily. */
export function createPepaCall(): PepaCall<Call> {
  const call = new PepaCall<Call>({
    createWebCall,
    createDailyCall,
    roomHosts: siteConfig.voice.roomHosts,
  });
  if (import.meta.env.VITE_PEPA_DEMO === 'true') {
    window.__pepaCallResources = () => call.getResourceCounts();
  }
  return call;
}
