import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ESCAPE_QUESTION_MS, useEscapeToEnd } from './use-escape-to-end';

/** A panel that says the question while it is asked, as the Talk panel does. */
function Panel({
  active = true,
  waiting = false,
  end,
}: {
  active?: boolean;
  waiting?: boolean;
  end(): void;
}) {
  const asking = useEscapeToEnd({ active, waiting, end, ownerSelector: '[data-chat]' });
  return (
    <div>
      <p aria-live="polite" data-testid="question">
        {asking ? 'End the call?' : ''}
      </p>
      <button type="button">End Call</button>
      <input aria-label="Message to Pepa" />
      <div data-chat="">
        <button type="button">In the chat</button>
      </div>
      <div role="dialog" aria-label="Share">
        <button type="button">Close</button>
      </div>
      <dialog open aria-label="Native">
        <button type="button">Native close</button>
      </dialog>
    </div>
  );
}

const escape = (target: Element | Document = document.body) =>
  act(() => {
    fireEvent.keyDown(target, { key: 'Escape' });
  });
const question = () => screen.getByTestId('question');

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('useEscapeToEnd', () => {
  it('asks on the first Escape and ends on the second, once', () => {
    const end = vi.fn();
    render(<Panel end={end} />);
    escape();
    expect(end).not.toHaveBeenCalled();
    expect(question()).toHaveTextContent('End the call?');
    escape();
    expect(end).toHaveBeenCalledTimes(1);
    expect(question()).toBeEmptyDOMElement();
  });

  it('lets the question go after 5 s: the next Escape asks again rather than ending', () => {
    const end = vi.fn();
    render(<Panel end={end} />);
    escape();
    act(() => vi.advanceTimersByTime(ESCAPE_QUESTION_MS - 1));
    expect(question()).toHaveTextContent('End the call?');
    act(() => vi.advanceTimersByTime(1));
    expect(question()).toBeEmptyDOMElement();
    escape();
    expect(end).not.toHaveBeenCalled();
    expect(question()).toHaveTextContent('End the call?');
  });

  it("leaves a field's, the chat's and a dialog's Escape to them", () => {
    const end = vi.fn();
    render(<Panel end={end} />);
    for (const target of [
      screen.getByRole('textbox', { name: 'Message to Pepa' }),
      screen.getByRole('button', { name: 'In the chat' }),
      screen.getByRole('button', { name: 'Close' }),
      screen.getByRole('button', { name: 'Native close' }),
    ]) {
      escape(target);
      escape(target);
    }
    expect(end).not.toHaveBeenCalled();
    expect(question()).toBeEmptyDOMElement();
  });

  it('leaves an Escape something else handled (the menu closing) alone', () => {
    const end = vi.fn();
    render(<Panel end={end} />);
    const handled = (event: KeyboardEvent) => event.preventDefault();
    document.addEventListener('keydown', handled, true);
    escape();
    escape();
    document.removeEventListener('keydown', handled, true);
    expect(end).not.toHaveBeenCalled();
    expect(question()).toBeEmptyDOMElement();
  });

  it('forgets a question about the line once the line becomes a call, and asks nothing when idle', () => {
    const end = vi.fn();
    const { rerender } = render(<Panel end={end} waiting />);
    escape();
    expect(question()).toHaveTextContent('End the call?');
    rerender(<Panel end={end} />);
    expect(question()).toBeEmptyDOMElement();
    escape();
    expect(end).not.toHaveBeenCalled();
    rerender(<Panel end={end} active={false} />);
    escape();
    escape();
    expect(end).not.toHaveBeenCalled();
    expect(question()).toBeEmptyDOMElement();
  });

  it('leaves no timer or listener behind', () => {
    const end = vi.fn();
    const { unmount } = render(<Panel end={end} />);
    escape();
    unmount();
    expect(vi.getTimerCount()).toBe(0);
    escape();
    expect(end).not.toHaveBeenCalled();
  });
});
