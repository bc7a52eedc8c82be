import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FAILURE_REASONS } from '../recovery/start-failure';
import { RATING_QUESTION } from '../controls/call-rating';
import { PEPA_FIRST_MESSAGE } from '../../../config/pepa-persona';
import { CHAT_CLOSE, CHAT_FIELD_LABEL, CHAT_HEADING, CHAT_LOG_LABEL } from '../text/chat-panel';
import { TURN_MISSED, TURN_OFFER_LABEL, turnHeldText } from '../text/turn-offer';
import { FakeVoiceCall } from '../test/fake-voice-call';
import {
  flush,
  freshSectionWorld,
  jsonAnswer,
  renderSection,
  stubGate,
} from '../test/section-world';
import { WRITE_TO_PEPA } from '../thread/write-to-pepa';
import { TEXT_WHILE_FULL, TEXT_WHILE_WAITING } from './text-mode';

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
      `data: ${JSON.stringify({ type: 'done', turnsLeft: 19, remark: 1 })}\n\n`,
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
const problem = (status: number, code: string) =>
  new Response(JSON.stringify({ code, title: code, status }), {
    status,
    headers: { 'content-type': 'application/problem+json', 'retry-after': '60' },
  });

let call: FakeVoiceCall;
let sent: Request[];
/** The gate's next answers to POST /api/calls and to check-ins, in order. */
let courtAnswers: Response[];

const route = (request: Request) => `${request.method} ${new URL(request.url).pathname}`;

// A start walks the gate's line for real, and fails as the call object's does when refused.
freshSectionWorld(() => {
  call = new FakeVoiceCall({ failOnRefusedRequest: true });
  courtAnswers = [];
  sent = stubGate(async (request) => {
    const path = route(request);
    if (path === 'POST /api/chats') return jsonAnswer({ chat: CHAT }, 201);
    if (path.startsWith('DELETE /api/chats/')) return new Response(null, { status: 204 });
    if (path === `POST /api/chats/${CHAT.id}/messages`) {
      return answered(((await request.clone().json()) as { text: string }).text);
    }
    return courtAnswers.shift() ?? jsonAnswer(ADMITTED, 201);
  });
});

const renderText = (props: { openText?: boolean } = {}) => renderSection(call, props);

const chatHeading = () => screen.queryByRole('heading', { name: CHAT_HEADING });
const checkIns = () => sent.filter((request) => route(request) === `POST /api/tickets/${TICKET}`);

describe('writing to Pepa beside the voice call', () => {
  it('Write to Pepa opens the chat without a call, starting it with a bot-check token', async () => {
    const { user } = renderText();
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

  it("Write to Pepa, its code fetched as the visitor reached for it, opens within the tap: the focus in the field, Pepa's first remark shown", async () => {
    const { user } = renderText();
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
    const { user } = renderText();
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    await flush();
    expect(screen.getByRole('alert')).toHaveTextContent(FAILURE_REASONS.courtFull);
    expect(screen.getByText(TEXT_WHILE_FULL)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: WRITE_TO_PEPA }));
    await flush();
    expect(screen.getByRole('textbox', { name: CHAT_FIELD_LABEL })).toBeInTheDocument();
  });

  it('while the visitor waits in line, offers text; chatting, the place stays shown and check-ins carry offer and the chat', async () => {
    courtAnswers.push(
      jsonAnswer(waiting(3), 202),
      jsonAnswer(waiting(2), 200),
      jsonAnswer(waiting(1), 200),
    );
    const { user } = renderText();
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
    courtAnswers.push(
      jsonAnswer(waiting(1), 202),
      jsonAnswer(waiting(1, true), 200),
      jsonAnswer(ADMITTED, 201),
    );
    const { user } = renderText({ openText: true });
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
    courtAnswers.push(
      jsonAnswer(waiting(1), 202),
      jsonAnswer(waiting(1, true), 200),
      jsonAnswer(ADMITTED, 201),
    );
    const { user } = renderText({ openText: true });
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
    const entriesIn = (container: HTMLElement) =>
      [...container.querySelectorAll('[data-thread-entry]')].map(
        (entry) =>
          `${entry.querySelector('[data-via]')?.getAttribute('aria-label')} ${entry.textContent}`,
      );
    const thread = [
      `typed Pepa: ${PEPA_FIRST_MESSAGE}`,
      'typed You: Who rules the pond?',
      'typed Pepa: Answer to Who rules the pond?',
      'spoken Pepa: Carrying on from our chat: the pond is mine.',
      'spoken You: And the lilies?',
    ];
    expect(entriesIn(screen.getByRole('log', { name: 'Captions' }))).toEqual(thread);
    call.leave();
    await flush();
    // One transcript after the call: the chat's, which holds the call's entries where they came.
    expect(screen.queryByRole('region', { name: 'Transcript' })).toBeNull();
    expect(entriesIn(screen.getByRole('log', { name: CHAT_LOG_LABEL }))).toEqual(thread);
    // The rating is where the call's controls were: before the chat, not under its field.
    const rating = screen.getByRole('region', { name: RATING_QUESTION });
    const field = screen.getByRole('textbox', { name: CHAT_FIELD_LABEL });
    expect(rating.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a place not taken in time goes: the visitor is told and keeps chatting', async () => {
    courtAnswers.push(
      jsonAnswer(waiting(1), 202),
      jsonAnswer(waiting(1, true), 200),
      problem(404, 'ticket-gone'),
    );
    const { user } = renderText({ openText: true });
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
    courtAnswers.push(jsonAnswer(waiting(3), 202));
    const { user } = renderText({ openText: true });
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
    const { user } = renderText({ openText: true });
    await flush();
    await user.click(screen.getByRole('button', { name: 'Start Talking' }));
    await flush();
    const ask = sent.find((request) => route(request) === 'POST /api/calls');
    expect(ask?.headers.get('chat-id')).toBe(CHAT.id);
    expect(ask?.headers.get('chat-secret')).toBe(CHAT.secret);
  });

  it('ending the chat, or the section going away, tells the gate once', async () => {
    const { user, unmount } = renderText({ openText: true });
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
