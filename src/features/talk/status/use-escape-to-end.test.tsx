import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ShareLineButton, loadShareDialog, useShareHost } from '../share/share-button';
import { FakeVoiceCall } from '../test/fake-voice-call';
import { LINES } from './talk-lines';
import { ESCAPE_CONFIRM_MS } from './use-escape-to-end';
import { VoiceChat } from '../section/voice-chat';

let call: FakeVoiceCall;

beforeEach(() => {
  vi.useFakeTimers();
  call = new FakeVoiceCall();
  // The gate never answers: a call is admitted by the test, and a card is still being made.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => undefined)),
  );
  Element.prototype.scrollIntoView = vi.fn();
});

afterEach(() => {
  act(() => {
    toast.dismiss();
    vi.runOnlyPendingTimers();
  });
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A Share button for one of Pepa's lines, with its dialog, beside the panel. */
function ShareBeside() {
  const host = useShareHost();
  return (
    <>
      <ShareLineButton
        shared={{ line: { from: 'call', conversationId: 'call-1', line: 1 }, words: 'Ribbit.' }}
        onShare={host.open}
      />
      {host.dialog}
    </>
  );
}

function renderPanel() {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  const view = render(
    <>
      <VoiceChat createCall={() => call} />
      <ShareBeside />
    </>,
  );
  // The panel's own controls (a docked bar, in a portal, may repeat some).
  const panel = within(view.container);
  const question = () => panel.getByTestId('end-confirm');
  return { user, panel, question, ...view };
}

async function startCall(
  user: ReturnType<typeof userEvent.setup>,
  panel: ReturnType<typeof within>,
) {
  await user.click(panel.getByRole('button', { name: 'Start Talking' }));
  call.connect();
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

describe('Escape in a call', () => {
  it('asks first, politely, and the call goes on; a second Escape ends it', async () => {
    const end = vi.spyOn(call, 'end');
    const { user, panel, question } = renderPanel();
    await startCall(user, panel);
    expect(question()).toHaveAttribute('aria-live', 'polite');
    expect(question()).toBeEmptyDOMElement();

    await user.keyboard('{Escape}');
    expect(end).not.toHaveBeenCalled();
    expect(question()).toHaveTextContent(LINES.confirmEnd);
    expect(panel.getByRole('status')).toHaveTextContent('Listening...');

    await user.keyboard('{Escape}');
    expect(end).toHaveBeenCalledTimes(1);
    expect(panel.getByRole('status')).toHaveTextContent('Ready to chat');
  });

  it('lets the question go after ESCAPE_CONFIRM_MS: the next Escape asks again', async () => {
    const end = vi.spyOn(call, 'end');
    const { user, panel, question } = renderPanel();
    await startCall(user, panel);
    await user.keyboard('{Escape}');
    act(() => vi.advanceTimersByTime(ESCAPE_CONFIRM_MS - 1));
    expect(question()).toHaveTextContent(LINES.confirmEnd);
    act(() => vi.advanceTimersByTime(1));
    expect(question()).toBeEmptyDOMElement();

    await user.keyboard('{Escape}');
    expect(end).not.toHaveBeenCalled();
    expect(question()).toHaveTextContent(LINES.confirmEnd);
  });

  it('brings the question into view when the visitor is elsewhere on the page', async () => {
    const { user, panel } = renderPanel();
    await startCall(user, panel);
    const button = panel.getByRole('button', { name: 'End Call' });
    vi.spyOn(button, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 2000, 100, 40));
    await user.keyboard('{Escape}');
    expect(button.scrollIntoView).toHaveBeenCalledWith(
      expect.objectContaining({ block: 'center' }),
    );
  });

  it('leaves an Escape inside an open share dialog to the dialog: it closes, the call goes on', async () => {
    const end = vi.spyOn(call, 'end');
    const { user, panel, question } = renderPanel();
    await startCall(user, panel);
    // The dialog's chunk, loaded ahead: a slow import under load is not what this tests.
    await act(async () => {
      await loadShareDialog();
    });
    await user.click(screen.getByRole('button', { name: /Share/ }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(question()).toBeEmptyDOMElement();
    await user.keyboard('{Escape}');
    // The dialog's Escape was not the first of two: this one only asks.
    expect(end).not.toHaveBeenCalled();
    expect(question()).toHaveTextContent(LINES.confirmEnd);
  });
});

describe('Escape in the line', () => {
  it('asks before giving up the place; a second Escape leaves the line', async () => {
    const end = vi.spyOn(call, 'end');
    const { user, panel, question } = renderPanel();
    await user.click(panel.getByRole('button', { name: 'Start Talking' }));
    call.emit('line-update', { position: 2, estimatedWaitSeconds: 30 });
    expect(panel.getByRole('status')).toHaveTextContent('Pepa is with other guests.');

    await user.keyboard('{Escape}');
    expect(end).not.toHaveBeenCalled();
    expect(question()).toHaveTextContent(LINES.confirmLeave);
    expect(panel.getByRole('button', { name: 'Leave the line' })).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(end).toHaveBeenCalledTimes(1);
  });

  it('does not carry a question about the line over to the call it became', async () => {
    const end = vi.spyOn(call, 'end');
    const { user, panel, question } = renderPanel();
    await user.click(panel.getByRole('button', { name: 'Start Talking' }));
    call.emit('line-update', { position: 1, estimatedWaitSeconds: 5 });
    await user.keyboard('{Escape}');
    expect(question()).toHaveTextContent(LINES.confirmLeave);

    call.emit('line-update', null);
    call.connect();
    expect(question()).toBeEmptyDOMElement();
    await user.keyboard('{Escape}');
    expect(end).not.toHaveBeenCalled();
    expect(question()).toHaveTextContent(LINES.confirmEnd);
  });
});
