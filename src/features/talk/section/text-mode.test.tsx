import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import mitt, { type Handler } from 'mitt';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GateApiError } from '../../../api/gate-client';
import {
  CallStartError,
  type CallEvents,
  type CallState,
  type ClientMessage,
  type LinePlace,
  type StartOutcome,
  type WebCallRequest,
} from '../../../lib/call';
import { FAILURE_REASONS } from '../recovery/start-failure';
import { PEPA_FIRST_MESSAGE } from '../../../config/pepa-persona';
import { CHAT_CLOSE, CHAT_FIELD_LABEL, CHAT_HEADING, CHAT_LOG_LABEL } from '../text/chat-panel';
import { TURN_MISSED, TURN_OFFER_LABEL, turnHeldText } from '../text/turn-offer';
import type { VoiceCall } from '../voice/use-voice-call';
import { WRITE_TO_PEPA } from '../thread/write-to-pepa';
import { TEXT_WHILE_FULL, TEXT_WHILE_WAITING } from './text-mode';
import { VoiceChat } from './voice-chat';

/** The call object, as far as the section uses it: its start walks the gate's line for real. */
class LineCall implements VoiceCall<{ id: string }> {
  state: CallState = 'idle';
  readonly emitter = mitt<CallEvents>();
  admitted: { id: string } | null = null;
  private pending: ((outcome: StartOutcome<{ id: string }>) => void) | null = null;
  private controller: AbortController | null = null;

  on<K extends keyof CallEvents>(type: K, handler: Handler<CallEvents[K]>): () => void {
    this.emitter.on(type, handler);
    return () => this.emitter.off(type, handler);
  }
  emit<K extends keyof CallEvents>(type: K, payload?: CallEvents[K]): void {
    act(() => this.emitter.emit(type, payload as CallEvents[K]));
  }
  private move(state: CallState): void {
    const previous = this.state;
    this.state = state;
    this.emitter.emit('state-change', { state, previous });
  }
  startWith(request: WebCallRequest<{ id: string }>) {
    this.controller = new AbortController();
    this.move('starting');
    const line = { waiting: (place: LinePlace) => this.emitter.emit('line-update', place) };
    const outcome = new Promise<StartOutcome<{ id: string }>>((resolve) => {
      this.pending = resolve;
    });
    request(this.controller.signal, line).then(
      (call) => {
        this.admitted = call;
        this.emitter.emit('line-update', null);
      },
      (error: GateApiError) => {
        if (this.controller?.signal.aborted) return;
        const callError = error.toCallError();
        this.emitter.emit('call-start-failed', {
          stage: 'web-call-creation',
          error: callError,
          totalDurationMs: 5,
          timestamp: 1,
        });
        this.move('idle');
        this.pending?.({
          status: 'failed',
          error: new CallStartError('web-call-creation', callError),
        });
      },
    );
    return outcome;
  }
  connect(): void {
    this.move('started');
    this.emit('call-start');
    act(() => this.pending?.({ status: 'started', call: { id: 'call-1' } }));
  }
  leave(): void {
    act(() => {
      this.move('ending');
      this.emitter.emit('call-end');
      this.move('idle');
    });
  }
  stop(): Promise<void> {
    if (this.state === 'starting') {
      this.controller?.abort();
      this.move('idle');
      this.pending?.({ status: 'stopped' });
    }
    return Promise.resolve();
  }
  end(): Promise<void> {
    if (this.state === 'started') this.leave();
    else return this.stop();
    return Promise.resolve();
  }
  setMuted(): void {}
  resumeAudio = () => Promise.resolve(true);
  send(_message: ClientMessage): void {}
  setInputDevicesAsync = () => Promise.resolve({});
  setOutputDeviceAsync = () => Promise.resolve({});
}

const CHAT = {
  id: 'chat-0123456789abcdef',
  secret: 'chat-secret-0123456789',
  maxMessageChars: 500,
  turnsLeft: 20,
};
const TICKET = 'ticket-0123456789abcdef';
const waiting = (position: number, offered = false) => ({
  status: 'waiting',
  ticket: {
    id: TICKET,
    secret: 'secret-0123456789abcdef',
    position,
    estimatedWaitSeconds: 40,
    checkInBySeconds: 15,
  },
  retryAfterSeconds: 2,
  ...(offered ? { offered: true } : {}),
});
const ADMITTED = {
  status: 'admitted',
  call: { id: 'call-1', webCallUrl: 'https://pepa.daily.co/r', maxDurationSeconds: 180 },
  callSecret: 'call-secret-0123456789',
  waitedSeconds: 30,
};
/** Pepa's written answer to a message, as the gate streams it. */
const answered = (text: string) =>
  new Response(
    `data: ${JSON.stringify({ type: 'words', text: `Answer to ${text}` })}\n\n` +
      `data: ${JSON.stringify({ type: 'done', turnsLeft: 19, line: 1 })}\n\n`,
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
const problem = (status: number, code: string) =>
  new Response(JSON.stringify({ code, title: code, status }), {
    status,
    headers: { 'content-type': 'application/problem+json', 'retry-after': '60' },
  });

let call: LineCall;
let sent: Request[];
/** The gate's next answers to POST /api/calls and to check-ins, in order. */
let courtAnswers: Response[];

const route = (request: Request) => `${request.method} ${new URL(request.url).pathname}`;

beforeEach(() => {
  vi.useFakeTimers();
  call = new LineCall();
  sent = [];
  courtAnswers = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      sent.push(request);
      const path = route(request);
      if (path === 'POST /api/chats') return json({ chat: CHAT }, 201);
      if (path.startsWith('DELETE /api/chats/')) return new Response(null, { status: 204 });
      if (path === `POST /api/chats/${CHAT.id}/messages`) {
        return answered(((await request.clone().json()) as { text: string }).text);
      }
      return courtAnswers.shift() ?? json(ADMITTED, 201);
    }),
  );
});

afterEach(() => {
  act(() => {
    toast.dismiss();
    vi.runOnlyPendingTimers();
  });
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function flush(ms = 0) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function renderSection(props: { openText?: boolean } = {}) {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  const view = render(<VoiceChat createCall={() => call} {...props} />);
  return { user, ...view };
}

const chatHeading = () => screen.queryByRole('heading', { name: CHAT_HEADING });
const checkIns = () => sent.filter((request) => route(request) === `POST /api/tickets/${TICKET}`);

describe('writing to Pepa beside the voice call', () => {
  it('Write to Pepa opens the chat without a call, starting it with a bot-check token', async () => {
    const { user } = renderSection();
    await user.click(screen.getByRole('button', { name: WRITE_TO_PEPA }));
    await flush();
    expect(chatHeading()).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Ready to chat');
    const starts = sent.filter((request) => route(request) === 'POST /api/chats');
    expect(starts).toHaveLength(1);
    expect(await starts[0]?.clone().json()).toEqual({ botCheckToken: 'XXXX.DUMMY.TOKEN.XXXX' });
    expect(sent.some((request) => route(request) === 'POST /api/calls')).toBe(false);
    expect(screen.queryByRole('button', { name: WRITE_TO_PEPA })).toBeNull();
  });

  it("Write to Pepa, its code fetched as the visitor reached for it, opens within the tap: the focus in the field, Pepa's first line shown", async () => {
    const { user } = renderSection();
    const write = screen.getByRole('button', { name: WRITE_TO_PEPA });
    await user.hover(write);
    await flush();
    // Within the click itself: no timer, no further task.
    act(() => write.click());
    expect(screen.getByRole('textbox', { name: CHAT_FIELD_LABEL })).toHaveFocus();
    expect(screen.getByRole('log', { name: CHAT_LOG_LABEL })).toHaveTextContent(PEPA_FIRST_MESSAGE);
  });

  it('offers text at once when the court is full', async () => {
    courtAnswers.push(problem(503, 'court-full'));
    const { user } = renderSection();
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    await flush();
    expect(screen.getByRole('alert')).toHaveTextContent(FAILURE_REASONS.courtFull);
    expect(screen.getByText(TEXT_WHILE_FULL)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: WRITE_TO_PEPA }));
    await flush();
    expect(screen.getByRole('textbox', { name: CHAT_FIELD_LABEL })).toBeInTheDocument();
  });

  it('while the visitor waits in line, offers text; chatting, the place stays shown and check-ins carry offer and the chat', async () => {
    courtAnswers.push(json(waiting(3), 202), json(waiting(2), 200), json(waiting(1), 200));
    const { user } = renderSection();
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    await flush();
    expect(screen.getByText(TEXT_WHILE_WAITING)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: WRITE_TO_PEPA }));
    await flush();
    expect(chatHeading()).toBeInTheDocument();
    await flush(2000);
    expect(screen.getByText("You're 2nd in line — about 40 s.")).toBeInTheDocument();
    const [first] = checkIns();
    expect(new URL(first?.url ?? '').searchParams.get('offer')).toBe('true');
    expect(first?.headers.get('chat-id')).toBe(CHAT.id);
    expect(first?.headers.get('chat-secret')).toBe(CHAT.secret);
    await flush(2000);
    expect(screen.getByText("You're next — about 40 s.")).toBeInTheDocument();
    expect(checkIns()).toHaveLength(2);
  });

  it('a place offered is held for the tap, counted down; the tap joins, the chat is put away in the call and back after it', async () => {
    courtAnswers.push(json(waiting(1), 202), json(waiting(1, true), 200), json(ADMITTED, 201));
    const { user } = renderSection({ openText: true });
    await flush();
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    await flush(2000);
    const take = screen.getByRole('button', { name: TURN_OFFER_LABEL });
    expect(screen.getByText(turnHeldText(15))).toBeInTheDocument();
    await flush(5000);
    expect(screen.getByText(turnHeldText(10))).toBeInTheDocument();
    // Held: no check-in goes out while the visitor decides.
    expect(checkIns()).toHaveLength(1);
    await user.click(take);
    await flush();
    const tap = checkIns().at(-1);
    expect(checkIns()).toHaveLength(2);
    expect(new URL(tap?.url ?? '').searchParams.get('offer')).toBeNull();
    expect(tap?.headers.get('chat-id')).toBe(CHAT.id);
    expect(call.admitted).toEqual(ADMITTED.call);
    call.connect();
    expect(chatHeading()).toBeNull();
    call.leave();
    await flush();
    expect(chatHeading()).toBeInTheDocument();
    // The chat was not ended by the call.
    expect(sent.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('after a handover the captions hold the typed turns above the spoken ones, each marked; after the call the chat holds the one thread', async () => {
    courtAnswers.push(json(waiting(1), 202), json(waiting(1, true), 200), json(ADMITTED, 201));
    const { user } = renderSection({ openText: true });
    await flush();
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    await flush();
    await user.type(screen.getByRole('textbox', { name: CHAT_FIELD_LABEL }), 'Who rules the pond?');
    await user.keyboard('{Enter}');
    await flush(2000);
    await user.click(screen.getByRole('button', { name: TURN_OFFER_LABEL }));
    await flush();
    call.connect();
    const spoken = (role: 'user' | 'assistant', transcript: string) =>
      call.emit('message', { type: 'transcript', role, transcriptType: 'final', transcript });
    spoken('assistant', 'Carrying on from our chat: the pond is mine.');
    spoken('user', 'And the lilies?');
    const lines = (container: HTMLElement) =>
      [...container.querySelectorAll('[data-thread-line]')].map(
        (line) =>
          `${line.querySelector('[data-via]')?.getAttribute('aria-label')} ${line.textContent}`,
      );
    const thread = [
      `typed Pepa: ${PEPA_FIRST_MESSAGE}`,
      'typed You: Who rules the pond?',
      'typed Pepa: Answer to Who rules the pond?',
      'spoken Pepa: Carrying on from our chat: the pond is mine.',
      'spoken You: And the lilies?',
    ];
    expect(lines(screen.getByRole('log', { name: 'Captions' }))).toEqual(thread);
    call.leave();
    await flush();
    // One transcript after the call: the chat's, which holds the call's lines where they came.
    expect(screen.queryByRole('region', { name: 'Transcript' })).toBeNull();
    expect(lines(screen.getByRole('log', { name: CHAT_LOG_LABEL }))).toEqual(thread);
  });

  it('a place not taken in time goes: the visitor is told and keeps chatting', async () => {
    courtAnswers.push(
      json(waiting(1), 202),
      json(waiting(1, true), 200),
      problem(404, 'ticket-gone'),
    );
    const { user } = renderSection({ openText: true });
    await flush();
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    await flush(2000);
    expect(screen.getByRole('button', { name: TURN_OFFER_LABEL })).toBeInTheDocument();
    await flush(15_000);
    expect(screen.queryByRole('button', { name: TURN_OFFER_LABEL })).toBeNull();
    expect(new URL(checkIns().at(-1)?.url ?? '').searchParams.get('offer')).toBe('true');
    expect(screen.getByText(TURN_MISSED)).toBeInTheDocument();
    expect(screen.queryByText(FAILURE_REASONS.lineLost)).toBeNull();
    expect(screen.getByRole('textbox', { name: CHAT_FIELD_LABEL })).toBeInTheDocument();
  });

  it('Escape in the chat, on its buttons too, never leaves the line', async () => {
    courtAnswers.push(json(waiting(3), 202));
    const { user } = renderSection({ openText: true });
    await flush();
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    await flush();
    screen.getByRole('button', { name: CHAT_CLOSE }).focus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Leave the line' })).toBeInTheDocument();
    expect(
      sent.some((request) => request.method === 'DELETE' && route(request).includes('tickets')),
    ).toBe(false);
  });

  it('a call started while chatting carries the chat to the gate', async () => {
    const { user } = renderSection({ openText: true });
    await flush();
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    await flush();
    const ask = sent.find((request) => route(request) === 'POST /api/calls');
    expect(ask?.headers.get('chat-id')).toBe(CHAT.id);
    expect(ask?.headers.get('chat-secret')).toBe(CHAT.secret);
  });

  it('ending the chat, or the section going away, tells the gate once', async () => {
    const { user, unmount } = renderSection({ openText: true });
    await flush();
    await user.click(screen.getByRole('button', { name: CHAT_CLOSE }));
    await flush();
    const ends = () => sent.filter((request) => route(request) === `DELETE /api/chats/${CHAT.id}`);
    expect(ends()).toHaveLength(1);
    expect(ends()[0]?.headers.get('chat-secret')).toBe(CHAT.secret);
    expect(chatHeading()).toBeNull();
    await user.click(screen.getByRole('button', { name: WRITE_TO_PEPA }));
    await flush();
    unmount();
    await flush();
    expect(ends()).toHaveLength(2);
  });
});
