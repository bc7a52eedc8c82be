/**
 * Each test starts from an empty court, desks and ASN keepers (nothing stored, no alarm, a fresh
 * instance with nothing in memory), the test bindings, the outside world answering well, a card
 * judge that reads the line and the clock at T0, and ends leaving no fake clock or stub behind.
 */
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, vi } from 'vitest';
import { forgetFull } from '../src/floor/edge';
import { court, gateEnv, restoreBindings, T0 } from './bench';
import { TEST_BINDINGS } from './bindings';
import { standInJudge } from './card-judge-stand-in';
import { expectStreamsConform } from './gate-fetch';
import { outside, resetOutsideWorld } from './outside-world';
import { forgetVisitorCalls } from './visitor-calls';
import { desk, forgetVisitorChats, keeper, takeDesks, takeKeepers } from './visitor-chats';

let testRun = 0;

/** A fresh world for the next test: what the test before left in memory is forgotten. */
function resetWorld(): void {
  resetOutsideWorld();
  forgetVisitorChats();
  forgetVisitorCalls();
  restoreBindings();
  // A fresh court has said nothing yet, full or not.
  forgetFull();
  // A salt of its own for each test: the edge limiter's counts (kept by the runtime across
  // tests) are keyed by visitor, so no test inherits another's.
  testRun += 1;
  gateEnv.GATE_VISITOR_SALT = `${TEST_BINDINGS.GATE_VISITOR_SALT}-${testRun}`;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  vi.spyOn(globalThis, 'fetch').mockImplementation(outside);
}

async function emptyCourt(): Promise<void> {
  const empty = async (_instance: unknown, state: DurableObjectState) => {
    await state.storage.deleteAlarm();
    await state.storage.deleteAll();
  };
  await runInDurableObject(court(), empty);
  // The text desks the test used too: their chats, counts and grants of the budget.
  for (const name of takeDesks()) await runInDurableObject(desk(name), empty);
  // And the ASN keepers they drew from: each day's turns handed out.
  for (const name of takeKeepers()) await runInDurableObject(keeper(name), empty);
  await abortAllDurableObjects();
}

beforeEach(async () => {
  await emptyCourt();
  resetWorld();
  standInJudge();
});

afterEach(async () => {
  await expectStreamsConform();
  vi.useRealTimers();
  vi.restoreAllMocks();
  restoreBindings();
  await emptyCourt();
});
