import { act, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHAT_SETTLE_MS, placeChat, scrollToFit, useChatInView } from './chat-in-view';

const VIEWPORT = 844;

/** Each element's box, top and height, read by getBoundingClientRect. */
const boxes = new Map<string, { top: number; height: number }>();

function stubBoxes() {
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const box = boxes.get(this.getAttribute('data-box') ?? '') ?? { top: 0, height: 0 };
    return DOMRect.fromRect({ x: 0, y: box.top, width: 100, height: box.height });
  });
}

/** jsdom has no ResizeObserver: this one is told by the test when a size changes. */
const observers = new Set<FakeResizeObserver>();
class FakeResizeObserver {
  constructor(private readonly callback: () => void) {}
  observe() {
    observers.add(this);
  }
  unobserve() {}
  disconnect() {
    observers.delete(this);
  }
  fire() {
    this.callback();
  }
}
const resized = () => {
  for (const observer of observers) observer.fire();
};

function Chat({ opening, keepStatus }: { opening: boolean; keepStatus: boolean }) {
  const panelRef = useRef<HTMLElement>(null);
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  useChatInView(panelRef, fieldRef, opening, keepStatus);
  return (
    <section aria-label="Talk">
      <p data-phase="waiting" data-box="status">
        {"You're next"}
      </p>
      <section ref={panelRef} aria-label="Chat" data-box="panel">
        <div role="log" data-box="log" />
        <form data-box="form">
          <textarea ref={fieldRef} aria-label="Message to Pepa" />
        </form>
      </section>
    </section>
  );
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  vi.stubGlobal('innerHeight', VIEWPORT);
  vi.spyOn(window, 'scrollBy').mockImplementation(() => undefined);
  stubBoxes();
});

afterEach(() => {
  boxes.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const frame = () => act(() => vi.advanceTimersByTime(20));

describe('scrollToFit', () => {
  it('moves nothing when the top is under the bar and the bottom above the edge', () => {
    expect(scrollToFit(100, 700, VIEWPORT)).toBe(0);
  });
  it('brings a bottom below the fold just above the edge', () => {
    expect(scrollToFit(500, 1148, VIEWPORT)).toBe(1148 + 12 - VIEWPORT);
  });
  it('brings a top above the bar back under it', () => {
    expect(scrollToFit(-113, 500, VIEWPORT)).toBe(-113 - 64 - 12);
  });
  it('lets the bottom win when both cannot fit', () => {
    expect(scrollToFit(-300, 1000, VIEWPORT)).toBe(1000 + 12 - VIEWPORT);
  });
});

describe('placeChat', () => {
  it('puts the status under the bar when it fits with the field on one screen', () => {
    boxes.set('status', { top: 900, height: 36 });
    boxes.set('form', { top: 1400, height: 80 });
    render(<Chat opening={false} keepStatus={false} />);
    const field = document.querySelector('textarea');
    if (!field) throw new Error('no field');
    placeChat([document.querySelector('[data-phase]')], field);
    expect(window.scrollBy).toHaveBeenCalledWith({
      top: 1480 + 12 - VIEWPORT,
      behavior: 'instant',
    });
  });
  it('falls back to the panel when the status is too far above the field, and moves nothing for a top that cannot fit', () => {
    boxes.set('status', { top: -400, height: 36 });
    boxes.set('panel', { top: -50, height: 530 });
    boxes.set('form', { top: 400, height: 80 });
    render(<Chat opening={false} keepStatus={false} />);
    const field = document.querySelector('textarea');
    if (!field) throw new Error('no field');
    placeChat(
      [document.querySelector('[data-phase]'), document.querySelector('[data-box=panel]')],
      field,
    );
    expect(window.scrollBy).toHaveBeenLastCalledWith({ top: -50 - 64 - 12, behavior: 'instant' });
    placeChat([document.querySelector('[data-phase]')], field);
    // Too far above the field to share its screen, the status is not chased: the field is in view.
    expect(window.scrollBy).toHaveBeenCalledTimes(1);
  });
});

describe('useChatInView', () => {
  it('follows the opening chat as it grows, for its first second only, and leaves nothing running', () => {
    boxes.set('status', { top: 300, height: 36 });
    boxes.set('form', { top: 700, height: 80 });
    const view = render(<Chat opening keepStatus={false} />);
    frame();
    // In view at the first render: nothing moves.
    expect(window.scrollBy).not.toHaveBeenCalled();
    // Pepa's first line arrives and the field goes below the fold: the page follows.
    boxes.set('form', { top: 1068, height: 80 });
    resized();
    frame();
    expect(window.scrollBy).toHaveBeenCalledWith({
      top: 1148 + 12 - VIEWPORT,
      behavior: 'instant',
    });
    act(() => vi.advanceTimersByTime(CHAT_SETTLE_MS));
    resized();
    frame();
    expect(window.scrollBy).toHaveBeenCalledTimes(1);
    view.unmount();
    expect(observers.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops following the opening chat at the visitor's own scroll", () => {
    boxes.set('form', { top: 1068, height: 80 });
    render(<Chat opening keepStatus={false} />);
    window.dispatchEvent(new Event('wheel'));
    resized();
    frame();
    expect(window.scrollBy).not.toHaveBeenCalled();
  });

  it('keeps the place in line in view above the field while the visitor writes in line', () => {
    boxes.set('status', { top: -113, height: 36 });
    boxes.set('form', { top: 500, height: 80 });
    render(<Chat opening={false} keepStatus />);
    frame();
    // The focus elsewhere (on Leave the line): the page is the visitor's.
    expect(window.scrollBy).not.toHaveBeenCalled();
    document.querySelector('textarea')?.focus();
    resized();
    frame();
    expect(window.scrollBy).toHaveBeenCalledWith({ top: -113 - 64 - 12, behavior: 'instant' });
  });
});
