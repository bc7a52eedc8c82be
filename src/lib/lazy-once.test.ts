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
