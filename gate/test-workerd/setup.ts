/**
 * Each test starts from an empty court (nothing stored, no alarm, a fresh instance with nothing
 * in memory) and ends leaving no fake clock or stub behind.
 */
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, vi } from 'vitest';
import {
  court,
  desk,
  expectStreamsConform,
  resetWorld,
  restoreBindings,
  takeDesks,
} from './support';

async function emptyCourt(): Promise<void> {
  const empty = async (_instance: unknown, state: DurableObjectState) => {
    await state.storage.deleteAlarm();
    await state.storage.deleteAll();
  };
  await runInDurableObject(court(), empty);
  // The text desks the test used too: their chats, counts and grants of the budget.
  for (const name of takeDesks()) await runInDurableObject(desk(name), empty);
  await abortAllDurableObjects();
}

beforeEach(async () => {
  await emptyCourt();
  resetWorld();
});

afterEach(async () => {
  await expectStreamsConform();
  vi.useRealTimers();
  vi.restoreAllMocks();
  restoreBindings();
  await emptyCourt();
});
