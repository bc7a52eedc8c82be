/**
 * The voice runtime's one composition root: decides live or demo (`siteConfig.voice.mode`),
 * reads the demo's knobs from the page address, and wires the call library to Daily or to the
 * offline room simulator. The web call itself is created by the section's mutation (the
 * generated client, configured in src/api), and handed to the call object to join.
 */
import type { Call } from '../../api/vapi';
import { siteConfig } from '../../config/site';
import type { DailyCallFactory } from '../../lib/call/daily-types';
import { PepaCall, type ResourceCounts } from '../../lib/call/pepa-call';
import { lazyOnce } from '../../lib/lazy-once';
import { reloadToResume } from './chunk-recovery';

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
 * Whether this build talks to the simulator. The build-time constant comes first so that a live
 * build's bundler drops the simulator entirely; the site configuration says the same thing at
 * run time (both read VITE_PEPA_DEMO), and is what the rest of the page reads.
 */
const DEMO = import.meta.env.VITE_PEPA_DEMO === 'true' && siteConfig.voice.mode === 'demo';

/** One room factory for the page: the simulator's rooms share its (simulated) network. */
export const loadRoomFactory = lazyOnce<DailyCallFactory>(
  () =>
    DEMO
      ? Promise.all([
          import('../../lib/call/simulator/room-simulator'),
          import('../../lib/call/simulator/simulator-faults'),
          import('../../../assistant/pepa'),
        ]).then(([{ createSimulatorFactory }, { parseSimulatorFaults }, { PEPA_DEMO_PERSONA }]) =>
          // The demo's Pepa is the repository's Pepa: her first message and her refusals.
          createSimulatorFactory({
            ...simulatorOptionsFrom(window.location.search, parseSimulatorFaults),
            persona: PEPA_DEMO_PERSONA,
          }),
        )
      : import('../../lib/call/daily-factory').then(({ createDailyCallFactory }) =>
          createDailyCallFactory(),
        ),
  { retry: reloadToResume },
);

const createDailyCall: DailyCallFactory = (options) =>
  loadRoomFactory().then((create) => create(options));

declare global {
  interface Window {
    /** Demo builds only: what the call object holds, for the soak test to watch. */
    __pepaCallResources?: () => ResourceCounts;
  }
}

/** The page's call object: it joins the web calls the section creates, through Daily's rooms. */
export function createPepaCall(): PepaCall<Call> {
  const call = new PepaCall<Call>({ createDailyCall, roomHosts: siteConfig.voice.roomHosts });
  if (DEMO) window.__pepaCallResources = () => call.getResourceCounts();
  return call;
}

/** The body of the page's web call: Pepa, in a room that outlives a dropped visitor. */
export function pepaWebCallBody() {
  return { assistantId: siteConfig.voice.assistantId, roomDeleteOnUserLeaveEnabled: false };
}
