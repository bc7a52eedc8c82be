import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  RATING_COMMENT_LABEL,
  RATING_QUESTION,
  RATING_SEND,
  RATING_SKIP,
  RATING_THANKS,
  CallRating,
} from './call-rating';

let sent: unknown[];

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      sent.push(JSON.parse(await request.text()));
      return new Response(null, { status: 204 });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderRating() {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  const onDone = vi.fn();
  render(<CallRating callId="call-7" onDone={onDone} />);
  return { user, onDone };
}

describe('CallRating', () => {
  it('offers the choices first, and the comment only once one is chosen', async () => {
    const { user } = renderRating();
    const rating = screen.getByRole('region', { name: RATING_QUESTION });
    expect(rating).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: RATING_COMMENT_LABEL })).not.toBeInTheDocument();
    const content = screen.getByRole('button', { name: 'Content' });
    expect(content).toHaveAttribute('aria-pressed', 'false');

    await user.click(content);
    expect(content).toHaveAttribute('aria-pressed', 'true');
    const comment = screen.getByRole('textbox', { name: RATING_COMMENT_LABEL });
    // The comment comes after the choices, in reading and Tab order.
    expect(
      content.compareDocumentPosition(comment) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    // A choice alone sends nothing: the visitor may still change it or add a word.
    expect(sent).toEqual([]);
  });

  it('sends the choice and the comment together, once, on Send rating', async () => {
    const { user } = renderRating();
    await user.click(screen.getByRole('button', { name: 'Content' }));
    await user.click(screen.getByRole('button', { name: 'Not amused' }));
    await user.type(screen.getByRole('textbox', { name: RATING_COMMENT_LABEL }), 'Too short');
    await user.click(screen.getByRole('button', { name: RATING_SEND }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(sent).toEqual([{ callId: 'call-7', score: 'displeased', comment: 'Too short' }]);
    expect(screen.getByText(RATING_THANKS)).toBeInTheDocument();
  });

  it('sends a choice without a comment, by Enter in the field as well', async () => {
    const { user } = renderRating();
    await user.click(screen.getByRole('button', { name: 'Royally delighted' }));
    await user.type(screen.getByRole('textbox', { name: RATING_COMMENT_LABEL }), '{Enter}');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(sent).toEqual([{ callId: 'call-7', score: 'delighted' }]);
  });

  it('can be skipped before or after a choice, sending nothing', async () => {
    const { user, onDone } = renderRating();
    await user.click(screen.getByRole('button', { name: 'Content' }));
    await user.click(screen.getByRole('button', { name: RATING_SKIP }));
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(sent).toEqual([]);
  });
});
