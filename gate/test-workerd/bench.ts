/**
 * The bench the gate's tests run on, inside workerd: the Worker and its court run in the tests'
 * isolate, with a faked `Date` as the court's clock. The clock starts in the future, so the
 * court's alarm never fires by itself: a test runs the sweep when it means to.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import type { Court } from '../src/calls/court';

/** Noon UTC on a day far from the real clock. */
export const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
/** The origin the tests' page and requests come from. */
export const ORIGIN = 'https://pepa.test';
/** A bot-check token the siteverify stand-in accepts (unless a test says otherwise). */
export const TOKEN = 'a-bot-check-token';

/** The gate's bindings, its variables writable by a test. */
export const gateEnv = env as unknown as Env & Record<string, string | undefined>;

/** An address for visitor number `n`, each in its own /24 (its own network). */
export const addr = (n: number): string => `198.${Math.floor(n / 250)}.${n % 250}.1`;

/** The variables and secrets as the suite began: wrangler.jsonc's `vars` under the test bindings. */
const initialBindings = Object.fromEntries(
  Object.entries(gateEnv).filter(([, value]) => typeof value === 'string'),
);

/** The bindings as the suite began, whatever a test changed. */
export function restoreBindings(): void {
  for (const key of Object.keys(gateEnv)) {
    if (typeof gateEnv[key] === 'string' && !(key in initialBindings)) delete gateEnv[key];
  }
  Object.assign(gateEnv, initialBindings);
}

/** Changes the gate's variables for this test (before the court first wakes). */
export function setVars(vars: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined) delete gateEnv[key];
    else gateEnv[key] = value;
  }
}

/** Moves the court's clock on by `seconds`. */
export function advance(seconds: number): void {
  vi.setSystemTime(Date.now() + seconds * 1000);
}

/** The court, as the Worker reaches it. */
export function court(): DurableObjectStub<Court> {
  return gateEnv.COURT.getByName('court');
}

/** What the court holds right now: calls under way, tickets in line, money committed today. */
export function inspect() {
  return runInDurableObject(court(), (instance: Court) => instance.inspect());
}

/** Runs the court's sweep (its alarm) now; false when none was scheduled. */
export function sweep(): Promise<boolean> {
  return runDurableObjectAlarm(court());
}
