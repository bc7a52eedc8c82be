import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useWakeLock } from './use-wake-lock';

interface FakeSentinel {
  released: boolean;
  release(): Promise<void>;
}

/** A screen wake lock whose requests the test answers one by one, in any order. */
function installWakeLock() {
  const requests: Array<(sentinel: FakeSentinel) => void> = [];
  const sentinels: FakeSentinel[] = [];
  const request = vi.fn(
    () =>
      new Promise<FakeSentinel>((resolve) => {
        requests.push(resolve);
      }),
  );
  vi.stubGlobal('navigator', { ...navigator, wakeLock: { request } });
  /** Grants the `index`th request. */
  const grant = async (index: number) => {
    const sentinel: FakeSentinel = {
      released: false,
      release: vi.fn(async () => {
        sentinel.released = true;
      }),
    };
    sentinels.push(sentinel);
    await act(async () => requests[index]?.(sentinel));
  };
  const held = () => sentinels.filter((sentinel) => !sentinel.released).length;
  return { request, grant, held };
}

let visibility: DocumentVisibilityState = 'visible';
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

beforeEach(() => {
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('useWakeLock', () => {
  it('holds one lock during the call and releases it when the call ends', async () => {
    const lock = installWakeLock();
    const { rerender } = renderHook(({ active }) => useWakeLock(active), {
      initialProps: { active: true },
    });
    await lock.grant(0);
    expect(lock.held()).toBe(1);
    rerender({ active: false });
    expect(lock.held()).toBe(0);
  });

  it('releases every lock when the page is hidden and shown while a request is pending', async () => {
    const lock = installWakeLock();
    const { unmount } = renderHook(() => useWakeLock(true));
    expect(lock.request).toHaveBeenCalledTimes(1);
    // Hidden and back in view before the first request is answered.
    setVisibility('hidden');
    setVisibility('visible');
    await lock.grant(0);
    // Whatever was asked for meanwhile, each lock granted is one the page holds and can release.
    for (let index = 1; index < lock.request.mock.calls.length; index += 1) {
      await lock.grant(index);
    }
    expect(lock.held()).toBe(1);
    unmount();
    expect(lock.held()).toBe(0);
  });

  it('takes the lock again when the page comes back after the browser dropped it', async () => {
    const lock = installWakeLock();
    const { unmount } = renderHook(() => useWakeLock(true));
    await lock.grant(0);
    setVisibility('hidden');
    // Browsers release a screen lock when the page is hidden.
    const [first] = lock.request.mock.results;
    await act(async () => (await (first?.value as Promise<FakeSentinel>)).release());
    setVisibility('visible');
    expect(lock.request).toHaveBeenCalledTimes(2);
    await lock.grant(1);
    expect(lock.held()).toBe(1);
    unmount();
    expect(lock.held()).toBe(0);
  });

  it('releases a lock that arrives after the call ended', async () => {
    const lock = installWakeLock();
    const { unmount } = renderHook(() => useWakeLock(true));
    unmount();
    await lock.grant(0);
    expect(lock.held()).toBe(0);
  });
});
