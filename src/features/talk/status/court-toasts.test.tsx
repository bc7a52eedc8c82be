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
