import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LinePlace } from '../lib/call';
import {
  GateApiError,
  askAdmission,
  type ChatPass,
  type CheckInWith,
  type GateDoor,
  type LineCompanion,
  type TicketPass,
} from './gate-client';

const CHAT: ChatPass = { id: 'chat-0123456789abcdef', secret: 'chat-secret-0123456789' };
const CALL = { id: 'call-1', webCallUrl: 'https://pepa.daily.co/r' };
const admitted = { status: 'admitted', call: CALL, waitedSeconds: 30 };
const waiting = (position: number, offered = false) => ({
  status: 'waiting',
  ticket: {
    id: 'ticket-0123456789abcdef',
    secret: 'secret-0123456789abcdef',
    position,
    estimatedWaitSeconds: 20,
    checkInBySeconds: 15,
  },
  retryAfterSeconds: 2,
  ...(offered ? { offered: true } : {}),
});

interface CheckIn {
  with: CheckInWith | undefined;
}

let checkIns: CheckIn[];
let answers: (() => unknown)[];
let places: LinePlace[];

function door(): GateDoor {
  return {
    botCheck: () => Promise.resolve('token'),
    ask: () => Promise.resolve(waiting(3)),
    checkIn: (_ticket: TicketPass, _hidden: boolean, _signal: AbortSignal, text?: CheckInWith) => {
      checkIns.push({ with: text });
      const next = answers.shift();
      if (!next) return Promise.reject(new Error('no answer left'));
      try {
        return Promise.resolve(next());
      } catch (error) {
        return Promise.reject(error);
      }
    },
    leave: vi.fn(),
    hidden: () => false,
    pause: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      }),
  };
}

/** A visitor chatting beside the line, who taps the offered place when the test says. */
function chatting() {
  let chat: ChatPass | null = CHAT;
  let take: ((taken: boolean) => void) | null = null;
  const offers: number[] = [];
  const companion: LineCompanion = {
    chat: () => chat,
    offered: (holdSeconds, signal) =>
      new Promise<boolean>((resolve, reject) => {
        offers.push(holdSeconds);
        const timer = setTimeout(() => resolve(false), holdSeconds * 1000);
        take = (taken) => {
          clearTimeout(timer);
          resolve(taken);
        };
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      }),
  };
  return {
    companion,
    offers,
    tap: () => take?.(true),
    stopChatting: () => {
      chat = null;
    },
  };
}

const line = { waiting: (place: LinePlace) => void places.push(place) };

beforeEach(() => {
  vi.useFakeTimers();
  checkIns = [];
  answers = [];
  places = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe('askAdmission beside a chat', () => {
  it('checks in with offer and the chat while the visitor chats, and the place keeps moving', async () => {
    const visitor = chatting();
    answers.push(
      () => waiting(2),
      () => admitted,
    );
    const walk = askAdmission(door(), new AbortController().signal, line, visitor.companion);
    await vi.advanceTimersByTimeAsync(4000);
    await expect(walk).resolves.toEqual(CALL);
    expect(places.map((place) => place.position)).toEqual([3, 2]);
    expect(checkIns.map((checkIn) => checkIn.with)).toEqual([
      { offer: true, chat: CHAT },
      { offer: true, chat: CHAT },
    ]);
  });

  it('holds an offered place for the tap, then checks in without offer (with the chat) and is admitted', async () => {
    const visitor = chatting();
    answers.push(
      () => waiting(1, true),
      () => admitted,
    );
    const walk = askAdmission(door(), new AbortController().signal, line, visitor.companion);
    await vi.advanceTimersByTimeAsync(2000);
    expect(visitor.offers).toEqual([15]);
    // Held: no check-in while the visitor decides.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(checkIns).toHaveLength(1);
    visitor.tap();
    await vi.advanceTimersByTimeAsync(0);
    await expect(walk).resolves.toEqual(CALL);
    expect(checkIns.at(-1)?.with).toEqual({ offer: false, chat: CHAT });
  });

  it('an offered place not taken in time is gone: the check-in that follows hears so', async () => {
    const visitor = chatting();
    answers.push(
      () => waiting(1, true),
      () => {
        throw new GateApiError('gone', 'http', 404, 'ticket-gone', null);
      },
    );
    const walk = askAdmission(door(), new AbortController().signal, line, visitor.companion);
    const outcome = walk.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(2000 + 15_000);
    expect(await outcome).toMatchObject({ code: 'ticket-gone' });
    expect(checkIns.at(-1)?.with).toEqual({ offer: true, chat: CHAT });
  });

  it('a visitor who is not chatting checks in as before: no offer, no chat', async () => {
    const visitor = chatting();
    visitor.stopChatting();
    answers.push(() => admitted);
    const walk = askAdmission(door(), new AbortController().signal, line, visitor.companion);
    await vi.advanceTimersByTimeAsync(2000);
    await expect(walk).resolves.toEqual(CALL);
    expect(checkIns.map((checkIn) => checkIn.with)).toEqual([undefined]);
  });

  it('leaving the line while a place is offered gives it up', async () => {
    const visitor = chatting();
    answers.push(() => waiting(1, true));
    const controller = new AbortController();
    const gate = door();
    const walk = askAdmission(gate, controller.signal, line, visitor.companion);
    const outcome = walk.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(2000);
    controller.abort(new Error('left'));
    await vi.advanceTimersByTimeAsync(0);
    expect(await outcome).toMatchObject({ message: 'left' });
    expect(gate.leave).toHaveBeenCalledTimes(1);
  });
});
