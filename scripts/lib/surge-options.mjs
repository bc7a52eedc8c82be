// @ts-check
// The surge's options from its environment.

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
