/**
 * The voice runtime's one composition root: decides live or demo (`siteConfig.voice.mode`),
 * follows the demo's knobs (src/config/demo-knobs.ts), and wires the call library to Daily or to
 * the offline room simulator. The web call itself is created by the section's mutation (the
 * generated client, configured in src/api), and handed to the call object to join.
 */
import {
  askAdmission,
  gateDoor,
  type CourtCall,
  type GateDoor,
  type LineCompanion,
} from '../../../api/gate-client';
import { callBotCheck } from '../../../api/page-bot-check';
import { FIELD_LATENCY, SEQUENTIAL } from '../../../config/demo-knobs';
import { siteConfig } from '../../../config/site';
import {
  PepaCall,
  loadDailyRooms,
  loadSimulatedRooms,
  type DailyCallFactory,
  type MicrophoneOpener,
  type ResourceCounts,
  type WebCallRequest,
} from '../../../lib/call';
import { lazyOnce } from '../../../lib/lazy-once';
import { reloadToResume } from '../recovery/chunk-recovery';
// With the chunk, not a chunk of its own: her first remark is the text chat's too, and a module two
// lazily loaded chunks share would become a third, which WebKit fails to load after a failed
// import of the call view, even in the page reloaded to recover.
import { PEPA_DEMO_PERSONA } from '../../../config/pepa-persona';

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
 * Whether this build talks to the simulator. The build-time constant comes first, and is written
 * here rather than imported, so that a live build's bundler drops the simulator entirely; the
 * site configuration says the same thing at run time (both read VITE_PEPA_DEMO), and is what the
 * rest of the page reads.
 */
const DEMO = import.meta.env.VITE_PEPA_DEMO === 'true' && siteConfig.voice.mode === 'demo';

/**
 * The room service's origin, where Daily's call bundle comes from: its connection is opened on
 * intent, so the join does not start with DNS, TCP and TLS. Only where the page's CSP lets the
 * page reach it (the room hosts are Daily's own).
 */
const ROOM_SERVICE_ORIGIN = 'https://c.daily.co';

/** Whether the room service's connection was opened ahead (the demo's field model counts it). */
let roomServiceWarm = false;

/** Opens the connection to the room service's origin ahead of a join, once. */
export function preconnectRoomService(): void {
  if (SEQUENTIAL || roomServiceWarm) return;
  roomServiceWarm = true;
  if (DEMO || !siteConfig.voice.roomHosts.includes('*.daily.co')) return;
  const link = document.createElement('link');
  link.rel = 'preconnect';
  link.href = ROOM_SERVICE_ORIGIN;
  link.crossOrigin = 'anonymous';
  document.head.append(link);
}

/** Tells the demo's stand-in provider (the mock API's origin) that a simulated room was left. */
function tellStandInRoomLeft(roomUrl: string): void {
  void fetch(`${siteConfig.voice.apiUrl}/__demo/rooms/left`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ roomUrl }),
    keepalive: true,
  }).catch(() => undefined);
}

/** Tells the demo's stand-in provider that a simulated room was joined: the call is in progress. */
function tellStandInRoomJoined(roomUrl: string): void {
  void fetch(`${siteConfig.voice.apiUrl}/__demo/rooms/joined`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ roomUrl }),
    keepalive: true,
  }).catch(() => undefined);
}

/** Tells the demo's stand-in provider a message said in a simulated room, as the provider records it. */
function tellStandInSpoken(roomUrl: string, said: { role: string; message: string; time: number }) {
  void fetch(`${siteConfig.voice.apiUrl}/__demo/rooms/said`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ roomUrl, ...said }),
    keepalive: true,
  }).catch(() => undefined);
}

/**
 * Asks the demo's stand-in provider how Pepa opens the call in a simulated room: a remark from the
 * chat the gate handed the call, or null for her stored first message.
 */
async function askStandInOpening(roomUrl: string): Promise<string | null> {
  const query = new URLSearchParams({ roomUrl });
  const answer = await fetch(`${siteConfig.voice.apiUrl}/__demo/rooms/opening?${query}`);
  if (!answer.ok) return null;
  const { firstMessage } = (await answer.json()) as { firstMessage?: unknown };
  return typeof firstMessage === 'string' ? firstMessage : null;
}

/** What the page joins rooms with: the call objects and the microphone they send. */
interface RoomRuntime {
  createDailyCall: DailyCallFactory;
  /** Opens the microphone before a room exists; null: the browser's own. */
  openMicrophone: MicrophoneOpener | null;
}

/** One room runtime for the page: the simulator's rooms share its (simulated) network. */
export const loadRoomFactory = lazyOnce<RoomRuntime>(
  () =>
    DEMO
      ? loadSimulatedRooms().then(
          ({
            createSimulatorFactory,
            createSimulatorMicrophone,
            parseSimulatorFaults,
            fieldTimings,
            fieldLatency,
          }) => {
            const knobs = {
              ...simulatorOptionsFrom(window.location.search, parseSimulatorFaults),
              ...(FIELD_LATENCY ? { timings: fieldTimings(fieldLatency, roomServiceWarm) } : {}),
            };
            return {
              // The demo's Pepa is the repository's Pepa: her first message and her refusals.
              createDailyCall: createSimulatorFactory({
                ...knobs,
                persona: PEPA_DEMO_PERSONA,
                // The provider hears the visitor leave; the demo's stand-in provider then tells
                // the gate the call ended, as the provider's server messages would.
                onRoomLeft: tellStandInRoomLeft,
                // …hears the visitor join (a call nobody joins ends at its join timeout)…
                onRoomJoined: tellStandInRoomJoined,
                // …and records what was said, which cards of the call's remarks are made from.
                onSpoken: tellStandInSpoken,
                // …and opens a call handed a chat from the chat, as the provider's model would.
                openingFor: askStandInOpening,
              }),
              openMicrophone: createSimulatorMicrophone(knobs),
            };
          },
        )
      : loadDailyRooms().then(({ createDailyCallFactory }) => ({
          createDailyCall: createDailyCallFactory(),
          openMicrophone: null,
        })),
  { retry: reloadToResume },
);

const createDailyCall: DailyCallFactory = (options) =>
  loadRoomFactory().then((runtime) => runtime.createDailyCall(options));

/**
 * The demo's microphone goes through the simulator (its faults); a live page's is the browser's.
 * When the room's runtime did not load, the browser's microphone is opened all the same: the
 * call object's own load then meets the failure and says its code didn't load (with its
 * recovery), rather than the microphone taking the blame.
 */
const openMicrophone: MicrophoneOpener | undefined = DEMO
  ? (constraints) =>
      loadRoomFactory().then(
        (runtime) =>
          runtime.openMicrophone
            ? runtime.openMicrophone(constraints)
            : navigator.mediaDevices.getUserMedia(constraints),
        () => navigator.mediaDevices.getUserMedia(constraints),
      )
  : undefined;

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
  const call = new PepaCall<PageCall>({
    createDailyCall,
    roomHosts: siteConfig.voice.roomHosts,
    ...(openMicrophone ? { openMicrophone } : {}),
    ...(SEQUENTIAL ? { startOrder: 'sequential' as const } : {}),
  });
  if (DEMO) window.__pepaCallResources = () => call.getResourceCounts();
  return call;
}

/** The section warms the page's bot check with the voice chunk, on intent. */
export { prefetchBotCheck } from '../../../api/page-bot-check';

/**
 * How the page asks for a call: through the court gate, whose line it walks (`ask` is the
 * section's mutation, `POST /api/calls`), with the visitor's chat beside it (`companion`); or, on a
 * static-only host with the public key in the page, straight from the provider.
 */
export function pageWebCallRequest(
  ask: GateDoor['ask'],
  companion: LineCompanion | null = null,
): WebCallRequest<PageCall> {
  if (siteConfig.voice.route === 'direct') {
    return (signal) =>
      import('./direct-web-call').then(({ createDirectWebCall }) => createDirectWebCall(signal));
  }
  const door = gateDoor(ask, callBotCheck);
  return (signal, line) => askAdmission(door, signal, line, companion);
}
