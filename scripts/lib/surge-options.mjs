// @ts-check
// The surge's options from its environment.

/** Pepa's first words within this long count as a visitor served. */
export const FIRST_WORDS_WITHIN_MS = 5000;

/**
 * The positive number in the environment variable `name`, or `fallback` when it is unset or
 * empty; anything else ends the run with a line that names the variable.
 * @param {string} name
 * @param {number} fallback
 * @param {NodeJS.ProcessEnv} [env]
 */
export function numberFrom(name, fallback, env = process.env) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`surge: ${name} must be a positive number (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

/**
 * A share (0 to 1) in the environment variable `name`, or `fallback` when it is unset or empty;
 * anything else ends the run with a line that names the variable.
 * @param {string} name
 * @param {number} fallback
 * @param {NodeJS.ProcessEnv} [env]
 */
export function shareFrom(name, fallback, env = process.env) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    console.error(`surge: ${name} must be a share from 0 to 1 (got "${raw}")`);
    process.exit(2);
  }
  return value;
}

/**
 * Text with Pepa in the run. `mode`: `windows` (the default) offers it to visitors turned away
 * from voice in alternate windows of the viral minute, so the court's load with text and without
 * it can be set side by side in one run; `on` offers it throughout; `off` never. `share`: of the
 * visitors turned away while text is offered, those who choose it (the rest leave); `stopShare`:
 * of the replies, those a visitor stops at its first words; and the gate's chat limits (five
 * visitors share each address, the surge's 10,000 from 2,000).
 * @param {NodeJS.ProcessEnv} [env]
 */
export function textOptions(env = process.env) {
  const mode = env.SURGE_TEXT ?? 'windows';
  if (!['windows', 'on', 'off'].includes(mode)) {
    console.error(`surge: SURGE_TEXT must be windows, on or off (got "${mode}")`);
    process.exit(2);
  }
  // The gate's engine for text (GATE_TEXT_ENGINE, passed on): the shipped one unless set.
  const engine = env.GATE_TEXT_ENGINE?.trim() || 'model';
  if (!['model', 'provider-chat'].includes(engine)) {
    console.error(`surge: GATE_TEXT_ENGINE must be model or provider-chat (got "${engine}")`);
    process.exit(2);
  }
  const limits = {
    turnsPerMinute: numberFrom('GATE_CHAT_TURNS_PER_MINUTE', 20, env),
    turnsPerDay: numberFrom('GATE_CHAT_TURNS_PER_DAY', 120, env),
    startsPerDay: numberFrom('GATE_CHAT_STARTS_PER_DAY', 20, env),
    messageChars: numberFrom('GATE_CHAT_MESSAGE_CHARS', 500, env),
  };
  return {
    mode,
    engine,
    windowMs: numberFrom('SURGE_TEXT_WINDOW_SECONDS', 10, env) * 1000,
    share: Math.min(1, numberFrom('SURGE_TEXT_SHARE', 0.9, env)),
    stopShare: 0.05,
    ...limits,
    /** Text's settings the run gives the gate. */
    gateVars: {
      GATE_CHAT_TURNS_PER_MINUTE: limits.turnsPerMinute,
      GATE_CHAT_TURNS_PER_DAY: limits.turnsPerDay,
      GATE_CHAT_STARTS_PER_DAY: limits.startsPerDay,
      GATE_CHAT_MESSAGE_CHARS: limits.messageChars,
      // Every local request carries the runtime's one stand-in ASN, so the ASN's daily cap would
      // hold the whole crowd as one carrier's; that cap is the gate suite's to test.
      GATE_CHAT_ASN_TURNS_PER_DAY: 10_000_000,
    },
  };
}
