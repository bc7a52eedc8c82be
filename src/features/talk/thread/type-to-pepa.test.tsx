import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { draftTooLong } from './draft';
import { SEND_LABEL, TYPE_LABEL, TYPED_MAX_CHARS, TypeToPepa } from './type-to-pepa';

describe("the call's message field", () => {
  it('flags a message past the limit as it is typed, cuts nothing off, and rests Send until it is shortened', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn(() => true);
    render(<TypeToPepa onSend={onSend} awaitingReply={false} />);
    const field = screen.getByRole('textbox', { name: TYPE_LABEL });
    const send = screen.getByRole('button', { name: SEND_LABEL });
    const long = 'r'.repeat(TYPED_MAX_CHARS + 100);
    // Pasted whole: nothing is cut off silently.
    await user.click(field);
    await user.paste(long);
    expect(field).toHaveValue(long);
    expect(screen.getByTestId('draft-count')).toHaveTextContent(
      `${TYPED_MAX_CHARS + 100} / ${TYPED_MAX_CHARS}`,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(draftTooLong(TYPED_MAX_CHARS));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.click(send);
    await user.keyboard('{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await user.clear(field);
    await user.type(field, 'Short again');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(send).not.toHaveAttribute('aria-disabled');
    await user.click(send);
    expect(onSend).toHaveBeenCalledWith('Short again');
  });

  it('keeps Send unavailable for a message with nothing to see', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn(() => true);
    render(<TypeToPepa onSend={onSend} awaitingReply={false} />);
    await user.type(screen.getByRole('textbox', { name: TYPE_LABEL }), '\u200b\u202e ');
    const send = screen.getByRole('button', { name: SEND_LABEL });
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.click(send);
    expect(onSend).not.toHaveBeenCalled();
  });
});
