/**
 * The voice runtime's one composition root: decides live or demo (`siteConfig.voice.mode`),
 * reads the demo's knobs from the page address, and wires the call library to Daily or to the
 * offline room simulator. The web call itself is created by the section's mutation (the
 * generated client, configured in src/api), and handed to the call object to join.
 */
import { demoToken, loadTurnstile, turnstileToken } from '../../api/bot-check';
import { enterCourt, gateDoor, type CourtCall, type CourtDoor } from '../../api/court';
import { siteConfig } from '../../config/site';
import type { WebCallRequest } from '../../lib/call/call-options';
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

/** Tells the demo's stand-in provider (the mock API's origin) that a simulated room was left. */
function tellStandInRoomLeft(roomUrl: string): void {
  void fetch(`${siteConfig.voice.apiUrl}/__demo/rooms/left`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ roomUrl }),
    keepalive: true,
  }).catch(() => undefined);
}

/** One room factory for the page: the simulator's rooms share its (simulated) network. */
export const loadRoomFactory = lazyOnce<DailyCallFactory>(
  () =>
    DEMO
      ? Promise.all([
          import('../../lib/call/simulator/room-simulator'),
          import('../../lib/call/simulator/simulator-faults'),
          import('../../config/pepa-persona'),
        ]).then(([{ createSimulatorFactory }, { parseSimulatorFaults }, { PEPA_DEMO_PERSONA }]) =>
          // The demo's Pepa is the repository's Pepa: her first message and her refusals.
          createSimulatorFactory({
            ...simulatorOptionsFrom(window.location.search, parseSimulatorFaults),
            persona: PEPA_DEMO_PERSONA,
            // The provider hears the visitor leave; the demo's stand-in provider then tells the
            // gate the call ended, as the provider's server messages would.
            onRoomLeft: tellStandInRoomLeft,
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

/** The calls the page joins: the gate's, or on a static-only host the provider's own. */
export type PageCall = CourtCall;

/** The page's call object: it joins the web calls the section creates, through Daily's rooms. */
export function createPepaCall(): PepaCall<PageCall> {
  const call = new PepaCall<PageCall>({ createDailyCall, roomHosts: siteConfig.voice.roomHosts });
  if (DEMO) window.__pepaCallResources = () => call.getResourceCounts();
  return call;
}

/** The bot check: the demo's offline stand-in, or Turnstile with the site's key. */
const botCheck: CourtDoor['botCheck'] = DEMO
  ? demoToken
  : (signal) => turnstileToken(siteConfig.voice.botCheckSiteKey, signal);

/** Warms the bot check with the voice chunk, so pressing Start does not wait for its script. */
export function prefetchBotCheck(): void {
  if (DEMO || siteConfig.voice.route !== 'gate') return;
  loadTurnstile().catch(() => undefined);
}

/**
 * How the page asks for a call: through the court gate, whose line it walks (`ask` is the
 * section's mutation, `POST /api/calls`); or, on a static-only host with the public key in the
 * page, straight from the provider.
 */
export function pageWebCallRequest(ask: CourtDoor['ask']): WebCallRequest<PageCall> {
  if (siteConfig.voice.route === 'direct') {
    return (signal) =>
      import('./direct-web-call').then(({ createDirectWebCall }) => createDirectWebCall(signal));
  }
  const door = gateDoor(ask, botCheck);
  return (signal, line) => enterCourt(door, signal, line);
}
