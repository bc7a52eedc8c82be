import { act, render } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CourtToaster,
  DEFAULT_PLACEMENT,
  TOAST_BAND_PX,
  TOAST_Z_INDEX,
  TOASTS,
  placeToast,
  endConnectedToast,
  notificationsFor,
  useToastsKeptClear,
  type ToastPlacement,
} from './court-toasts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
/** The status pill under the navigation bar, as a call's layout leaves it on a phone. */
const STATUS_AT_TOP = { top: 90, bottom: 122, status: true };

describe('placeToast', () => {
  it("puts a phone's toast at the bottom, clear of the status pill at the top", () => {
    expect(placeToast(PHONE, [STATUS_AT_TOP])).toEqual({
      position: 'bottom-center',
      topPx: 76,
      bottomPx: 16,
    });
  });

  it("puts a desktop's toast at the top when nothing is there", () => {
    expect(placeToast(DESKTOP, [{ top: 400, bottom: 700 }]).position).toBe('top-center');
  });

  it('goes to the other edge when its own would cover a control', () => {
    expect(placeToast(DESKTOP, [{ top: 100, bottom: 140 }]).position).toBe('bottom-center');
    expect(placeToast(PHONE, [{ top: 780, bottom: 820 }]).position).toBe('top-center');
  });

  it('goes between the controls (over the captions) when both edges hold one', () => {
    // A phone's call: the status under the bar, End Call, the captions, the field at the bottom.
    const endCall = { top: 140, bottom: 190 };
    const fieldAtBottom = { top: 760, bottom: 820 };
    expect(placeToast(PHONE, [STATUS_AT_TOP, endCall, fieldAtBottom])).toEqual({
      position: 'top-center',
      topPx: 190,
      bottomPx: 16,
    });
  });

  it('never covers the status to spare another control when there is no gap', () => {
    const wall = Array.from({ length: 20 }, (_, index) => ({
      top: 122 + index * 40,
      bottom: 122 + index * 40 + 38,
    }));
    expect(placeToast(PHONE, [STATUS_AT_TOP, ...wall]).position).toBe('bottom-center');
  });

  it('sits above the docked bar', () => {
    const placement = placeToast(PHONE, [STATUS_AT_TOP], 72);
    expect(placement).toEqual({ position: 'bottom-center', topPx: 76, bottomPx: 16 + 72 });
    // The band it takes ends above the bar.
    expect(PHONE.height - placement.bottomPx).toBeLessThanOrEqual(PHONE.height - 72);
    expect(TOAST_BAND_PX).toBeGreaterThan(0);
  });
});

describe('CourtToaster', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    act(() => {
      toast.dismiss();
      vi.runOnlyPendingTimers();
    });
    vi.useRealTimers();
  });

  it('draws every toast in one style, under the dialogs (z 60) and the navigation bar (z 50)', async () => {
    render(<CourtToaster placement={DEFAULT_PLACEMENT} />);
    act(() => {
      toast.success(TOASTS.connected.title, { description: TOASTS.connected.description });
      toast(TOASTS.ended.title, { description: TOASTS.ended.description });
      toast.error(TOASTS.error.title, { description: TOASTS.error.description });
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    const toaster = document.querySelector<HTMLElement>('[data-sonner-toaster]');
    expect(Number(toaster?.style.zIndex)).toBe(TOAST_Z_INDEX);
    expect(TOAST_Z_INDEX).toBeLessThan(50);
    const toasts = [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]')];
    expect(toasts).toHaveLength(3);
    const looks = new Set(
      toasts.map((element) =>
        [
          element.style.background,
          element.style.border,
          element.style.color,
          element.getAttribute('data-rich-colors'),
        ].join('|'),
      ),
    );
    expect(looks.size).toBe(1);
    expect(toasts[0]?.style.background).toContain('court-950');
    // The spec's words, as written.
    expect(toaster).toHaveTextContent("You're now talking to Pepa!");
    expect(toaster).toHaveTextContent('Thanks for chatting with Pepa!');
    expect(toaster).toHaveTextContent('Something went wrong with the voice call');
  });

  it('takes the placement it is given: the bottom, clear of the docked bar', async () => {
    render(<CourtToaster placement={{ position: 'bottom-center', topPx: 76, bottomPx: 88 }} />);
    act(() => {
      toast(TOASTS.ended.title, { description: TOASTS.ended.description });
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    const toaster = document.querySelector<HTMLElement>('[data-sonner-toaster]');
    expect(toaster).toHaveAttribute('data-y-position', 'bottom');
    expect(toaster?.style.getPropertyValue('--offset-bottom')).toBe('88px');
  });
});

describe('useToastsKeptClear', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    act(() => {
      toast.dismiss();
      vi.runOnlyPendingTimers();
    });
    vi.useRealTimers();
  });

  it('moves a toast on screen when the page scrolls it over something, and stops listening once none shows', async () => {
    let now: ToastPlacement = DEFAULT_PLACEMENT;
    const measure = vi.fn(() => now);
    const apply = vi.fn();
    function Kept() {
      useToastsKeptClear(measure, apply);
      return null;
    }
    render(<Kept />);
    act(() => {
      toast.success(TOASTS.connected.title, { id: 'connected', position: 'top-center' });
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    // The connect scroll brings the status under the navigation bar, where the toast is.
    now = { position: 'bottom-center', topPx: 76, bottomPx: 16 };
    await act(async () => {
      window.dispatchEvent(new Event('scroll'));
      window.dispatchEvent(new Event('scroll'));
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(apply).toHaveBeenLastCalledWith(now);
    const [shown] = toast.getToasts();
    expect(shown && 'position' in shown ? shown.position : null).toBe('bottom-center');
    expect(shown && 'type' in shown ? shown.type : null).toBe('success');

    act(() => {
      toast.dismiss();
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    measure.mockClear();
    await act(async () => {
      window.dispatchEvent(new Event('scroll'));
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(measure).not.toHaveBeenCalled();
  });
});

describe("'Connected'", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    act(() => {
      toast.dismiss();
      vi.runOnlyPendingTimers();
    });
    window.scrollY = 0;
    vi.useRealTimers();
  });

  it('is placed once the connect scroll has settled, where the page then is', async () => {
    const place = vi.fn(() => 'bottom-center' as const);
    notificationsFor(place).onConnected();
    // The connect scroll moves the page for a few frames.
    for (const y of [40, 120, 200]) {
      window.scrollY = y;
      await vi.advanceTimersByTimeAsync(17);
    }
    expect(place).not.toHaveBeenCalled();
    expect(toast.getToasts()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(place).toHaveBeenCalledTimes(1);
    expect(toast.getToasts().map((shown) => ('title' in shown ? shown.title : null))).toEqual([
      TOASTS.connected.title,
    ]);
  });

  it('is not shown when the call ends before it could be', async () => {
    const notifications = notificationsFor(() => 'top-center');
    notifications.onConnected();
    endConnectedToast();
    await vi.advanceTimersByTimeAsync(500);
    expect(toast.getToasts()).toHaveLength(0);
  });
});
