// The call add-ons' component tests share this: a stand-in call the test drives, the ratings the
// page sends, the scrolls it asks for, and a fresh world before each test.
import { act, screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { DOUBLE_TAP_MS } from '../section/talk-panel';
import { CallView } from '../section/call-view';
import { FakeVoiceCall } from './fake-voice-call';
import { callAdmitted, freshSectionWorld, renderWithVisitor, stubGate } from './section-world';

export const LOOK_ALIKE = 'PEPAx9kFjWq3TzR8vB2nYh5sLmC4dGtE7aUoXiKpZpump';
export const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

export let call: FakeVoiceCall;

/** A new call object for the next page the test renders (a visitor who comes back). */
export function freshCall(): void {
  call = new FakeVoiceCall();
}
export let ratings: Array<{ body: unknown }>;
let ratingStatus: number;

/** How the gate answers the ratings sent from now on. */
export function answerRatingsWith(status: number): void {
  ratingStatus = status;
}
export let scrolled: Array<{ id: string; behavior: ScrollBehavior | undefined }>;

/**
 * A fresh world for each test of the file that calls it (a file's own hooks: test files may share
 * this module's state in one worker).
 */
export function freshAddOnsWorld(): void {
  freshSectionWorld(() => {
    call = new FakeVoiceCall();
    ratings = [];
    ratingStatus = 204;
    scrolled = [];
    window.localStorage.clear();
    stubGate(async (request) => {
      if (!request.url.endsWith('/api/ratings')) return callAdmitted();
      ratings.push({ body: JSON.parse(await request.text()) });
      return new Response(null, { status: ratingStatus });
    });
    Element.prototype.scrollIntoView = function (
      this: Element,
      options?: ScrollIntoViewOptions | boolean,
    ) {
      scrolled.push({
        id: this.id,
        behavior: typeof options === 'object' ? options.behavior : undefined,
      });
    };
  });
}

/** The page around the panel: the sections Pepa may show. */
export function renderPage() {
  return renderWithVisitor(
    <>
      <section id="pond" aria-label="Pond">
        Pond
      </section>
      <CallView createCall={() => call} />
    </>,
  );
}

export async function startCall(user: ReturnType<typeof userEvent.setup>, id = 'call-1') {
  await user.click(screen.getByRole('button', { name: 'Start Talking' }));
  call.connect(id);
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

export async function endCall(user: ReturnType<typeof userEvent.setup>) {
  act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
  await user.click(screen.getByRole('button', { name: 'End Call' }));
}
