import { act, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TalkPhase } from '../voice/voice-state';
import { scrollToShow, useAfterCallInView } from './after-call-in-view';

describe('scrollToShow', () => {
  it('does nothing for what is already between the navigation bar and the bottom edge', () => {
    expect(scrollToShow({ top: 200, bottom: 700 }, 844)).toBe(0);
  });
  it('scrolls the least that shows the whole of it', () => {
    expect(scrollToShow({ top: 600, bottom: 1000 }, 844)).toBe(1000 + 12 - 844);
  });
  it('puts the top of what is taller than the screen just under the bar', () => {
    expect(scrollToShow({ top: 600, bottom: 2000 }, 844)).toBe(600 - 76);
  });
  it('scrolls back up to what went under the bar', () => {
    expect(scrollToShow({ top: -300, bottom: 100 }, 844)).toBe(-376);
  });
  it('keeps clear of a toast at the bottom of the screen', () => {
    const room = { top: 76, bottom: 844 - 16 - 110 };
    expect(scrollToShow({ top: 300, bottom: 800 }, room)).toBe(800 - room.bottom);
  });
});

function AfterCall({ phase }: { phase: TalkPhase }) {
  const ref = useRef<HTMLDivElement>(null);
  useAfterCallInView(ref, phase);
  return (
    <div>
      <div ref={ref}>{phase === 'idle' && <p>How was your audience with the Queen?</p>}</div>
    </div>
  );
}

describe('useAfterCallInView', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('brings the rating and transcript into view when a call ends, and not on arrival', () => {
    const scrollBy = vi.fn();
    window.scrollBy = scrollBy as typeof window.scrollBy;
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
      new DOMRect(0, 700, 300, 400),
    );
    const view = render(<AfterCall phase="idle" />);
    expect(scrollBy).not.toHaveBeenCalled();
    view.rerender(<AfterCall phase="listening" />);
    view.rerender(<AfterCall phase="idle" />);
    // After the frame in which the call's end drew its toast.
    expect(scrollBy).not.toHaveBeenCalled();
    act(() => vi.advanceTimersToNextFrame());
    expect(scrollBy).toHaveBeenCalledTimes(1);
    expect(scrollBy.mock.calls[0]?.[0]).toMatchObject({ top: 1100 + 12 - window.innerHeight });
  });
});
