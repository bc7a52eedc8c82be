import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import mitt, { type Handler } from 'mitt';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CallStartError,
  type CallEvents,
  type CallState,
  type ClientMessage,
  type LinePlace,
  type WebCallRequest,
  type DailyLikeInputDevices,
  type StartOutcome,
  type StartWithOptions,
} from '../../../lib/call';
import { QUIET_MIC_HINT_MS, SLOW_START_HINT_MS } from '../controls/call-controls';
import { LIMIT_WARNING } from '../controls/call-meters';
import { MICROPHONE_LABEL } from '../controls/device-picker';
import {
  COPY_TRANSCRIPT,
  DOWNLOAD_TRANSCRIPT,
  TRANSCRIPT_COPIED,
  TRANSCRIPT_COPY_REFUSED,
} from '../controls/transcript-panel';
import { SEND_LABEL, TYPE_LABEL } from '../thread/type-to-pepa';
import { DOUBLE_TAP_MS } from './talk-panel';
import type { VoiceCall } from '../voice/use-voice-call';
import { FAILURE_REASONS } from '../recovery/start-failure';
import { TOASTS, VoiceChat } from './voice-chat';
import { CUE_TEXT, QUESTIONS } from '../status/talk-lines';

/** How long sonner shows a toast (its default), before the next in the lane may show. */
const TOAST_SHOWN_MS = 4000;

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}
function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Stands in for the call object: only what the section calls, driven by the test. */
class FakeCall implements VoiceCall<{ id: string }> {
  state: CallState = 'idle';
  readonly emitter = mitt<CallEvents>();
  readonly starts: string[] = [];
  readonly muted: boolean[] = [];
  readonly sentMessages: ClientMessage[] = [];
  readonly inputDevices: DailyLikeInputDevices[] = [];
  ends = 0;
  stops = 0;
  pending: Deferred<StartOutcome<{ id: string }>> | null = null;
  /** The signal the current start gave its web-call request. */
  signal: AbortSignal | null = null;
  /** What the start's request resolved with: the call the gate admitted. */
  admitted: { id: string } | null = null;
  private controller: AbortController | null = null;

  on<K extends keyof CallEvents>(type: K, handler: Handler<CallEvents[K]>): () => void {
    this.emitter.on(type, handler);
    return () => this.emitter.off(type, handler);
  }
  emit<K extends keyof CallEvents>(type: K, payload?: CallEvents[K]): void {
    act(() => this.emitter.emit(type, payload as CallEvents[K]));
  }
  setState(state: CallState): void {
    const previous = this.state;
    this.state = state;
    this.emit('state-change', { state, previous });
  }
  startWith(
    request: WebCallRequest<{ id: string }>,
    _options: Pick<StartWithOptions, 'unjoined'> = {},
  ) {
    this.starts.push('start');
    this.pending = deferred();
    this.controller = new AbortController();
    this.signal = this.controller.signal;
    this.setStateQuietly('starting');
    // Like the call object: the request runs once, inside the start.
    const line = { waiting: (place: LinePlace) => this.emit('line-update', place) };
    request(this.controller.signal, line)
      .then((webCall) => {
        this.admitted = webCall;
        // Like the call object: out of the line, the start goes on to the room.
        this.emit('line-update', null);
      })
      .catch(() => undefined);
    return this.pending.promise;
  }
  /** The call object changes state synchronously inside start(). */
  private setStateQuietly(state: CallState): void {
    const previous = this.state;
    this.state = state;
    this.emitter.emit('state-change', { state, previous });
  }
  connect(): void {
    this.setState('started');
    this.emit('call-start');
    act(() => this.pending?.resolve({ status: 'started', call: { id: 'call-1' } }));
  }
  failStart(error: CallEvents['error']): void {
    this.emit('error', error);
    this.emit('call-start-failed', { stage: 'join', error, totalDurationMs: 5, timestamp: 1 });
    this.setState('ending');
    this.setState('idle');
    act(() =>
      this.pending?.resolve({ status: 'failed', error: new CallStartError('join', error) }),
    );
  }
  leave(): void {
    this.setState('ending');
    this.emit('call-end');
    this.setState('idle');
  }
  stop(): Promise<void> {
    this.stops += 1;
    if (this.state === 'starting') {
      this.setStateQuietly('ending');
      this.setStateQuietly('idle');
      this.controller?.abort();
      this.pending?.resolve({ status: 'stopped' });
    }
    return Promise.resolve();
  }
  end(): Promise<void> {
    this.ends += 1;
    if (this.state === 'started') this.leave();
    else return this.stop();
    return Promise.resolve();
  }
  setMuted(muted: boolean): void {
    this.muted.push(muted);
  }
  resumeAudio = vi.fn(() => Promise.resolve(true));
  send(message: ClientMessage): void {
    if (this.state !== 'started') throw new Error('No call object');
    this.sentMessages.push(message);
  }
  setInputDevicesAsync(devices: DailyLikeInputDevices): Promise<unknown> {
    this.inputDevices.push(devices);
    return Promise.resolve({});
  }
  setOutputDeviceAsync = vi.fn(() => Promise.resolve({}));
  listenerCount(): number {
    let count = 0;
    for (const handlers of this.emitter.all.values()) count += handlers.length;
    return count;
  }
}

let call: FakeCall;

const ADMITTED = {
  status: 'admitted',
  call: { id: 'call-1', webCallUrl: 'https://pepa.daily.co/r', maxDurationSeconds: 180 },
  waitedSeconds: 0,
};
const waiting = (position: number, estimatedWaitSeconds: number) => ({
  status: 'waiting',
  ticket: {
    id: 'ticket-0123456789abcdef',
    secret: 'secret-0123456789abcdef',
    position,
    estimatedWaitSeconds,
    checkInBySeconds: 12,
  },
  retryAfterSeconds: 2,
});
const jsonAnswer = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Every request the page sent, answered as the gate answers them (admitted at once). */
let sent: Request[] = [];
/** What the gate answers next, in order; admitted at once when empty. */
let answers: Response[] = [];
const providerFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  sent.push(request);
  return answers.shift() ?? jsonAnswer(ADMITTED, 201);
};

function renderChat(props: { pressedAt?: number } = {}) {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  const view = render(<VoiceChat createCall={() => call} {...props} />);
  return { user, ...view };
}

const status = () => screen.getByRole('status');
const mainButton = (name: 'Start Talking' | 'End Call') => screen.getByRole('button', { name });

async function flush() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  call = new FakeCall();
  sent = [];
  answers = [];
  vi.stubGlobal('fetch', vi.fn(providerFetch));
});

afterEach(() => {
  // Toasts live in the toast library's module state: clear them so none reaches the next test.
  act(() => {
    toast.dismiss();
    vi.runOnlyPendingTimers();
  });
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('VoiceChat', () => {
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
    answers = [jsonAnswer(waiting(12, 40), 202), jsonAnswer(waiting(2, 10), 200)];
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
    answers = [jsonAnswer(waiting(5, 30), 202)];
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

  it('says what each side is saying as it forms, then the finished line', async () => {
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

  it("sends a typed line with add-message and shows it as the visitor's", async () => {
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

  it('keeps the whole transcript after the call, to copy or download, until the next call', async () => {
    const createObjectURL = vi.fn(() => 'blob:transcript');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const { user } = renderChat();
    // user-event installs its own clipboard; watch what the page writes to it.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('message', {
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'Ribbit! Welcome.',
    });
    call.emit('message', {
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: 'Hello Pepa!',
    });
    call.leave();
    const transcript = screen.getByRole('region', { name: 'Transcript' });
    expect(
      within(transcript)
        .getAllByRole('paragraph')
        .map((p) => p.textContent),
    ).toEqual(['Pepa: Ribbit! Welcome.', 'You: Hello Pepa!']);

    await user.click(screen.getByRole('button', { name: COPY_TRANSCRIPT }));
    expect(writeText).toHaveBeenCalledWith('Pepa: Ribbit! Welcome.\nYou: Hello Pepa!');
    await act(async () => undefined);
    expect(screen.getByText(TRANSCRIPT_COPIED)).toBeInTheDocument();

    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: DOWNLOAD_TRANSCRIPT }));
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    act(() => vi.runOnlyPendingTimers());
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:transcript');
    clicked.mockRestore();

    await user.click(mainButton('Start Talking'));
    expect(screen.queryByRole('region', { name: 'Transcript' })).not.toBeInTheDocument();
  });

  it('selects the transcript for the visitor when the browser refuses the clipboard', async () => {
    const { user } = renderChat();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('message', {
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: 'Hello Pepa!',
    });
    call.leave();
    await user.click(screen.getByRole('button', { name: COPY_TRANSCRIPT }));
    expect(await screen.findByText(TRANSCRIPT_COPY_REFUSED)).toBeInTheDocument();
    expect(window.getSelection()?.toString()).toContain('Hello Pepa!');
  });

  it('after a refused microphone, offers no call without it: the way to talk meanwhile is the text chat', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.failStart({ type: 'microphone-permission-denied', message: 'Permission denied' });
    expect(await screen.findByRole('note')).toHaveTextContent(/microphone is blocked/);
    expect(screen.queryByRole('button', { name: /instead/i })).not.toBeInTheDocument();
    expect(call.starts).toEqual(['start']);
  });

  it('with no microphone at all, says so without blaming permissions', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.failStart({ type: 'microphone-missing', message: 'Requested device not found' });
    expect(await screen.findByText(FAILURE_REASONS.noMicrophone)).toBeInTheDocument();
    expect(screen.queryByText(TOASTS.startFailed.description)).not.toBeInTheDocument();
    expect(screen.queryByText(/microphone is blocked/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /instead/i })).not.toBeInTheDocument();
  });

  it('lets the visitor pick a microphone, and follows a device that goes away', async () => {
    const devices = [
      { kind: 'audioinput', deviceId: 'default', label: 'Default microphone', groupId: 'a' },
      { kind: 'audioinput', deviceId: 'headset', label: 'Headset', groupId: 'b' },
    ];
    const media = new EventTarget();
    vi.stubGlobal('navigator', {
      ...navigator,
      mediaDevices: Object.assign(media, {
        enumerateDevices: () => Promise.resolve(devices.slice()),
      }),
    });
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    const picker = await screen.findByRole('combobox', { name: MICROPHONE_LABEL });
    await user.selectOptions(picker, 'headset');
    expect(call.inputDevices).toEqual([{ audioDeviceId: 'headset' }]);
    // The headset is unplugged: back to the default microphone.
    devices.pop();
    devices.push({ kind: 'audioinput', deviceId: 'usb', label: 'USB mic', groupId: 'c' });
    await act(async () => {
      media.dispatchEvent(new Event('devicechange'));
    });
    expect(call.inputDevices).toEqual([{ audioDeviceId: 'headset' }, { audioDeviceId: 'default' }]);
    expect(screen.getByRole('combobox', { name: MICROPHONE_LABEL })).toHaveValue('default');
  });

  it("says it can't hear the visitor after a quiet spell, and stops saying it once they speak", async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    act(() => vi.advanceTimersByTime(QUIET_MIC_HINT_MS - 100));
    expect(screen.queryByText(/can't hear you/)).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.getByText(/We can't hear you/)).toBeInTheDocument();
    call.emit('local-volume-level', { volume: 0.4 });
    expect(screen.queryByText(/can't hear you/)).not.toBeInTheDocument();
  });

  it('offers a tap to hear Pepa when the browser blocks her audio', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('error', {
      type: 'audio-playback-blocked',
      participantId: 'pepa',
      message: 'NotAllowedError',
    });
    expect(screen.queryByText(TOASTS.error.title)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Tap to hear Pepa' }));
    expect(call.resumeAudio).toHaveBeenCalledTimes(1);
    call.emit('audio-playback-resumed');
    expect(screen.queryByRole('button', { name: 'Tap to hear Pepa' })).not.toBeInTheDocument();
  });

  it('ends the call on a second Escape and when the page is left, but not when it is hidden', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    await user.keyboard('{Escape}');
    expect(call.ends).toBe(0);
    expect(screen.getByText(QUESTIONS.end)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(call.ends).toBe(1);

    vi.advanceTimersByTime(500);
    await user.click(mainButton('Start Talking'));
    call.connect();
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(call.ends).toBe(1);
    expect(status()).toHaveTextContent('Listening...');
    visibility.mockRestore();

    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(call.ends).toBe(2);
    expect(status()).toHaveTextContent('Ready to chat');
  });

  it("shows one 'Connected' and one 'Call ended' per call, however often the call reports them", async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('call-start');
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(mainButton('End Call'));
    call.emit('call-end');
    expect(await screen.findAllByText(TOASTS.ended.title)).toHaveLength(1);
    expect(screen.queryAllByText(TOASTS.connected.title).length).toBeLessThanOrEqual(1);
    // The next call has toasts of its own.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(TOAST_SHOWN_MS);
    });
    await user.click(mainButton('Start Talking'));
    call.connect();
    expect(await screen.findByText(TOASTS.connected.title)).toBeInTheDocument();
  });

  it('asks before leaving the line, politely, and a second Escape leaves it', async () => {
    answers = [jsonAnswer(waiting(5, 30), 202)];
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    await flush();
    await user.keyboard('{Escape}');
    const question = screen.getByText(QUESTIONS.leave);
    expect(question).toHaveAttribute('aria-live', 'polite');
    expect(call.signal?.aborted).toBe(false);
    await user.keyboard('{Escape}');
    expect(call.signal?.aborted).toBe(true);
    expect(status()).toHaveTextContent('Ready to chat');
  });

  it("says the question in the hint's place for 5 s, then the hint again, the call going on", async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    await user.keyboard('{Escape}');
    expect(screen.getByText(QUESTIONS.end)).toBeInTheDocument();
    expect(screen.queryByText('Speak naturally, Pepa is all ears')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByText(QUESTIONS.end)).not.toBeInTheDocument();
    expect(screen.getByText('Speak naturally, Pepa is all ears')).toBeInTheDocument();
    expect(call.ends).toBe(0);
    expect(status()).toHaveTextContent('Listening...');
  });

  it('muted, says so in the hint and never that Pepa hears the visitor', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    expect(screen.getByTestId('turn-cue')).toHaveTextContent(CUE_TEXT.hears);
    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(screen.getByText("Muted: Pepa can't hear you")).toBeInTheDocument();
    expect(screen.queryByText(/Pepa hears you/)).not.toBeInTheDocument();
    expect(screen.queryByText('Speak naturally, Pepa is all ears')).not.toBeInTheDocument();
  });

  it("after a call keeps the call's room, so what it left takes the controls' place", async () => {
    const { user, container } = renderChat();
    expect(container.querySelector('[data-call-room]')).toBeNull();
    await user.click(mainButton('Start Talking'));
    await flush();
    call.connect();
    expect(container.querySelector('[data-call-room]')).not.toBeNull();
    call.emit('message', {
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'Ribbit.',
    });
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(mainButton('End Call'));
    expect(status()).toHaveTextContent('Ready to chat');
    expect(screen.getByRole('region', { name: 'Transcript' })).toBeInTheDocument();
    expect(container.querySelector('[data-call-room]')).not.toBeNull();
  });

  it('ends a call still getting ready when the page is left, so the provider hears it end', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    expect(call.state).toBe('starting');
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(call.ends).toBe(1);
  });

  it('does not end the call for an Escape that something else handled', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    const handled = (event: KeyboardEvent) => event.preventDefault();
    document.addEventListener('keydown', handled, true);
    await user.keyboard('{Escape}');
    document.removeEventListener('keydown', handled, true);
    expect(call.ends).toBe(0);
    expect(status()).toHaveTextContent('Listening...');
  });

  it('stops the call and leaves no timer or listener behind when the section goes away', async () => {
    const { user, unmount } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    await flush();
    unmount();
    expect(call.stops).toBeGreaterThanOrEqual(1);
    expect(call.listenerCount()).toBe(0);
    vi.runOnlyPendingTimers();
    vi.clearAllTimers();
    expect(vi.getTimerCount()).toBe(0);
  });
});
