// The voice chat's component tests share this: a stand-in call object the test drives, the gate's
// answers, and a fresh world before each test (fake timers, no toast or stub left after it).
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import mitt, { type Handler } from 'mitt';
import { toast } from 'sonner';
import { afterEach, beforeEach, vi } from 'vitest';
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
import type { VoiceCall } from '../voice/use-voice-call';
import { VoiceChat } from '../section/voice-chat';

/** How long sonner shows a toast (its default), before the next in the lane may show. */
export const TOAST_SHOWN_MS = 4000;

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Stands in for the call object: only what the section calls, driven by the test. */
export class FakeCall implements VoiceCall<{ id: string }> {
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

export let call: FakeCall;

export const ADMITTED = {
  status: 'admitted',
  call: { id: 'call-1', webCallUrl: 'https://pepa.daily.co/r', maxDurationSeconds: 180 },
  waitedSeconds: 0,
};
export const waiting = (position: number, estimatedWaitSeconds: number) => ({
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
export const jsonAnswer = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Every request the page sent, answered as the gate answers them (admitted at once). */
export let sent: Request[] = [];
/** What the gate answers next, in order; admitted at once when empty. */
export let answers: Response[] = [];
const providerFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  sent.push(request);
  return answers.shift() ?? jsonAnswer(ADMITTED, 201);
};

export function renderChat(props: { pressedAt?: number } = {}) {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  const view = render(<VoiceChat createCall={() => call} {...props} />);
  return { user, ...view };
}

export const status = () => screen.getByRole('status');
export const mainButton = (name: 'Start Talking' | 'End Call') =>
  screen.getByRole('button', { name });

export async function flush() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

/**
 * A fresh world for each test of the file that calls it (a file's own hooks: test files may share
 * this module's state in one worker).
 */
export function freshVoiceChatWorld(): void {
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
}
