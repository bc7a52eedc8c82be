import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SLOW_START_HINT_MS } from '../controls/call-controls';
import { LIMIT_WARNING } from '../controls/call-meters';
import { SEND_LABEL, TYPE_LABEL } from '../thread/type-to-pepa';
import { DOUBLE_TAP_MS } from './talk-panel';
import { FAILURE_REASONS } from '../recovery/start-failure';
import { TOASTS } from './call-view';
import {
  TOAST_SHOWN_MS,
  call,
  ADMITTED,
  waiting,
  jsonAnswer,
  sent,
  answers,
  renderChat,
  status,
  mainButton,
  flush,
  freshCallViewWorld,
} from '../test/call-view-kit';

freshCallViewWorld();

describe('CallView', () => {
  it('asks the court gate for the call with one POST /api/calls through its generated mutation, with no key, and aborts it when stopped', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    await flush();
    expect(sent.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /api/calls',
    ]);
    const [request] = sent;
    expect(request?.headers.get('authorization')).toBeNull();
    // The demo's bot check is Cloudflare's documented dummy token; the gate holds the assistant.
    expect(await request?.clone().json()).toEqual({ botCheckToken: 'XXXX.DUMMY.TOKEN.XXXX' });
    expect(call.admitted).toEqual(ADMITTED.call);
    expect(call.signal?.aborted).toBe(false);

    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(mainButton('End Call'));
    expect(call.signal?.aborted).toBe(true);
    expect(sent).toHaveLength(1);
  });

  it('shows the line while Pepa is with other guests, checks in as asked, and joins once admitted', async () => {
    answers.push(jsonAnswer(waiting(12, 40), 202), jsonAnswer(waiting(2, 10), 200));
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    await flush();
    expect(status()).toHaveTextContent('Pepa is with other guests.');
    expect(screen.getByText("You're 12th in line — about 40 s.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Leave the line' })).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(screen.getByText("You're 2nd in line — about 10 s.")).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(sent.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /api/calls',
      'POST /api/tickets/ticket-0123456789abcdef',
      'POST /api/tickets/ticket-0123456789abcdef',
    ]);
    // The ticket's secret proves it in a header, never in the path.
    expect(sent.slice(1).map((request) => request.headers.get('ticket-secret'))).toEqual([
      'secret-0123456789abcdef',
      'secret-0123456789abcdef',
    ]);
    expect(call.admitted).toEqual(ADMITTED.call);
    expect(status()).toHaveTextContent('Connecting to Pepa...');
    call.connect();
    expect(status()).toHaveTextContent('Listening...');
  });

  it('gives the place up when the visitor leaves the line', async () => {
    answers.push(jsonAnswer(waiting(5, 30), 202));
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    await flush();
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(screen.getByRole('button', { name: 'Leave the line' }));
    await flush();
    expect(call.signal?.aborted).toBe(true);
    expect(sent.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
      'POST /api/calls',
      'DELETE /api/tickets/ticket-0123456789abcdef',
    ]);
    expect(sent[1]?.headers.get('ticket-secret')).toBe('secret-0123456789abcdef');
  });

  it('shows each status, hint and toast of a whole call in order', async () => {
    const { user, unmount } = renderChat();
    expect(status()).toHaveTextContent('Ready to chat');
    expect(screen.getByText('Click the button below to start talking')).toBeInTheDocument();

    await user.click(mainButton('Start Talking'));
    expect(call.starts).toHaveLength(1);
    expect(status()).toHaveTextContent('Connecting to Pepa...');
    expect(mainButton('End Call')).toBeInTheDocument();

    call.connect();
    expect(status()).toHaveTextContent('Listening...');
    expect(screen.getByText('Speak naturally, Pepa is all ears')).toBeInTheDocument();
    expect(await screen.findByText(TOASTS.connected.title)).toBeInTheDocument();
    expect(screen.getByText(TOASTS.connected.description)).toBeInTheDocument();

    call.emit('speech-start');
    expect(status()).toHaveTextContent('Pepa is speaking...');
    expect(screen.queryByText('Speak naturally, Pepa is all ears')).not.toBeInTheDocument();
    call.emit('speech-end');
    expect(status()).toHaveTextContent('Listening...');

    call.emit('speech-start');
    // A real visitor's second press comes well after the first (closer ones are a double tap).
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(mainButton('End Call'));
    expect(call.ends).toBe(1);
    expect(status()).toHaveTextContent('Ready to chat');
    expect(mainButton('Start Talking')).toBeInTheDocument();
    expect(await screen.findByText(TOASTS.ended.title)).toBeInTheDocument();
    expect(screen.getByText(TOASTS.ended.description)).toBeInTheDocument();

    unmount();
    expect(call.listenerCount()).toBe(0);
  });

  it('starts right away when the visitor pressed the button before the chat loaded', async () => {
    renderChat({ pressedAt: performance.now() });
    expect(status()).toHaveTextContent('Connecting to Pepa...');
    await flush();
    expect(call.starts).toHaveLength(1);
    expect(mainButton('End Call')).toHaveFocus();
  });

  it('makes one request for a double tap', async () => {
    const { user } = renderChat();
    await user.dblClick(mainButton('Start Talking'));
    expect(call.starts).toHaveLength(1);
    expect(call.ends).toBe(0);
    expect(status()).toHaveTextContent('Connecting to Pepa...');
  });

  it('cancels a start in flight with End Call and says nothing went wrong', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    vi.advanceTimersByTime(500);
    await user.click(mainButton('End Call'));
    await flush();
    expect(call.ends).toBe(1);
    expect(status()).toHaveTextContent('Ready to chat');
    expect(screen.queryByText(TOASTS.startFailed.title)).not.toBeInTheDocument();
  });

  it('reports a failed start with the spec toast and guidance when the microphone is blocked', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.failStart({ type: 'microphone-permission-denied', message: 'Permission denied' });
    await flush();
    expect(await screen.findByText(TOASTS.startFailed.title)).toBeInTheDocument();
    expect(screen.getByText(TOASTS.startFailed.description)).toBeInTheDocument();
    expect(screen.queryByText(TOASTS.error.title)).not.toBeInTheDocument();
    expect(status()).toHaveTextContent('Ready to chat');
    expect(screen.getByRole('note')).toHaveTextContent(/microphone is blocked/);
  });

  it('says in the panel that the provider refused the key, without blaming the microphone', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.failStart({
      type: 'web-call-creation-error',
      kind: 'http',
      status: 401,
      message: 'HTTP 401',
    });
    await flush();
    expect(screen.getByRole('alert')).toHaveTextContent(FAILURE_REASONS.keyRefused);
    expect(screen.queryByText(TOASTS.startFailed.description)).not.toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it("honours the provider's Retry-After: Start rests and counts down, then works", async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.failStart({
      type: 'web-call-creation-error',
      kind: 'http',
      status: 429,
      retryAfterMs: 7000,
      message: 'HTTP 429',
    });
    await flush();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Pepa is busy right now. Try again in 7 s.',
    );
    expect(mainButton('Start Talking')).toHaveAttribute('aria-disabled', 'true');
    await user.click(mainButton('Start Talking'));
    expect(call.starts).toHaveLength(1);

    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByRole('alert')).toHaveTextContent('Try again in 4 s.');
    act(() => vi.advanceTimersByTime(4000));
    expect(mainButton('Start Talking')).not.toHaveAttribute('aria-disabled');
    await user.click(mainButton('Start Talking'));
    expect(call.starts).toHaveLength(2);
  });

  it('backs off after repeated failures, so pressing again and again makes no flood of calls', async () => {
    const { user } = renderChat();
    const fail = () =>
      call.failStart({ type: 'web-call-creation-error', kind: 'http', status: 500, message: 'x' });
    await user.click(mainButton('Start Talking'));
    fail();
    await flush();
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(mainButton('Start Talking'));
    fail();
    await flush();
    // The second failure in a row: Start waits before the third try.
    expect(mainButton('Start Talking')).toHaveAttribute('aria-disabled', 'true');
    for (let press = 0; press < 3; press += 1) {
      act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
      await user.click(mainButton('Start Talking'));
    }
    expect(call.starts).toHaveLength(2);
    act(() => vi.advanceTimersByTime(2000 - 3 * DOUBLE_TAP_MS));
    await user.click(mainButton('Start Talking'));
    expect(call.starts).toHaveLength(3);
  });

  it('shows the destructive error toast for an error during a call', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    act(() => vi.advanceTimersByTime(TOAST_SHOWN_MS));
    call.emit('error', { type: 'daily-error', dailyErrorType: 'ejected', message: 'Ejected' });
    call.leave();
    expect(await screen.findByText(TOASTS.error.title)).toBeInTheDocument();
    expect(screen.getByText(TOASTS.error.description)).toBeInTheDocument();
    expect(status()).toHaveTextContent('Ready to chat');
    // One toast at a time in the lane: 'Call ended' follows once the error has been read.
    expect(screen.queryByText(TOASTS.ended.title)).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(TOAST_SHOWN_MS);
    });
    expect(screen.getByText(TOASTS.ended.title)).toBeInTheDocument();
  });

  it('shows final transcripts of both sides as captions', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('message', {
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'Welcome to my court.',
    });
    call.emit('message', {
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: 'Hello Pepa!',
    });
    const captions = screen.getByRole('log', { name: 'Captions' });
    expect(captions).toHaveAttribute('aria-live', 'polite');
    expect(
      within(captions)
        .getAllByRole('paragraph')
        .map((p) => p.textContent),
    ).toEqual(['Pepa: Welcome to my court.', 'You: Hello Pepa!']);
  });

  it('mutes and unmutes the microphone with a pressed toggle', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    const mute = screen.getByRole('button', { name: 'Mute' });
    expect(mute).toHaveAttribute('aria-pressed', 'false');
    await user.click(mute);
    expect(screen.getByRole('button', { name: 'Unmute' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(call.muted).toEqual([true, false]);
  });

  it("says beside the status that Pepa can't hear a muted visitor", async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    expect(screen.queryByText("Muted: Pepa can't hear you")).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(screen.getByText("Muted: Pepa can't hear you")).toBeInTheDocument();
    expect(status()).toHaveTextContent('Listening...');
    await user.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(screen.queryByText("Muted: Pepa can't hear you")).not.toBeInTheDocument();
  });

  it('keeps the focus on the main button while the call ends', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    const button = mainButton('End Call');
    button.focus();
    call.setState('ending');
    // Resting, not disabled: a disabled button would drop the focus to the page.
    expect(button).not.toBeDisabled();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    await user.click(button);
    expect(call.ends).toBe(0);
    call.setState('idle');
    expect(mainButton('Start Talking')).toHaveFocus();
  });

  it('says after 8 s of connecting that Pepa is slow, and End Call still cancels', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    act(() => vi.advanceTimersByTime(SLOW_START_HINT_MS - 1));
    expect(screen.queryByText(/taking longer than usual/)).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('note')).toHaveTextContent(
      'Pepa is taking longer than usual to answer. Keep waiting, or press End Call to cancel.',
    );
    await user.click(mainButton('End Call'));
    expect(status()).toHaveTextContent('Ready to chat');
    expect(screen.queryByText(/taking longer than usual/)).not.toBeInTheDocument();
  });

  it('shows the time left of the call limit, and warns gently in the last 30 s', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    expect(screen.getByText('03:00')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(65_000));
    expect(screen.getByText('01:55')).toBeInTheDocument();
    expect(screen.queryByText(LIMIT_WARNING)).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(85_000));
    expect(screen.getByText('00:30')).toBeInTheDocument();
    expect(screen.getByText(LIMIT_WARNING)).toBeInTheDocument();
  });

  it('says how good the connection is as the room reports it', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    expect(screen.getByRole('img', { name: 'Connection: checking' })).toBeInTheDocument();
    call.emit('network-quality-change', { state: 'warning', reasons: ['sendPacketLoss'] });
    expect(screen.getByRole('img', { name: 'Connection: weak' })).toBeInTheDocument();
    call.emit('network-quality-change', { state: 'good', reasons: [] });
    expect(screen.getByRole('img', { name: 'Connection: good' })).toBeInTheDocument();
  });

  it('says what each side is saying as it forms, then the finished entry', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('message', {
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'partial',
      transcript: 'Ribbit! Wel',
    });
    expect(screen.getByTestId('partial-caption')).toHaveTextContent('Pepa: Ribbit! Wel…');
    call.emit('message', {
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'Ribbit! Welcome.',
    });
    expect(screen.queryByTestId('partial-caption')).not.toBeInTheDocument();
    const captions = screen.getByRole('log', { name: 'Captions' });
    expect(within(captions).getByText('Ribbit! Welcome.')).toBeInTheDocument();
  });

  it("sends a typed message with add-message and shows it as the visitor's", async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    const field = screen.getByRole('textbox', { name: TYPE_LABEL });
    const send = screen.getByRole('button', { name: SEND_LABEL });
    // Nothing to send yet: Send rests, but keeps its place in the keyboard order.
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.type(field, '  Should I buy? {Enter}');
    expect(call.sentMessages).toEqual([
      {
        type: 'add-message',
        message: { role: 'user', content: 'Should I buy?' },
        triggerResponseEnabled: true,
      },
    ]);
    expect(field).toHaveValue('');
    const captions = screen.getByRole('log', { name: 'Captions' });
    expect(within(captions).getByText('Should I buy?')).toBeInTheDocument();
  });
});
