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
  passOf,
} from './gate-client';
import { LATE_ANSWER_MS } from './late-answer';

const CHAT: ChatPass = { id: 'chat-0123456789abcdef', secret: 'chat-secret-0123456789' };
const CALL = { id: 'call-1', webCallUrl: 'https://pepa.daily.co/r' };
const CALL_SECRET = 'call-secret-0123456789';
const admitted = { status: 'admitted', call: CALL, callSecret: CALL_SECRET, waitedSeconds: 30 };
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
    giveBack: vi.fn(),
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

describe('askAdmission when the start stops with a request in flight', () => {
  /** A door whose `POST /api/calls` answers only when the test says. */
  function slowDoor(answer: unknown) {
    let release: () => void = () => undefined;
    const signals: AbortSignal[] = [];
    const gate = door();
    gate.ask = (_token, signal) => {
      signals.push(signal);
      return new Promise((resolve) => {
        release = () => resolve(answer);
      });
    };
    return { gate, signals, answer: () => release() };
  }

  it('never cuts the request off, and gives back the call admitted after the stop', async () => {
    const { gate, signals, answer } = slowDoor(admitted);
    const start = new AbortController();
    const walk = askAdmission(gate, start.signal, line);
    await vi.advanceTimersByTimeAsync(0);
    start.abort(new Error('microphone refused'));
    await expect(walk).rejects.toThrow('microphone refused');
    expect(signals[0]?.aborted).toBe(false);
    expect(gate.giveBack).not.toHaveBeenCalled();
    answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.giveBack).toHaveBeenCalledWith({ id: CALL.id, secret: CALL_SECRET });
  });

  it('cuts off a request still unanswered LATE_ANSWER_MS after the stop, and leaves no timer', async () => {
    const { gate, signals } = slowDoor(admitted);
    const start = new AbortController();
    const walk = askAdmission(gate, start.signal, line);
    await vi.advanceTimersByTimeAsync(0);
    start.abort(new Error('stopped'));
    await expect(walk).rejects.toThrow('stopped');
    await vi.advanceTimersByTimeAsync(LATE_ANSWER_MS - 1);
    expect(signals[0]?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(gate.giveBack).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its cut-off when the late answer comes, giving the call back', async () => {
    const { gate, signals, answer } = slowDoor(admitted);
    const start = new AbortController();
    const walk = askAdmission(gate, start.signal, line);
    await vi.advanceTimersByTimeAsync(0);
    start.abort(new Error('stopped'));
    await expect(walk).rejects.toThrow('stopped');
    await vi.advanceTimersByTimeAsync(LATE_ANSWER_MS - 1000);
    answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.giveBack).toHaveBeenCalledWith({ id: CALL.id, secret: CALL_SECRET });
    expect(vi.getTimerCount()).toBe(0);
    expect(signals[0]?.aborted).toBe(false);
  });

  it('leaves the line when the answer after the stop is a ticket', async () => {
    const { gate, answer } = slowDoor(waiting(2));
    const start = new AbortController();
    const walk = askAdmission(gate, start.signal, line);
    await vi.advanceTimersByTimeAsync(0);
    start.abort(new Error('stopped'));
    await expect(walk).rejects.toThrow('stopped');
    answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.leave).toHaveBeenCalledWith({
      id: 'ticket-0123456789abcdef',
      secret: 'secret-0123456789abcdef',
    });
    expect(places).toEqual([]);
  });

  it('gives back a call admitted at a check-in that was in flight', async () => {
    const gate = door();
    let admit: () => void = () => undefined;
    gate.checkIn = () =>
      new Promise((resolve) => {
        admit = () => resolve(admitted);
      });
    const start = new AbortController();
    const walk = askAdmission(gate, start.signal, line);
    await vi.advanceTimersByTimeAsync(2000);
    start.abort(new Error('stopped'));
    await expect(walk).rejects.toThrow('stopped');
    admit();
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.giveBack).toHaveBeenCalledWith({ id: CALL.id, secret: CALL_SECRET });
  });

  it('keeps the pass of a call it was admitted to, for giving it back later', async () => {
    answers.push(() => admitted);
    const call = await (async () => {
      const walk = askAdmission(door(), new AbortController().signal, line);
      await vi.advanceTimersByTimeAsync(3000);
      return walk;
    })();
    expect(passOf(call)).toEqual({ id: CALL.id, secret: CALL_SECRET });
    expect(passOf({ ...CALL })).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});
