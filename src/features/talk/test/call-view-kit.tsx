// The call view's component tests share this: a stand-in call object the test drives, the gate's
// answers, and a fresh world before each test (fake timers, no toast or stub left after it).
import { screen } from '@testing-library/react';
import { FakeVoiceCall } from './fake-voice-call';
import { freshSectionWorld, jsonAnswer, renderSection, stubGate } from './section-world';

export { flush, jsonAnswer } from './section-world';

/** How long sonner shows a toast (its default), before the next in the lane may show. */
export const TOAST_SHOWN_MS = 4000;

export let call: FakeVoiceCall;

export const ADMITTED = {
  status: 'admitted',
  call: { id: 'call-1', webCallUrl: 'https://pepa.daily.co/r', maxDurationSeconds: 180 },
  waitedSeconds: 0,
};
export const waiting = (position: number, estimatedWaitSeconds: number) => ({
  status: 'waiting',
  ticket: {
    id: 'ticket-0123456789abcdef',
    secret: 'secret-0123456789abcdef',
    position,
    estimatedWaitSeconds,
    checkInBySeconds: 12,
  },
  retryAfterSeconds: 2,
});

/** Every request the page sent, answered as the gate answers them (admitted at once). */
export let sent: Request[] = [];
/** What the gate answers next, in order; admitted at once when empty. */
export let answers: Response[] = [];

export function renderChat(props: { pressedAt?: number } = {}) {
  return renderSection(call, props);
}

export const status = () => screen.getByRole('status');
export const mainButton = (name: 'Start Talking' | 'End Call') =>
  screen.getByRole('button', { name });

/**
 * A fresh world for each test of the file that calls it (a file's own hooks: test files may share
 * this module's state in one worker).
 */
export function freshCallViewWorld(): void {
  freshSectionWorld(() => {
    call = new FakeVoiceCall();
    answers = [];
    sent = stubGate(() => answers.shift() ?? jsonAnswer(ADMITTED, 201));
  });
}
