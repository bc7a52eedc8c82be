/**
 * Each test starts from an empty court (nothing stored, no alarm, a fresh instance with nothing
 * in memory) and ends leaving no fake clock or stub behind.
 */
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, vi } from 'vitest';
import { court, resetWorld, restoreBindings } from './support';

async function emptyCourt(): Promise<void> {
  await runInDurableObject(court(), async (_instance, state) => {
    await state.storage.deleteAlarm();
    await state.storage.deleteAll();
  });
  await abortAllDurableObjects();
}

beforeEach(async () => {
  await emptyCourt();
  resetWorld();
});

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  restoreBindings();
  await emptyCourt();
});
