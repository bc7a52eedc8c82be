import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_COPY_EVENT, replayEarlyTaps, type EarlyTap } from '../../app/early-taps';
import {
  COPIED_ANNOUNCEMENT,
  COPIED_MS,
  COPY_REFUSED_ANNOUNCEMENT,
  TokenAddress,
  shortAddress,
} from './token-address';

const MINT = 'PEPA1111111111111111111111111111111111pump';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
}

/** Presses the copy button and lets the clipboard promise and its updates settle. */
async function pressCopy() {
  await act(async () => {
    screen.getByRole('button', { name: 'Copy contract address' }).click();
    await Promise.resolve();
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('shortAddress', () => {
  it('keeps the first and last four characters', () => {
    expect(shortAddress(MINT)).toBe('PEPA…pump');
    expect(shortAddress('short')).toBe('short');
  });
});

describe('TokenAddress', () => {
  it('shows the short form and gives assistive technology the whole address', () => {
    render(<TokenAddress address={MINT} />);
    const code = screen.getByText(MINT, { selector: '.sr-only' }).closest('code');
    expect(code).toHaveTextContent(`PEPA…pump${MINT}`);
    expect(screen.getByTestId('full-address')).toHaveTextContent(MINT);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('copies the address, announces it, and reads Copied for a moment', async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(writeText);
    render(<TokenAddress address={MINT} />);

    await pressCopy();
    expect(writeText).toHaveBeenCalledWith(MINT);
    expect(screen.getByRole('status')).toHaveTextContent(COPIED_ANNOUNCEMENT);
    expect(screen.getByRole('button', { name: 'Copy contract address' })).toHaveTextContent(
      'Copied',
    );

    act(() => vi.advanceTimersByTime(COPIED_MS));
    expect(screen.getByRole('button', { name: 'Copy contract address' })).toHaveTextContent(
      /^Copy/,
    );
    expect(screen.getByRole('button', { name: 'Copy contract address' })).not.toHaveTextContent(
      'Copied',
    );
    expect(vi.getTimerCount()).toBe(0);
  });

  it('selects the whole address in a field when the browser refuses the clipboard', async () => {
    stubClipboard(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    render(<TokenAddress address={MINT} />);

    await pressCopy();
    const field = screen.getByRole('textbox', { name: 'Contract address' });
    expect(field).toHaveValue(MINT);
    expect(field).toHaveFocus();
    const input = field as HTMLInputElement;
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, MINT.length]);
    expect(screen.getByRole('status')).toHaveTextContent(COPY_REFUSED_ANNOUNCEMENT);
  });

  it('falls back to the selection where there is no clipboard at all', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    render(<TokenAddress address={MINT} />);
    await pressCopy();
    expect(screen.getByRole('textbox', { name: 'Contract address' })).toHaveFocus();
  });

  it('leaves no timer behind when it goes away while reading Copied', async () => {
    vi.useFakeTimers();
    stubClipboard(() => Promise.resolve());
    const { unmount } = render(<TokenAddress address={MINT} />);
    await pressCopy();
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shows a copy made during a tap before the app started, without writing again', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    stubClipboard(writeText);
    render(<TokenAddress address={MINT} />);
    const button = screen.getByRole('button', { name: 'Copy contract address' });
    expect(button).toHaveAttribute('data-copy', MINT);

    await act(async () => {
      button.dispatchEvent(new CustomEvent(EARLY_COPY_EVENT, { detail: Promise.resolve(true) }));
      await Promise.resolve();
    });
    expect(screen.getByRole('status')).toHaveTextContent(COPIED_ANNOUNCEMENT);
    expect(button).toHaveTextContent('Copied');
    expect(writeText).not.toHaveBeenCalled();
  });

  it('offers the selected address when the early copy was refused', async () => {
    render(<TokenAddress address={MINT} />);
    await act(async () => {
      screen
        .getByRole('button', { name: 'Copy contract address' })
        .dispatchEvent(new CustomEvent(EARLY_COPY_EVENT, { detail: Promise.resolve(false) }));
      await Promise.resolve();
    });
    expect(screen.getByRole('status')).toHaveTextContent(COPY_REFUSED_ANNOUNCEMENT);
    expect(screen.getByRole('textbox', { name: 'Contract address' })).toHaveValue(MINT);
  });

  it('an early copy is shown even after the visitor scrolled the button out of view', async () => {
    stubClipboard(vi.fn(() => Promise.resolve()));
    render(<TokenAddress address={MINT} />);
    const button = screen.getByRole('button', { name: 'Copy contract address' });
    button.setAttribute('data-pressed', '');
    // jsdom lays nothing out: every element is out of view, as if scrolled away.
    const tap: EarlyTap = {
      control: button,
      label: button.textContent,
      at: 0,
      copied: Promise.resolve(true),
    };
    window.__pepaEarlyTaps = () => [tap];
    await act(async () => {
      expect(replayEarlyTaps()).toEqual([tap]);
      await Promise.resolve();
    });
    expect(button).not.toHaveAttribute('data-pressed');
    expect(screen.getByRole('status')).toHaveTextContent(COPIED_ANNOUNCEMENT);
  });
});
