import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Card } from '../../../api/cards';
import { ShareRemarkButton, useShareHost } from './share-button';
import {
  SHARE_COPIED,
  SHARE_COPIED_MS,
  SHARE_COPY,
  SHARE_COPY_REFUSED,
  SHARE_DEVICE,
  SHARE_HEADING,
  SHARE_LINK_LABEL,
  SHARE_MAKING,
  SHARE_ON_TELEGRAM,
  SHARE_ON_X,
  SHARE_READY,
  SHARE_RETRY,
  SHARE_TEXT,
} from './share-dialog';
import { shareText } from './share-links';
import { shareRemarkLabel, type SharedRemark } from './shared-remark';

const WORDS = 'Ribbit! A true queen never croaks before the lily pad is hers.';

const CARD: Card = {
  id: 'card_0123456789abcdef',
  pageUrl: 'https://pepa.example/q/card_0123456789abcdef',
  imageUrl: 'https://pepa.example/q/card_0123456789abcdef/card.png',
  imageWidth: 1200,
  imageHeight: 630,
  words: WORDS,
  saidAt: '2026-11-05T10:00:00Z',
  drawn: true,
};

const CHAT_REMARK: SharedRemark = {
  remark: {
    from: 'chat',
    conversationId: 'chat-0123456789abcdef',
    remark: 3,
    chatSecret: 'secret-0123456789abcdef',
  },
  words: WORDS,
};

const CALL_REMARK: SharedRemark = {
  remark: { from: 'call', conversationId: 'call-0123456789', remark: 2 },
  words: WORDS,
};

const problem = (status: number, body: Record<string, unknown>, headers = {}) =>
  new Response(JSON.stringify({ title: 'No', status, ...body }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

let requests: Request[] = [];
let answers: (() => Response | Promise<Response>)[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  requests = [];
  answers = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(
        input instanceof Request
          ? input.clone()
          : new Request(new URL(String(input), 'http://127.0.0.1/'), init),
      );
      const answer = answers.shift();
      if (!answer) throw new Error('no answer was set for this request');
      return answer();
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(navigator, 'share');
});

/** A conversation's one line with its Share button, and the host that opens the dialog. */
function Conversation({ shared }: { shared: SharedRemark }) {
  const host = useShareHost();
  return (
    <div>
      <p>
        Pepa: {shared.words}
        <ShareRemarkButton shared={shared} onShare={host.open} />
      </p>
      {host.dialog}
    </div>
  );
}

async function settle() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

/** Renders the remark, presses Share, and waits for the dialog's chunk and the gate's answer. */
async function share(shared: SharedRemark = CHAT_REMARK) {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  render(<Conversation shared={shared} />);
  const button = screen.getByRole('button', { name: shareRemarkLabel(shared.words) });
  await user.click(button);
  const dialog = await screen.findByRole('dialog', { name: SHARE_HEADING });
  await settle();
  return { user, button, dialog };
}

describe('the Share button', () => {
  it("says which of Pepa's remarks it shares", () => {
    render(<Conversation shared={CHAT_REMARK} />);
    expect(
      screen.getByRole('button', {
        name: "Share this remark of Pepa's: “Ribbit! A true queen never croaks…”",
      }),
    ).toBeInTheDocument();
  });
});

describe('the share dialog', () => {
  it('asks for the card of the chat remark with its secret, says it is making it, then shows it with the ways to share', async () => {
    let made!: (response: Response) => void;
    answers.push(() => new Promise<Response>((resolve) => (made = resolve)));
    const { dialog } = await share();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveFocus();
    expect(within(dialog).getByRole('status')).toHaveTextContent(SHARE_MAKING);

    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(new URL(request!.url).pathname).toBe('/api/cards');
    expect(request?.headers.get('chat-secret')).toBe('secret-0123456789abcdef');
    expect(request?.credentials).toBe('same-origin');
    expect(await request?.json()).toEqual({
      from: 'chat',
      conversationId: 'chat-0123456789abcdef',
      remark: 3,
    });

    made(Response.json(CARD, { status: 201 }));
    await settle();
    expect(within(dialog).getByRole('status')).toHaveTextContent(SHARE_READY);
    const image = within(dialog).getByRole('img', { name: WORDS });
    expect(image).toHaveAttribute('src', CARD.imageUrl);
    expect(within(dialog).getByText(`“${WORDS}”`)).toBeInTheDocument();

    const x = within(dialog).getByRole('link', { name: new RegExp(`^${SHARE_ON_X}`) });
    const xUrl = new URL(x.getAttribute('href') ?? '');
    expect(xUrl.origin + xUrl.pathname).toBe('https://x.com/intent/tweet');
    expect(xUrl.searchParams.get('url')).toBe(CARD.pageUrl);
    expect(xUrl.searchParams.get('text')).toBe(shareText(WORDS));
    const telegram = within(dialog).getByRole('link', {
      name: new RegExp(`^${SHARE_ON_TELEGRAM}`),
    });
    const telegramUrl = new URL(telegram.getAttribute('href') ?? '');
    expect(telegramUrl.origin + telegramUrl.pathname).toBe('https://t.me/share/url');
    expect(telegramUrl.searchParams.get('url')).toBe(CARD.pageUrl);
    expect(telegramUrl.searchParams.get('text')).toBe(shareText(WORDS));
    for (const link of [x, telegram]) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    expect(within(dialog).getByRole('textbox', { name: SHARE_LINK_LABEL })).toHaveValue(
      CARD.pageUrl,
    );
  });

  it("asks for a call's remark with the card cookie alone: no chat secret", async () => {
    answers.push(() => Response.json(CARD, { status: 200 }));
    await share(CALL_REMARK);
    const [request] = requests;
    expect(request?.headers.get('chat-secret')).toBeNull();
    expect(request?.credentials).toBe('same-origin');
    expect(await request?.json()).toEqual({
      from: 'call',
      conversationId: 'call-0123456789',
      remark: 2,
    });
  });

  it('closes on Escape, ahead of the page (whose Escape ends a call), and gives the focus back to Share', async () => {
    answers.push(() => Response.json(CARD, { status: 201 }));
    const pageEscape = vi.fn();
    document.addEventListener('keydown', pageEscape);
    const { user, button } = await share();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
    expect(pageEscape).not.toHaveBeenCalled();
    document.removeEventListener('keydown', pageEscape);
  });

  it('closes with Close, and leaves no timer or key listener behind', async () => {
    answers.push(() => Response.json(CARD, { status: 201 }));
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    const { user, button, dialog } = await share();
    await user.click(within(dialog).getByRole('button', { name: SHARE_COPY }));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
    const keyListeners = (spy: typeof added) =>
      spy.mock.calls.filter(([type]) => type === 'keydown').map(([, listener]) => listener);
    expect(keyListeners(added)).toHaveLength(1);
    expect(keyListeners(removed)).toEqual(keyListeners(added));
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps Tab inside the dialog', async () => {
    answers.push(() => Response.json(CARD, { status: 201 }));
    const { user, dialog } = await share();
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const link = within(dialog).getByRole('textbox', { name: SHARE_LINK_LABEL });
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(link).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
  });

  it("says why the gate refused the words, in the gate's own words, and offers no retry", async () => {
    answers.push(() =>
      problem(422, {
        code: 'card-refused',
        detail: 'The words read as a promise about the price.',
      }),
    );
    const { dialog } = await share();
    const alert = within(dialog).getByRole('alert');
    expect(alert).toHaveTextContent(SHARE_TEXT.refused);
    expect(alert).toHaveTextContent('Why: The words read as a promise about the price.');
    expect(within(dialog).queryByRole('button', { name: SHARE_RETRY })).toBeNull();
    expect(within(dialog).queryByRole('img')).toBeNull();
  });

  it('says the words are still being written down, and Try again waits for the time the gate asked', async () => {
    answers.push(() =>
      problem(409, { code: 'card-not-ready', retryAfterSeconds: 5 }, { 'Retry-After': '5' }),
    );
    const { user, dialog } = await share(CALL_REMARK);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(SHARE_TEXT.notReady(5));
    expect(SHARE_TEXT.notReady(5)).toContain('Try again in 5 s');
    const retry = within(dialog).getByRole('button', { name: SHARE_RETRY });
    expect(retry).toHaveAttribute('aria-disabled', 'true');
    await user.click(retry);
    expect(requests).toHaveLength(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    expect(retry).not.toHaveAttribute('aria-disabled');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(SHARE_TEXT.notReadyOver);

    answers.push(() => Response.json(CARD, { status: 201 }));
    await user.click(retry);
    await settle();
    expect(requests).toHaveLength(2);
    expect(dialog).toHaveFocus();
    expect(within(dialog).getByRole('img', { name: WORDS })).toBeInTheDocument();
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it.each([
    [
      'a rate limit',
      () => problem(429, { code: 'rate-limited' }, { 'Retry-After': '120' }),
      `${SHARE_TEXT.rateLimited} ${SHARE_TEXT.tryAgainIn(120)}`,
      false,
    ],
    ['no such remark', () => problem(404, { code: 'not-found' }), SHARE_TEXT.notFound, false],
    ['a gate fault', () => problem(503, { code: 'gate-unavailable' }), SHARE_TEXT.failed, true],
    [
      'an answer the contract does not allow',
      () => Response.json({ id: 'x', pageUrl: 'javascript:alert(1)' }, { status: 201 }),
      SHARE_TEXT.failed,
      true,
    ],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch')), SHARE_TEXT.network, true],
  ])('says so plainly after %s', async (_name, answer, text, retry) => {
    answers.push(answer);
    const { dialog } = await share();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(text);
    expect(within(dialog).queryByRole('button', { name: SHARE_RETRY }) !== null).toBe(retry);
    expect(within(dialog).queryByRole('link')).toBeNull();
  });

  it('copies the link, says so, and reads Copy link again after a moment', async () => {
    answers.push(() => Response.json(CARD, { status: 201 }));
    const { user, dialog } = await share();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(dialog).getByRole('button', { name: SHARE_COPY }));
    await settle();
    expect(writeText).toHaveBeenCalledWith(CARD.pageUrl);
    expect(within(dialog).getByRole('button', { name: SHARE_COPIED })).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SHARE_COPIED_MS);
    });
    expect(within(dialog).getByRole('button', { name: SHARE_COPY })).toBeInTheDocument();
  });

  it('selects the link for the visitor when the browser refuses the clipboard', async () => {
    answers.push(() => Response.json(CARD, { status: 201 }));
    const { user, dialog } = await share();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('Denied', 'NotAllowedError'),
    );
    await user.click(within(dialog).getByRole('button', { name: SHARE_COPY }));
    await settle();
    const link = within(dialog).getByRole<HTMLInputElement>('textbox', { name: SHARE_LINK_LABEL });
    expect(link).toHaveFocus();
    expect(link.selectionStart).toBe(0);
    expect(link.selectionEnd).toBe(CARD.pageUrl.length);
    expect(within(dialog).getAllByText(SHARE_COPY_REFUSED).length).toBeGreaterThan(0);
  });

  it("offers the device's own share sheet where the browser has one", async () => {
    const deviceShare = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'share', { configurable: true, value: deviceShare });
    answers.push(() => Response.json(CARD, { status: 201 }));
    const { user, dialog } = await share();
    await user.click(within(dialog).getByRole('button', { name: SHARE_DEVICE }));
    expect(deviceShare).toHaveBeenCalledWith({
      title: SHARE_HEADING,
      text: shareText(WORDS),
      url: CARD.pageUrl,
    });
  });

  it('a share sheet the visitor closes without sharing changes nothing', async () => {
    const deviceShare = vi.fn(() => Promise.reject(new DOMException('Cancelled', 'AbortError')));
    Object.defineProperty(navigator, 'share', { configurable: true, value: deviceShare });
    answers.push(() => Response.json(CARD, { status: 201 }));
    const { user, dialog } = await share();
    await user.click(within(dialog).getByRole('button', { name: SHARE_DEVICE }));
    await settle();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).getByRole('img', { name: WORDS })).toBeInTheDocument();
  });

  it('offers no share sheet where the browser has none', async () => {
    answers.push(() => Response.json(CARD, { status: 201 }));
    const { dialog } = await share();
    expect('share' in navigator).toBe(false);
    expect(within(dialog).queryByRole('button', { name: SHARE_DEVICE })).toBeNull();
    expect(within(dialog).getByRole('button', { name: SHARE_COPY })).toBeInTheDocument();
  });

  it('abandons an ask still under way when the dialog closes', async () => {
    let signal: AbortSignal | null = null;
    vi.mocked(fetch).mockImplementationOnce((input) => {
      signal = input instanceof Request ? input.signal : null;
      return new Promise<Response>(() => undefined);
    });
    const { user } = await share();
    await user.keyboard('{Escape}');
    expect(signal).not.toBeNull();
    expect(signal!.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
