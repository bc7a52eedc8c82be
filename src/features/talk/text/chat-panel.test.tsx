import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GateApiError } from '../../../api/gate-client';
import { SHIELD_NOT_SENT } from '../guards/seed-shield';
import { loadShareDialog } from '../share/share-button';
import { LINK_MASK, MASKED_NOTE } from '../guards/site-facts';
import type { ReplyEnd } from '../../../api/chat-door';
import { CHAT, FakeChatDoor } from '../test/fake-chat-door';
import {
  CHAT_CLOSE,
  CHAT_FIELD_LABEL,
  CHAT_FRESH,
  CHAT_LOG_LABEL,
  CHAT_RETRY,
  CHAT_SEND,
  CHAT_STOP,
  CHAT_STOPPED,
  CHAT_WRITING,
  ChatPanel,
  turnsLeftText,
} from './chat-panel';
import { CHAT_TEXT, ChatSession } from './chat-session';

const SEED = 'abandon ability able about above absent absorb abstract absurd abuse access accident';

let door: FakeChatDoor;
let session: ChatSession;

beforeEach(() => {
  vi.useFakeTimers();
  door = new FakeChatDoor();
  session = new ChatSession(door, new Set(['pepa.example']));
});

afterEach(() => {
  vi.useRealTimers();
});

async function flush() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

async function renderPanel(focusOnOpen = false) {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  const onClose = vi.fn();
  const view = render(<ChatPanel session={session} onClose={onClose} focusOnOpen={focusOnOpen} />);
  await flush();
  return { user, onClose, ...view };
}

const field = () => screen.getByRole('textbox', { name: CHAT_FIELD_LABEL });
const log = () => screen.getByRole('log', { name: CHAT_LOG_LABEL });
const lastReply = () => {
  const reply = door.replies.at(-1);
  if (!reply) throw new Error('nothing was sent');
  return reply;
};

async function say(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.type(field(), text);
  await user.click(screen.getByRole('button', { name: CHAT_SEND }));
  await flush();
}

describe('the chat panel', () => {
  it('starts a chat with a bot-check token when it opens', async () => {
    await renderPanel();
    expect(door.botCheck).toHaveBeenCalledTimes(1);
    expect(door.start).toHaveBeenCalledWith('token', expect.any(AbortSignal));
    expect(session.pass()).toEqual({ id: `${CHAT.id}1`, secret: CHAT.secret });
  });

  it('opened by the visitor, comes into view once with the focus in the field; else neither', async () => {
    const own = Object.getOwnPropertyDescriptor(Element.prototype, 'scrollIntoView');
    const scrolled: { tag: string; options: unknown }[] = [];
    Object.defineProperty(Element.prototype, 'scrollIntoView', {
      configurable: true,
      value(this: Element, options?: unknown) {
        scrolled.push({ tag: this.tagName, options });
      },
    });
    try {
      const pressed = await renderPanel(true);
      expect(field()).toHaveFocus();
      expect(scrolled).toEqual([{ tag: 'SECTION', options: { block: 'nearest' } }]);
      pressed.unmount();
      await renderPanel(false);
      expect(field()).not.toHaveFocus();
      expect(scrolled).toHaveLength(1);
    } finally {
      if (own) Object.defineProperty(Element.prototype, 'scrollIntoView', own);
      else delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });

  it("shows Pepa's reply as it is written, with Stop, and puts only the finished reply in the log", async () => {
    const { user } = await renderPanel();
    await say(user, 'Who are you?');
    expect(lastReply().text).toBe('Who are you?');
    expect(field()).toHaveValue('');
    expect(field()).toHaveFocus();
    expect(within(log()).getByText('Who are you?')).toBeInTheDocument();

    act(() => lastReply().words('I am '));
    act(() => lastReply().words('the Queen.'));
    const writing = screen.getByTestId('chat-writing');
    expect(writing).toHaveTextContent('I am the Queen.');
    expect(writing).toHaveTextContent(CHAT_WRITING);
    expect(screen.getByRole('button', { name: CHAT_STOP })).toBeInTheDocument();
    // Words still being written are not in the log, so they are not announced one by one.
    expect(within(log()).queryByText(/the Queen/)).toBeNull();

    await act(async () => {
      lastReply().finish({ type: 'done', turnsLeft: 9 });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByTestId('chat-writing')).toBeNull();
    expect(within(log()).getByText('I am the Queen.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: CHAT_SEND })).toBeInTheDocument();
  });

  it('stops a reply: the fetch is aborted, the words so far stay, marked, and the focus is in the field', async () => {
    const { user } = await renderPanel();
    await say(user, 'Tell me a long story');
    act(() => lastReply().words('Once upon a lily pad'));
    await user.click(screen.getByRole('button', { name: CHAT_STOP }));
    await flush();
    expect(lastReply().signal.aborted).toBe(true);
    expect(within(log()).getByText(/Once upon a lily pad/)).toHaveTextContent(CHAT_STOPPED);
    expect(field()).toHaveFocus();
  });

  it('a reply that ends while Stop has the focus leaves the focus in the field, not on the page', async () => {
    const { user } = await renderPanel();
    await say(user, 'Hello');
    screen.getByRole('button', { name: CHAT_STOP }).focus();
    await act(async () => {
      lastReply().finish({ type: 'done', turnsLeft: 9 });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.queryByRole('button', { name: CHAT_STOP })).toBeNull();
    expect(field()).toHaveFocus();
  });

  it('holds back a message with a recovery phrase: not sent, the visitor told why, the draft kept', async () => {
    const { user } = await renderPanel();
    await say(user, `my words are ${SEED}`);
    expect(door.replies).toHaveLength(0);
    expect(screen.getByRole('alert')).toHaveTextContent(SHIELD_NOT_SENT);
    expect(field()).toHaveValue(`my words are ${SEED}`);
    expect(field()).toHaveFocus();
    expect(within(log()).queryByText(/abandon/)).toBeNull();
  });

  it('keeps Send unavailable for a draft with nothing to see, and sends none of it', async () => {
    const { user } = await renderPanel();
    const send = screen.getByRole('button', { name: CHAT_SEND });
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.type(field(), '\u200b\u202e\ufe0f \u3164');
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.click(send);
    await user.keyboard('{Enter}');
    await flush();
    expect(door.replies).toHaveLength(0);
    expect(field()).toHaveValue('\u200b\u202e\ufe0f \u3164');
    await user.type(field(), 'a');
    expect(send).not.toHaveAttribute('aria-disabled');
  });

  it('sends a message pressed while the chat is still opening once it is open, and none before', async () => {
    let opened: (chat: typeof CHAT) => void = () => undefined;
    door.start.mockImplementationOnce(
      () => new Promise((resolve) => (opened = (chat) => resolve({ ...chat, id: `${chat.id}1` }))),
    );
    const { user } = await renderPanel();
    await say(user, 'Hello, Your Majesty');
    expect(door.replies).toHaveLength(0);
    expect(field()).toHaveValue('');
    act(() => opened(CHAT));
    await flush();
    expect(lastReply().text).toBe('Hello, Your Majesty');
    expect(within(log()).getByText('Hello, Your Majesty')).toBeInTheDocument();
  });

  it('flags a draft past the limit as it is typed: the count near it, the error past it, Send resting; nothing is sent and the draft stays', async () => {
    const { user } = await renderPanel();
    const send = screen.getByRole('button', { name: CHAT_SEND });
    // Well short of the limit: no count.
    await user.type(field(), 'r'.repeat(150));
    expect(screen.queryByTestId('draft-count')).toBeNull();
    // Near it (past 80 %): the count, counted as the gate counts (an emoji is one character).
    await user.type(field(), '🐸'.repeat(20));
    expect(screen.getByTestId('draft-count')).toHaveTextContent('170 / 200');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(send).not.toHaveAttribute('aria-disabled');
    // Past it: the error, said once as it appears, and Send rests.
    await user.type(field(), 'r'.repeat(31));
    expect(screen.getByTestId('draft-count')).toHaveTextContent('201 / 200');
    expect(screen.getByRole('alert')).toHaveTextContent(CHAT_TEXT.tooLong(200));
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(field()).toHaveAccessibleDescription(/201 \/ 200/);
    expect(send).toHaveAttribute('aria-disabled', 'true');
    await user.click(send);
    await user.keyboard('{Enter}');
    await flush();
    expect(door.replies).toHaveLength(0);
    expect(field()).toHaveValue(`${'r'.repeat(150)}${'🐸'.repeat(20)}${'r'.repeat(31)}`);
    // Shortened: Send is back.
    await user.type(field(), '{Backspace}');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(send).not.toHaveAttribute('aria-disabled');
  });

  const refusals: [string, GateApiError, string][] = [
    [
      'message-too-long',
      new GateApiError('x', 'http', 413, 'message-too-long', null),
      CHAT_TEXT.tooLong(200),
    ],
    [
      'reply-in-flight',
      new GateApiError('x', 'http', 409, 'reply-in-flight', null),
      CHAT_TEXT.replyInFlight,
    ],
    [
      'rate-limited',
      new GateApiError('x', 'http', 429, 'rate-limited', 12_000),
      `${CHAT_TEXT.rateLimited} Try again in 12 s.`,
    ],
    [
      'rate-limited until midnight',
      new GateApiError('x', 'http', 429, 'rate-limited', 43_200_000),
      `${CHAT_TEXT.rateLimited} Try again in 12 h.`,
    ],
    [
      'text-busy',
      new GateApiError('x', 'http', 503, 'text-busy', 30_000),
      `${CHAT_TEXT.textBusy} Try again in 30 s.`,
    ],
    [
      'court-closed',
      new GateApiError('x', 'http', 503, 'court-closed', null, '2030-01-02T09:30:00.000Z'),
      CHAT_TEXT.courtClosed,
    ],
    [
      'provider-error',
      new GateApiError('x', 'http', 502, 'provider-error', null),
      CHAT_TEXT.providerError,
    ],
    ['no answer', new GateApiError('x', 'network', 0, null, null), CHAT_TEXT.network],
  ];

  it.each(refusals)(
    'a refused message (%s) gets its own line, the draft back and the focus in the field',
    async (_name, error, line) => {
      const { user } = await renderPanel();
      await say(user, 'Hello there');
      await act(async () => {
        lastReply().refuse(error);
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(screen.getByRole('alert')).toHaveTextContent(line);
      expect(field()).toHaveValue('Hello there');
      expect(field()).toHaveFocus();
      // Not said: it leaves the conversation.
      expect(within(log()).queryByText('Hello there')).toBeNull();
    },
  );

  it.each([
    ['resting', 'court-resting', 'status', `${CHAT_TEXT.courtResting} She is back at`],
    ['closed for the day', 'court-closed', 'alert', `${CHAT_TEXT.courtClosed} It opens again at`],
  ] as const)(
    'says when text is back after %s, in the visitor’s time',
    async (_, code, role, words) => {
      const { user } = await renderPanel();
      await say(user, 'Hello');
      await act(async () => {
        lastReply().refuse(
          new GateApiError('x', 'http', 503, code, null, '2030-01-02T09:30:00.000Z'),
        );
        await vi.advanceTimersByTimeAsync(0);
      });
      const time = new Intl.DateTimeFormat(undefined, {
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date('2030-01-02T09:30:00.000Z'));
      // Resting is said politely (a status); a closed day is an alert.
      expect(screen.getByRole(role)).toHaveTextContent(`${words} ${time}.`);
      if (role === 'status') expect(screen.queryByRole('alert')).toBeNull();
    },
  );

  it("a failed reply keeps Pepa's words so far and asks to try again, with the draft back", async () => {
    const { user } = await renderPanel();
    await say(user, 'Sing');
    act(() => lastReply().words('La la'));
    await act(async () => {
      lastReply().finish({ type: 'failed', problem: { code: 'provider-error', title: 'x' } });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(within(log()).getByText(/La la/)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(CHAT_TEXT.providerError);
    expect(field()).toHaveValue('Sing');
  });

  it('a chat that is gone offers a fresh one, which starts a new chat and keeps the entries', async () => {
    const { user } = await renderPanel();
    await say(user, 'First');
    await act(async () => {
      lastReply().finish({ type: 'done', turnsLeft: 9 });
      await vi.advanceTimersByTimeAsync(0);
    });
    await say(user, 'Second');
    await act(async () => {
      lastReply().refuse(new GateApiError('x', 'http', 404, 'chat-gone', null));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('alert')).toHaveTextContent(CHAT_TEXT.chatGone);
    expect(session.pass()).toBeNull();
    await user.click(screen.getByRole('button', { name: CHAT_FRESH }));
    await flush();
    expect(door.starts).toBe(2);
    expect(session.pass()?.id).toBe(`${CHAT.id}2`);
    expect(within(log()).getByText('First')).toBeInTheDocument();
    expect(field()).toHaveValue('Second');
  });

  it("offers Share on Pepa's finished replies only, each shared with the chat that wrote it", async () => {
    const { user } = await renderPanel();
    const reply = async (text: string, end: ReplyEnd) => {
      await say(user, text);
      act(() => lastReply().words(`Answer to ${text}.`));
      await act(async () => {
        lastReply().finish(end);
        await vi.advanceTimersByTimeAsync(0);
      });
    };
    await reply('First', { type: 'done', turnsLeft: 9, remark: 1 });
    await reply('Second', { type: 'done', turnsLeft: 8 });
    await say(user, 'Third');
    act(() => lastReply().words('Answer to Third'));
    await user.click(screen.getByRole('button', { name: CHAT_STOP }));
    await flush();
    act(() => session.end());
    await act(async () => {
      await session.fresh();
    });
    await reply('Fourth', { type: 'done', turnsLeft: 9, remark: 1 });

    const shares = within(log()).getAllByRole('button', { name: /^Share this remark of Pepa's/ });
    expect(shares.map((button) => button.closest('li')?.textContent)).toEqual([
      expect.stringContaining('Answer to First.'),
      expect.stringContaining('Answer to Fourth.'),
    ]);

    // The dialog's chunk, as a visitor's first Share loads it (here ahead, outside the fake clock).
    await loadShareDialog();
    const asked: Request[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((request: Request) => {
        asked.push(request.clone());
        return new Promise<Response>(() => undefined);
      }),
    );
    await user.click(shares[1]!);
    await screen.findByRole('dialog');
    await flush();
    expect(asked[0]?.headers.get('chat-secret')).toBe(CHAT.secret);
    expect(await asked[0]?.json()).toEqual({
      from: 'chat',
      conversationId: `${CHAT.id}2`,
      remark: 1,
    });
  });

  it('shows how many messages are left once they run low, and offers a fresh chat at none', async () => {
    const { user } = await renderPanel();
    await say(user, 'One');
    await act(async () => {
      lastReply().finish({ type: 'done', turnsLeft: 2 });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByText(turnsLeftText(2))).toBeInTheDocument();
    await say(user, 'Two');
    await act(async () => {
      lastReply().finish({ type: 'done', turnsLeft: 0 });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('alert')).toHaveTextContent(CHAT_TEXT.noTurnsLeft);
    expect(screen.getByRole('button', { name: CHAT_FRESH })).toBeInTheDocument();
  });

  it("masks a foreign link in Pepa's words as the captions do, keeping the site's own", async () => {
    const { user } = await renderPanel();
    await say(user, 'Where do I buy?');
    act(() => lastReply().words('Only at https://pepa.example, never at https://scam.'));
    act(() => lastReply().words('example/claim'));
    expect(screen.getByTestId('chat-writing')).not.toHaveTextContent('scam');
    await act(async () => {
      lastReply().finish({ type: 'done', turnsLeft: 9 });
      await vi.advanceTimersByTimeAsync(0);
    });
    const reply = within(log()).getByText(/Only at/);
    expect(reply).toHaveTextContent('https://pepa.example');
    expect(reply).toHaveTextContent(LINK_MASK);
    expect(reply).not.toHaveTextContent('scam');
    expect(screen.getByText(MASKED_NOTE)).toBeInTheDocument();
  });

  it('a chat that could not start says why and offers to try again', async () => {
    door.start.mockImplementationOnce(() =>
      Promise.reject(new GateApiError('x', 'http', 503, 'text-busy', 20_000)),
    );
    const { user } = await renderPanel();
    expect(screen.getByRole('alert')).toHaveTextContent(`${CHAT_TEXT.textBusy} Try again in 20 s.`);
    expect(session.pass()).toBeNull();
    await user.click(screen.getByRole('button', { name: CHAT_RETRY }));
    await flush();
    expect(session.pass()?.id).toBe(`${CHAT.id}1`);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Enter sends and Shift+Enter starts a new line', async () => {
    const { user } = await renderPanel();
    await user.type(field(), 'line one{Shift>}{Enter}{/Shift}line two{Enter}');
    await flush();
    expect(lastReply().text).toBe('line one\nline two');
  });

  it('ends the chat with the gate when closed, stopping a reply under way', async () => {
    const { user, onClose } = await renderPanel();
    await say(user, 'Hello');
    await user.click(screen.getByRole('button', { name: CHAT_CLOSE }));
    expect(onClose).toHaveBeenCalledTimes(1);
    session.end();
    expect(lastReply().signal.aborted).toBe(true);
    expect(door.ended).toEqual([{ id: `${CHAT.id}1`, secret: CHAT.secret }]);
    expect(session.pass()).toBeNull();
    session.end();
    expect(door.ended).toHaveLength(1);
  });
});
