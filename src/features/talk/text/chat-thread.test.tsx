import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PEPA_FIRST_MESSAGE } from '../../../config/pepa-persona';
import { callEntries } from '../thread/thread';
import { loadShareDialog } from '../share/share-button';
import type { TranscriptEntry } from '../voice/voice-state';
import type { Chat, ChatDoor, ChatPass, ReplyEnd } from '../../../api/chat-door';
import {
  CHAT_FIELD_LABEL,
  CHAT_LOG_LABEL,
  CHAT_OPENINGS,
  CHAT_OPENINGS_LABEL,
  ChatPanel,
} from './chat-panel';
import { ChatSession } from './chat-session';

const CHAT: Chat = {
  id: 'chat-0123456789abcdef',
  secret: 'secret-0123456789abcdef',
  maxMessageChars: 500,
  turnsLeft: 10,
};
const CALL_ID = 'call-0123456789abcdef';
const SHARE = /^Share this remark of Pepa's/;

/** The gate's chat, answering each message with `Answer to <message>` and its place. */
class AnsweringDoor implements ChatDoor {
  readonly said: string[] = [];
  botCheck = () => Promise.resolve('token');
  start = () => Promise.resolve(CHAT);
  send = (_chat: ChatPass, text: string, _signal: AbortSignal, onWords: (w: string) => void) => {
    this.said.push(text);
    onWords(`Answer to ${text}`);
    return Promise.resolve<ReplyEnd>({ type: 'done', turnsLeft: 9, remark: this.said.length });
  };
  end = () => undefined;
}

let door: AnsweringDoor;
let session: ChatSession;

beforeEach(() => {
  vi.useFakeTimers();
  door = new AnsweringDoor();
  session = new ChatSession(door, new Set());
});

afterEach(() => {
  session.end();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const flush = () =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });

const field = () => screen.getByRole('textbox', { name: CHAT_FIELD_LABEL });
const logEntries = () =>
  within(screen.getByRole('log', { name: CHAT_LOG_LABEL }))
    .getAllByRole('listitem')
    .map((item) => ({
      text: item.textContent,
      via: item.querySelector('[data-via]')?.getAttribute('aria-label'),
    }));

describe('the chat as it opens', () => {
  it("puts the focus in the field and shows Pepa's first remark as hers, unsent, with openings to start from", async () => {
    render(<ChatPanel session={session} onClose={vi.fn()} focusOnOpen />);
    expect(field()).toHaveFocus();
    await flush();
    expect(logEntries()).toEqual([{ text: `Pepa: ${PEPA_FIRST_MESSAGE}`, via: 'typed' }]);
    // Her first remark is shown, never sent: it costs nothing.
    expect(door.said).toEqual([]);
    const openings = within(screen.getByRole('group', { name: CHAT_OPENINGS_LABEL }));
    expect(openings.getAllByRole('button').map((button) => button.textContent)).toEqual([
      ...CHAT_OPENINGS,
    ]);
  });

  it('leaves the focus alone when the visitor did not open it just now', async () => {
    render(<ChatPanel session={session} onClose={vi.fn()} />);
    await flush();
    expect(field()).not.toHaveFocus();
  });

  it('sends an opening when it is pressed, and the openings go once the visitor has begun', async () => {
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    render(<ChatPanel session={session} onClose={vi.fn()} focusOnOpen />);
    await user.click(screen.getByRole('button', { name: 'Who are you?' }));
    await flush();
    expect(door.said).toEqual(['Who are you?']);
    expect(logEntries().map((entry) => entry.text)).toEqual([
      `Pepa: ${PEPA_FIRST_MESSAGE}`,
      'You: Who are you?',
      'Pepa: Answer to Who are you?',
    ]);
    expect(screen.queryByRole('group', { name: CHAT_OPENINGS_LABEL })).toBeNull();
    expect(field()).toHaveFocus();
  });
});

describe('the one thread after a call', () => {
  const CALL: TranscriptEntry[] = [
    { id: 7, role: 'assistant', text: 'Ribbit, now we can talk by voice!' },
    { id: 8, role: 'user', text: 'Who rules the pond?' },
    { id: 9, role: 'user', text: 'And the lilies?', typed: true },
    { id: 10, role: 'assistant', text: 'I do, of course.' },
  ];

  async function chatThenCall() {
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    const view = render(<ChatPanel session={session} onClose={vi.fn()} />);
    await flush();
    await user.type(field(), 'Hello, Your Majesty{Enter}');
    await flush();
    // The call joined after the chat's greeting and its two entries (3 in all), then another
    // message was typed after the call.
    const call = { entries: callEntries(CALL, CALL_ID), chatBefore: 3 };
    view.rerender(<ChatPanel session={session} onClose={vi.fn()} call={call} />);
    await user.type(field(), 'Back to letters{Enter}');
    await flush();
    return user;
  }

  it('holds the typed turns above the spoken ones, each marked by how it was said', async () => {
    await chatThenCall();
    expect(logEntries()).toEqual([
      { text: `Pepa: ${PEPA_FIRST_MESSAGE}`, via: 'typed' },
      { text: 'You: Hello, Your Majesty', via: 'typed' },
      { text: 'Pepa: Answer to Hello, Your Majesty', via: 'typed' },
      { text: 'Pepa: Ribbit, now we can talk by voice!', via: 'spoken' },
      { text: 'You: Who rules the pond?', via: 'spoken' },
      { text: 'You: And the lilies?', via: 'typed' },
      { text: 'Pepa: I do, of course.', via: 'spoken' },
      { text: 'You: Back to letters', via: 'typed' },
      { text: 'Pepa: Answer to Back to letters', via: 'typed' },
    ]);
  });

  it("shares each of Pepa's remarks from where it was said: a chat's by its chat and place, a call's by the call and her place there", async () => {
    const asked: Request[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((request: Request) => {
        asked.push(request.clone());
        return new Promise<Response>(() => undefined);
      }),
    );
    await loadShareDialog();
    const user = await chatThenCall();
    const buttons = within(screen.getByRole('log', { name: CHAT_LOG_LABEL })).getAllByRole(
      'button',
      { name: SHARE },
    );
    // Her greeting in the chat is the page's, not a remark the gate recorded: no card of it.
    expect(buttons).toHaveLength(4);
    const bodies = [];
    for (const button of buttons) {
      await user.click(button);
      await flush();
      bodies.push(await asked.at(-1)?.json());
      await user.keyboard('{Escape}');
    }
    expect(bodies).toEqual([
      { from: 'chat', conversationId: CHAT.id, remark: 1 },
      { from: 'call', conversationId: CALL_ID, remark: 1 },
      { from: 'call', conversationId: CALL_ID, remark: 2 },
      { from: 'chat', conversationId: CHAT.id, remark: 2 },
    ]);
  });

  it('copies the one thread, typed messages saying so', async () => {
    const user = await chatThenCall();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();
    await user.click(screen.getByRole('button', { name: 'Copy transcript' }));
    expect(writeText).toHaveBeenCalledWith(
      [
        `Pepa (typed): ${PEPA_FIRST_MESSAGE}`,
        'You (typed): Hello, Your Majesty',
        'Pepa (typed): Answer to Hello, Your Majesty',
        'Pepa: Ribbit, now we can talk by voice!',
        'You: Who rules the pond?',
        'You (typed): And the lilies?',
        'Pepa: I do, of course.',
        'You (typed): Back to letters',
        'Pepa (typed): Answer to Back to letters',
      ].join('\n'),
    );
  });
});
