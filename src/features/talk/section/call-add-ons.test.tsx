import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { siteConfig } from '../../../config/site';
import { RATING_FAILED, RATING_QUESTION, RATING_THANKS } from '../controls/call-rating';
import { HIGHLIGHT_ATTRIBUTE, HIGHLIGHT_MS } from '../page-tools/page-actions';
import { SHIELD_HIDDEN, SHIELD_NOT_SENT, SHIELD_WARNING } from '../guards/seed-shield';
import { BUY_LABEL, COPY_ADDRESS_LABEL, SITE_CARD_TITLE } from '../page-tools/site-card';
import { ADDRESS_MASK, MASKED_NOTE } from '../guards/site-facts';
import { finalCaption, partialCaption, toolCalls } from '../test/fake-voice-call';
import { SEND_LABEL, TYPE_LABEL } from '../thread/type-to-pepa';
import { DOUBLE_TAP_MS } from './talk-panel';
import {
  LOOK_ALIKE,
  PHRASE,
  call,
  ratings,
  answerRatingsWith,
  scrolled,
  renderPage,
  startCall,
  endCall,
  freshAddOnsWorld,
} from '../test/call-add-ons-kit';

freshAddOnsWorld();

describe('Pepa acts on the page', () => {
  it('shows a section: scrolls, highlights it briefly, moves the focus, then tells Pepa silently', async () => {
    const { user } = renderPage();
    await startCall(user);
    call.message(toolCalls({ name: 'show_section', arguments: { section: 'pond' } }));

    const pond = document.getElementById('pond')!;
    expect(scrolled).toEqual([{ id: 'pond', behavior: 'smooth' }]);
    expect(pond).toHaveAttribute(HIGHLIGHT_ATTRIBUTE);
    expect(pond).toHaveFocus();
    expect(call.sentMessages).toEqual([
      {
        type: 'add-message',
        message: { role: 'system', content: expect.stringContaining("Pepa's Pond") },
        triggerResponseEnabled: false,
      },
    ]);
    act(() => vi.advanceTimersByTime(HIGHLIGHT_MS));
    expect(pond).not.toHaveAttribute(HIGHLIGHT_ATTRIBUTE);
  });

  it('scrolls without smoothness under reduced motion', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('reduce'),
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }));
    const { user } = renderPage();
    await startCall(user);
    call.message(toolCalls({ name: 'show_section', arguments: { section: 'pond' } }));
    expect(scrolled).toEqual([{ id: 'pond', behavior: 'auto' }]);
  });

  it('moves the focus to the section from an empty field where it only rests after Send', async () => {
    const { user } = renderPage();
    await startCall(user);
    const field = screen.getByRole('textbox', { name: TYPE_LABEL });
    await user.click(field);
    call.message(toolCalls({ name: 'show_section', arguments: { section: 'pond' } }));
    expect(document.getElementById('pond')).toHaveFocus();
  });

  it('leaves the focus where the visitor is typing', async () => {
    const { user } = renderPage();
    await startCall(user);
    const field = screen.getByRole('textbox', { name: TYPE_LABEL });
    await user.click(field);
    await user.type(field, 'where is');
    call.message(toolCalls({ name: 'show_section', arguments: { section: 'pond' } }));
    expect(scrolled).toHaveLength(1);
    expect(field).toHaveFocus();
    expect(field).toHaveValue('where is');
  });

  it('leaves the focus in a dialog the visitor has open, and still scrolls the page behind it', async () => {
    const { user } = renderPage();
    await startCall(user);
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    const close = document.createElement('button');
    close.textContent = 'Close';
    dialog.append(close);
    document.body.append(dialog);
    try {
      close.focus();
      call.message(toolCalls({ name: 'show_section', arguments: { section: 'pond' } }));
      expect(scrolled).toEqual([{ id: 'pond', behavior: 'smooth' }]);
      expect(document.getElementById('pond')).toHaveAttribute(HIGHLIGHT_ATTRIBUTE);
      expect(close).toHaveFocus();
    } finally {
      dialog.remove();
    }
  });

  it('drops unknown tools and bad arguments with a debug log, doing and saying nothing', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { user } = renderPage();
    await startCall(user);
    call.message(
      toolCalls(
        { name: 'open_url', arguments: { url: 'https://evil.example' } },
        { name: 'show_section', arguments: { section: 'body' } },
      ),
    );
    expect(scrolled).toEqual([]);
    expect(call.sentMessages).toEqual([]);
    expect(screen.queryByText(SITE_CARD_TITLE)).not.toBeInTheDocument();
    expect(debug).toHaveBeenCalledTimes(2);
  });

  it('shows the contract card from the site config, with Copy, and says so to Pepa', async () => {
    const { user } = renderPage();
    // user-event installs its own clipboard; watch what the page writes to it.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await startCall(user);
    call.message(toolCalls({ name: 'show_contract' }));
    const card = screen.getByRole('region', { name: SITE_CARD_TITLE });
    expect(within(card).getByTestId('official-address')).toHaveTextContent(siteConfig.tokenMint);
    await user.click(within(card).getByRole('button', { name: COPY_ADDRESS_LABEL }));
    expect(writeText).toHaveBeenCalledWith(siteConfig.tokenMint);
    expect(call.sentMessages).toMatchObject([
      { type: 'add-message', message: { role: 'system' }, triggerResponseEnabled: false },
    ]);
  });

  it('shows the Buy button for the visitor to press, and never opens anything by itself', async () => {
    const open = vi.fn();
    vi.stubGlobal('open', open);
    const before = window.location.href;
    const { user } = renderPage();
    await startCall(user);
    call.message(toolCalls({ name: 'show_buy' }));
    const buy = screen.getByRole('link', { name: BUY_LABEL });
    expect(buy).toHaveAttribute('href', siteConfig.buyUrl);
    expect(buy).toHaveAttribute('target', '_blank');
    expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
    expect(open).not.toHaveBeenCalled();
    expect(window.location.href).toBe(before);
  });
});

describe('facts from the site, never from her mouth', () => {
  it('never shows a look-alike address in the captions or the kept transcript, and points to the card', async () => {
    const { user, container } = renderPage();
    await startCall(user);
    call.message(partialCaption('assistant', `The contract is ${LOOK_ALIKE.slice(0, 20)}`));
    expect(container.textContent).not.toContain(LOOK_ALIKE.slice(0, 20));
    call.message(finalCaption('assistant', `The contract is ${LOOK_ALIKE}, hurry!`));
    expect(container.textContent).not.toContain(LOOK_ALIKE);
    expect(screen.getByRole('log', { name: 'Captions' })).toHaveTextContent(
      `Pepa: The contract is ${ADDRESS_MASK}, hurry!`,
    );
    expect(screen.getByText(MASKED_NOTE)).toBeInTheDocument();
    expect(screen.getByTestId('official-address')).toHaveTextContent(siteConfig.tokenMint);

    await endCall(user);
    expect(container.textContent).not.toContain(LOOK_ALIKE);
    expect(screen.getByRole('region', { name: 'Transcript' })).toHaveTextContent(ADDRESS_MASK);
  });
});

describe('the seed-phrase shield', () => {
  it('never sends a typed recovery phrase: the field keeps it and a warning says why', async () => {
    const log = vi.spyOn(console, 'log');
    const { user } = renderPage();
    await startCall(user);
    const field = screen.getByRole('textbox', { name: TYPE_LABEL });
    await user.type(field, PHRASE);
    await user.click(screen.getByRole('button', { name: SEND_LABEL }));

    expect(call.sentMessages).toEqual([]);
    expect(field).toHaveValue(PHRASE);
    expect(screen.getByRole('alert')).toHaveTextContent(`${SHIELD_WARNING} ${SHIELD_NOT_SENT}`);
    expect(screen.getByRole('log', { name: 'Captions' })).not.toHaveTextContent('sausage');
    expect(JSON.stringify({ ...window.localStorage, ...window.sessionStorage })).not.toContain(
      'sausage',
    );
    expect(JSON.stringify(log.mock.calls)).not.toContain('sausage');
    expect(ratings).toEqual([]);

    // An ordinary message goes out as before, and the warning goes.
    await user.clear(field);
    await user.type(field, 'Where do I stake?');
    await user.click(screen.getByRole('button', { name: SEND_LABEL }));
    expect(call.sentMessages).toMatchObject([
      { type: 'add-message', message: { role: 'user', content: 'Where do I stake?' } },
    ]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('redacts a spoken phrase from the captions and the kept transcript, with the warning', async () => {
    const { user, container } = renderPage();
    await startCall(user);
    call.message(partialCaption('user', PHRASE.split(' ').slice(0, 9).join(' ')));
    expect(container.textContent).not.toContain('sausage');
    call.message(finalCaption('user', `here it is ${PHRASE}`));
    expect(container.textContent).not.toContain('sausage');
    expect(screen.getByRole('alert')).toHaveTextContent(`${SHIELD_WARNING} ${SHIELD_HIDDEN}`);
    await endCall(user);
    expect(container.textContent).not.toContain('sausage');
  });
});

describe('the rating after a call', () => {
  it('sends one tap with the call id and the optional comment, nothing else, then thanks', async () => {
    const { user } = renderPage();
    await startCall(user, 'call-42');
    expect(screen.queryByText(RATING_QUESTION)).not.toBeInTheDocument();
    await endCall(user);
    await user.type(screen.getByRole('textbox', { name: /A word for the court/ }), 'Regal!');
    await user.click(screen.getByRole('button', { name: 'Royally delighted' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(ratings).toEqual([
      { body: { callId: 'call-42', score: 'delighted', comment: 'Regal!' } },
    ]);
    expect(screen.getByText(RATING_THANKS)).toBeInTheDocument();
  });

  it('is skippable and never shown twice for one call', async () => {
    const { user } = renderPage();
    await startCall(user, 'call-1');
    await endCall(user);
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(screen.queryByText(RATING_QUESTION)).not.toBeInTheDocument();
    // A failed start makes no call to rate, and the skipped one does not come back.
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    act(() => call.setState('idle'));
    expect(screen.queryByText(RATING_QUESTION)).not.toBeInTheDocument();
    expect(ratings).toEqual([]);
  });

  it('never sends a comment that holds a recovery phrase', async () => {
    const { user } = renderPage();
    await startCall(user, 'call-1');
    await endCall(user);
    const comment = screen.getByRole('textbox', { name: /A word for the court/ });
    await user.type(comment, PHRASE);
    await user.click(screen.getByRole('button', { name: 'Content' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(ratings).toEqual([]);
    expect(screen.getByRole('alert')).toHaveTextContent(SHIELD_WARNING);
    expect(comment).toHaveValue(PHRASE);
  });

  it('says plainly when the rating could not be sent, and the next call starts all the same', async () => {
    answerRatingsWith(503);
    const { user } = renderPage();
    await startCall(user, 'call-1');
    await endCall(user);
    await user.click(screen.getByRole('button', { name: 'Content' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('alert')).toHaveTextContent(RATING_FAILED);
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    expect(screen.getByRole('status')).toHaveTextContent('Connecting to Pepa...');
    expect(screen.queryByText(RATING_QUESTION)).not.toBeInTheDocument();
  });
});
