import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_LIFETIME_MS, TOKEN_MARGIN_MS, TokenAhead, type Visibility } from './token-ahead';

/** A solver whose answers the test gives, counting every solve. */
function controlledSolver() {
  const pending: Array<{
    resolve(token: string): void;
    reject(error: unknown): void;
    signal: AbortSignal;
  }> = [];
  let issued = 0;
  const solve = vi.fn(
    (signal: AbortSignal) =>
      new Promise<string>((resolve, reject) => pending.push({ resolve, reject, signal })),
  );
  return {
    solve,
    pending,
    answer() {
      issued += 1;
      pending.shift()?.resolve(`token-${issued}`);
    },
  };
}

function fakeVisibility(initially = true) {
  let visible = initially;
  const listeners = new Set<() => void>();
  const visibility: Visibility = {
    visible: () => visible,
    onVisible: (run) => {
      listeners.add(run);
      return () => listeners.delete(run);
    },
  };
  return {
    visibility,
    listeners,
    show() {
      visible = true;
      for (const run of [...listeners]) run();
    },
    hide() {
      visible = false;
    },
  };
}

const flush = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

let ahead: TokenAhead | null = null;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  ahead?.dispose();
  ahead = null;
  expect(vi.getTimerCount()).toBe(0);
  vi.useRealTimers();
});

describe('a bot-check token solved ahead', () => {
  it('solves nothing for a visitor who shows no intent: the press solves its own', async () => {
    const solver = controlledSolver();
    ahead = new TokenAhead(solver.solve, fakeVisibility().visibility);
    expect(solver.solve).not.toHaveBeenCalled();
    const token = ahead.take(new AbortController().signal);
    expect(solver.solve).toHaveBeenCalledTimes(1);
    solver.answer();
    await expect(token).resolves.toBe('token-1');
    expect(ahead.ready).toBe(false);
  });

  it('keeps at most one: intent shown again and again solves once', async () => {
    const solver = controlledSolver();
    ahead = new TokenAhead(solver.solve, fakeVisibility().visibility);
    ahead.warm();
    ahead.warm();
    solver.answer();
    await flush();
    ahead.warm();
    expect(solver.solve).toHaveBeenCalledTimes(1);
    expect(ahead.ready).toBe(true);
  });

  it('hands the kept token out once and never again', async () => {
    const solver = controlledSolver();
    ahead = new TokenAhead(solver.solve, fakeVisibility().visibility);
    ahead.warm();
    solver.answer();
    await flush();
    await expect(ahead.take(new AbortController().signal)).resolves.toBe('token-1');
    const second = ahead.take(new AbortController().signal);
    expect(solver.solve).toHaveBeenCalledTimes(2);
    solver.answer();
    await expect(second).resolves.toBe('token-2');
  });

  it('a press during the solve ahead gets that solve, and it is kept for no one else', async () => {
    const solver = controlledSolver();
    ahead = new TokenAhead(solver.solve, fakeVisibility().visibility);
    ahead.warm();
    const token = ahead.take(new AbortController().signal);
    solver.answer();
    await expect(token).resolves.toBe('token-1');
    expect(ahead.ready).toBe(false);
    expect(solver.solve).toHaveBeenCalledTimes(1);
  });

  it('a press that is cancelled during the solve ahead stops that solve', async () => {
    const solver = controlledSolver();
    ahead = new TokenAhead(solver.solve, fakeVisibility().visibility);
    ahead.warm();
    const controller = new AbortController();
    const token = ahead.take(controller.signal);
    const solving = solver.pending[0]!;
    controller.abort(new Error('stopped'));
    await expect(token).rejects.toThrow('stopped');
    expect(solving.signal.aborted).toBe(true);
  });

  it('an unused token is dropped before it expires and the next one is solved', async () => {
    const solver = controlledSolver();
    ahead = new TokenAhead(solver.solve, fakeVisibility().visibility);
    ahead.warm();
    solver.answer();
    await flush();
    await vi.advanceTimersByTimeAsync(TOKEN_LIFETIME_MS - TOKEN_MARGIN_MS - 1);
    expect(ahead.ready).toBe(true);
    expect(solver.solve).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(ahead.ready).toBe(false);
    expect(solver.solve).toHaveBeenCalledTimes(2);
    solver.answer();
    await flush();
    await expect(ahead.take(new AbortController().signal)).resolves.toBe('token-2');
  });

  it('a hidden page solves nothing until it is looked at again', async () => {
    const solver = controlledSolver();
    const page = fakeVisibility(false);
    ahead = new TokenAhead(solver.solve, page.visibility);
    ahead.warm();
    expect(solver.solve).not.toHaveBeenCalled();
    page.show();
    expect(solver.solve).toHaveBeenCalledTimes(1);
    expect(page.listeners.size).toBe(0);
  });

  it('a failed solve ahead costs nothing: the press solves afresh', async () => {
    const solver = controlledSolver();
    ahead = new TokenAhead(solver.solve, fakeVisibility().visibility);
    ahead.warm();
    solver.pending.shift()?.reject(new Error('offline'));
    await flush();
    const token = ahead.take(new AbortController().signal);
    expect(solver.solve).toHaveBeenCalledTimes(2);
    solver.answer();
    await expect(token).resolves.toBe('token-1');
  });

  it('dispose leaves no timer, no watch and no solve behind', async () => {
    const solver = controlledSolver();
    const page = fakeVisibility();
    ahead = new TokenAhead(solver.solve, page.visibility);
    ahead.warm();
    solver.answer();
    await flush();
    page.hide();
    ahead.dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(page.listeners.size).toBe(0);
  });
});
