/** Faults the offline room simulator can play, one name each. */
export const SIMULATOR_FAULTS = [
  /** The room refuses the join (Daily `error` with `no-room`, then `join()` rejects). */
  'join-failure',
  /** The microphone is refused as if the visitor clicked Block. */
  'mic-denied',
  /** The visitor is ejected after the greeting (Daily `error` `ejected`, then left-meeting). */
  'ejection',
  /** The connection drops after the greeting and comes back. */
  'network-interruption',
  /** The connection drops after the greeting and never comes back (fatal `connection-error`). */
  'network-failure',
  /**
   * The connection drops after the greeting and Daily gives up (fatal `connection-error`), but
   * the network is back for the page's rejoin; once per page.
   */
  'network-rejoin',
  /** A non-JSON app message arrives mid-call; the call carries on. */
  'malformed-message',
  /** The assistant ends the call after the greeting (status-update ended, then left-meeting). */
  'server-end',
  /** The assistant never answers `playable`, so `listening` never arrives. */
  'no-listening',
  /** The assistant leaves after the greeting while the room stays open. */
  'assistant-leaves',
  /** Someone else joins after the greeting and sends messages posing as Pepa. */
  'intruder',
  /**
   * After the greeting Pepa's own captions carry a look-alike contract address and a foreign link
   * (a transcription slip or a prompt injection), first forming, then final.
   */
  'hostile-caption',
] as const;

export type SimulatorFault = (typeof SIMULATOR_FAULTS)[number];

const KNOWN = new Set<string>(SIMULATOR_FAULTS);

function isFault(name: string): name is SimulatorFault {
  return KNOWN.has(name);
}

/**
 * Reads faults from a URL query string: `?sim=ejection`, `?sim=ejection,malformed-message` or
 * repeated `sim` parameters. Unknown names are ignored; each fault appears once.
 */
export function parseSimulatorFaults(search: string): SimulatorFault[] {
  const params = new URLSearchParams(search);
  const faults = new Set<SimulatorFault>();
  for (const value of params.getAll('sim')) {
    for (const name of value.split(',')) {
      const trimmed = name.trim();
      if (isFault(trimmed)) faults.add(trimmed);
    }
  }
  return [...faults];
}
