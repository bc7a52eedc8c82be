/**
 * Each test starts from empty Durable Objects (nothing stored, no alarm, a fresh instance with
 * nothing in memory), the test bindings, the outside world answering well, a card judge that
 * reads the line and the clock at T0, and ends leaving no fake clock or stub behind.
 */
import { abortAllDurableObjects, reset } from 'cloudflare:test';
import { afterEach, beforeEach, vi } from 'vitest';
import { forgetCourtRefusal } from '../src/floor/edge';
import { gateEnv, restoreBindings, T0 } from './bench';
import { TEST_BINDINGS } from './bindings';
import { standInJudge } from './card-judge-stand-in';
import { expectStreamsConform } from './gate-fetch';
import { outside, resetOutsideWorld } from './outside-world';
import { forgetVisitorCalls } from './visitor-calls';
import { forgetVisitorChats } from './visitor-chats';

/** A fresh world for the next test: what the test before left in memory is forgotten. */
function resetWorld(test: string): void {
  resetOutsideWorld();
  forgetVisitorChats();
  forgetVisitorCalls();
  restoreBindings();
  // A fresh court has said nothing yet, full or not.
  forgetCourtRefusal();
  // A salt of its own for each test: the edge limiter's counts (kept by the runtime across
  // tests and files) are keyed by visitor, so no test inherits another's. It is the test's own
  // (its id), not its place in the run, so each test meets the same visitors' keys (and so the
  // same desks and shelves) in any order.
  gateEnv.GATE_VISITOR_SALT = `${TEST_BINDINGS.GATE_VISITOR_SALT}-${test}`;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  vi.spyOn(globalThis, 'fetch').mockImplementation(outside);
}

/**
 * Every Durable Object emptied (the court, the desks, the ASN keepers, the reply places, the card
 * shelves: storage and alarms) and every instance ended, so nothing is kept in memory either.
 */
async function emptyObjects(): Promise<void> {
  await reset();
  await abortAllDurableObjects();
}

beforeEach(async ({ task }) => {
  await emptyObjects();
  resetWorld(task.id);
  standInJudge();
});

afterEach(async () => {
  await expectStreamsConform();
  vi.useRealTimers();
  vi.restoreAllMocks();
  restoreBindings();
  await emptyObjects();
});
