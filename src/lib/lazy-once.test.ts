import { describe, expect, it, vi } from 'vitest';
import { lazyOnce } from './lazy-once';

describe('lazyOnce', () => {
  it('loads once and shares the result', async () => {
    const load = vi.fn(async () => 'chunk');
    const get = lazyOnce(load);
    await expect(Promise.all([get(), get()])).resolves.toEqual(['chunk', 'chunk']);
    await get();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed load', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue('chunk');
    const get = lazyOnce(load);
    await expect(get()).rejects.toThrow('offline');
    await expect(get()).resolves.toBe('chunk');
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('lazyOnce with a way out', () => {
  it('hands a second failure to retry, and a first one to the caller', async () => {
    const cached = new Error('Importing a module script failed');
    // An engine that caches a failed import: every later import gives the first failure.
    const load = vi.fn().mockRejectedValue(cached);
    const retry = vi.fn(async () => 'reloaded');
    const get = lazyOnce(load, { retry });
    await expect(get()).rejects.toBe(cached);
    expect(retry).not.toHaveBeenCalled();
    await expect(get()).resolves.toBe('reloaded');
    expect(retry).toHaveBeenCalledWith(cached);
  });

  it('does not call retry when the second load succeeds', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue('chunk');
    const retry = vi.fn(async () => 'reloaded');
    const get = lazyOnce(load, { retry });
    await expect(get()).rejects.toThrow('offline');
    await expect(get()).resolves.toBe('chunk');
    expect(retry).not.toHaveBeenCalled();
  });
});
