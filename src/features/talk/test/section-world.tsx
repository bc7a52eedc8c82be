// The Talk section's component tests share this: the section rendered around a stand-in call with
// a visitor who types and clicks under fake timers, fetch stubbed to answer as the gate does and
// to record what the page sent, and each test's world made fresh before it and cleared after it.
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentProps, ReactElement } from 'react';
import { toast } from 'sonner';
import { afterEach, beforeEach, vi } from 'vitest';
import { CallView } from '../section/call-view';
import type { VoiceCall } from '../voice/use-voice-call';

/** The gate's answer to a call request in the tests that do not walk its line: admitted. */
export const CALL_ADMITTED = { id: 'call-1', webCallUrl: 'https://pepa.daily.co/r' };

/** A JSON answer with `status` (and any other headers). */
export function jsonAnswer(
  body: unknown,
  status: number,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** The gate's answer to a call request: admitted at once. */
export const callAdmitted = (): Response => jsonAnswer(CALL_ADMITTED, 201);

/**
 * Stubs `fetch` until the test ends: each request the page sends is recorded, in order, in the
 * list returned, and answered by `answer` (by default, the call admitted).
 */
export function stubGate(
  answer: (request: Request) => Response | Promise<Response> = callAdmitted,
): Request[] {
  const sent: Request[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      // The generated clients pass a Request of their own.
      const request = input instanceof Request && !init ? input : new Request(input, init);
      sent.push(request);
      return answer(request);
    }),
  );
  return sent;
}

/** Renders `ui` with a visitor whose typing and clicks move the fake timers on. */
export function renderWithVisitor(ui: ReactElement) {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  return { user, ...render(ui) };
}

/** The Talk section, on `call`. */
export function renderSection(
  call: VoiceCall<{ id: string }>,
  props: Omit<ComponentProps<typeof CallView>, 'createCall'> = {},
) {
  return renderWithVisitor(<CallView createCall={() => call} {...props} />);
}

/** Lets the fake timers run `ms` on, and what they started settle. */
export async function flush(ms = 0): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/**
 * Each test of the file that calls it starts under fake timers with what `setUp` makes (its
 * stand-in call, its stub of the gate), and ends with no toast, timer or stub left behind. The
 * hooks are the file's own: test files may share a kit's module state in one worker.
 */
export function freshSectionWorld(setUp: () => void): void {
  beforeEach(() => {
    vi.useFakeTimers();
    setUp();
  });
  afterEach(() => {
    // Toasts live in the toast library's module state: cleared, so none reaches the next test.
    act(() => {
      toast.dismiss();
      vi.runOnlyPendingTimers();
    });
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}
