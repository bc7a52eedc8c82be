// What `npm start` and `npm run dev` share: the ports they check, whether a run is live or the
// embedded demo, the demo's environment, and the Prism mock the demo talks to.
import { checkPortsOrExit } from './ports.mjs';

export const DEFAULT_PORT = 5173;
export const DEFAULT_MOCK_PORT = 4010;

/** Live when both provider values are given; otherwise the offline demo. */
export function isLive(env = process.env) {
  return Boolean(env.VITE_VAPI_PUBLIC_KEY && env.VITE_VAPI_ASSISTANT_ID);
}

/**
 * The demo gate's visitor limits, unless the environment sets them: every tab of a try (and every
 * call the browser suites start) comes from the same address, 127.0.0.1, in the one network the
 * local runtime reports, so one visitor may hold several calls and start many… The gate's own
 * limits (GATE_MAX_CONCURRENT_CALLS, the budget, the wait limit) keep their defaults. The real
 * caps are the gate suite's to test (gate/test-workerd/attacks-visitors.test.ts), and so is the pace.
 */
export function demoGateVars(env = process.env) {
  /** @type {Record<string, string>} */
  const vars = {};
  const loose = {
    GATE_VISITOR_CONCURRENT: '20',
    GATE_VISITOR_STARTS_PER_WINDOW: '10000',
    // …and its network (/24) the same, and its day without a visitor's cap of its own.
    GATE_NETWORK_CONCURRENT: '20',
    GATE_NETWORK_STARTS_PER_WINDOW: '10000',
    GATE_VISITOR_STARTS_PER_DAY: '1000000',
    GATE_VISITOR_DAILY_USD: '1000000',
    // Every local request carries the same stand-in network (ASN) from the runtime.
    GATE_ASN_CONCURRENT: '100000',
    // Text with Pepa: every tab's chats are the one visitor's, its one network's and its ASN's.
    GATE_CHAT_TURNS_PER_MINUTE: '600',
    GATE_CHAT_NETWORK_TURNS_PER_MINUTE: '100000',
    GATE_CHAT_NETWORK_TURNS_PER_DAY: '10000000',
    GATE_CHAT_ASN_TURNS_PER_DAY: '10000000',
    GATE_CHAT_TURNS_PER_DAY: '100000',
    GATE_CHAT_STARTS_PER_DAY: '10000',
    GATE_CHAT_VISITOR_DAILY_USD: '1000000',
    // The day's budget all at midnight: the browser suites start hundreds of calls at whatever
    // hour they run, and what they meet must not depend on the clock. The pace is the gate
    // suite's to test (gate/test-workerd/pace.test.ts).
    GATE_PACE_RELEASES: '1',
  };
  for (const [name, value] of Object.entries(loose)) if (!env[name]) vars[name] = value;
  return vars;
}

/**
 * The demo's edge limiter (requests to /api/* per visitor per 10 s): the suites' pages all come
 * from 127.0.0.1 and check in every second or two, so the demo allows what no single visitor
 * would do. The surge keeps the deployed limiter (gate/wrangler.jsonc).
 */
export const DEMO_EDGE_LIMIT = 100_000;

/**
 * Checks PORT (and MOCK_PORT for the demo) before anything is installed or built.
 * @param {string} command
 * @returns {Promise<{ port: number, mockPort: number | null }>} `mockPort` for the demo only
 */
export async function checkServicePorts(command, live = isLive()) {
  if (live) {
    const { PORT } = await checkPortsOrExit([{ name: 'PORT', fallback: DEFAULT_PORT }], command);
    return { port: PORT, mockPort: null };
  }
  const { PORT, MOCK_PORT } = await checkPortsOrExit(
    [
      { name: 'PORT', fallback: DEFAULT_PORT },
      { name: 'MOCK_PORT', fallback: DEFAULT_MOCK_PORT },
    ],
    command,
  );
  return { port: PORT, mockPort: MOCK_PORT };
}

/**
 * The variables a demo build or dev server reads: demo mode, and the mock as the provider.
 * @param {number} mockPort
 */
export function useDemoEnvironment(mockPort, env = process.env) {
  env.VITE_PEPA_DEMO = 'true';
  if (!env.VITE_VAPI_API_URL) env.VITE_VAPI_API_URL = `http://127.0.0.1:${mockPort}`;
}
