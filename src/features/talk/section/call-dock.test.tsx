import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LINES, talkLines, type Microphone, type TalkSituation } from '../status/talk-lines';
import { initialVoiceState, type TalkPhase, type VoiceState } from '../voice/voice-state';
import { CALL_DOCK_LABEL, useCallDock } from './call-dock';
import { TalkPanel } from './talk-panel';

/** An IntersectionObserver the test drives: what it watches, and whether it was let go. */
class FakeObserver {
  static all: FakeObserver[] = [];
  watched: Element[] = [];
  disconnected = false;
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(element: Element) {
    this.watched.push(element);
  }
  disconnect() {
    this.disconnected = true;
    this.watched = [];
  }
  /** The watched element comes into view (true) or leaves it (false). */
  see(inView: boolean) {
    const entries = this.watched.map(
      (target) => ({ target, isIntersecting: inView }) as IntersectionObserverEntry,
    );
    act(() => this.callback(entries, this as unknown as IntersectionObserver));
  }
}

const latest = () => FakeObserver.all.at(-1)!;

const SPOKEN: VoiceState = {
  ...initialVoiceState,
  callState: 'started',
  connected: true,
  connectedAt: 1_000,
  transcript: [
    { id: 0, role: 'assistant', text: 'Ribbit! Welcome to my court.' },
    { id: 1, role: 'user', text: 'Hello' },
  ],
};

interface HarnessProps {
  phase: TalkPhase;
  state?: VoiceState;
  onToggleMute?: (() => void) | null;
  onEnd?: () => void;
}

/** The section as far as the bar needs it: its status, its End Call and the call's controls. */
function Harness({
  phase,
  state = SPOKEN,
  onToggleMute = () => {},
  onEnd = () => {},
}: HarnessProps) {
  const controlsRef = useRef<HTMLDivElement>(null);
  const primaryRef = useRef<HTMLButtonElement>(null);
  const lines = talkLines({ phase, microphone: state.muted ? 'muted' : 'open' });
  const dock = useCallDock({ phase, state, lines, controlsRef, primaryRef, onToggleMute, onEnd });
  return (
    <section aria-label="Talk to Pepa">
      <p data-phase={phase}>status</p>
      <div ref={controlsRef} data-testid="controls">
        <button ref={primaryRef} type="button">
          End Call
        </button>
      </div>
      {dock}
    </section>
  );
}

/**
 * The real section's panel (its status, hint and Escape's question) and the bar, both given the
 * one set of lines talkLines decides for the situation, as voice-chat.tsx gives them.
 */
function SectionWithDock({ situation }: { situation: TalkSituation }) {
  const controlsRef = useRef<HTMLDivElement>(null);
  const primaryRef = useRef<HTMLButtonElement>(null);
  const lines = talkLines(situation);
  const state: VoiceState = { ...SPOKEN, muted: situation.microphone === 'muted' };
  const dock = useCallDock({
    phase: situation.phase,
    state,
    lines,
    controlsRef,
    primaryRef,
    onToggleMute: () => {},
    onEnd: () => {},
  });
  return (
    <section aria-label="Talk to Pepa">
      <TalkPanel
        phase={situation.phase}
        lines={lines}
        controlsRef={controlsRef}
        primaryRef={primaryRef}
      >
        {dock}
      </TalkPanel>
    </section>
  );
}

/** Our lines that say whether (or when) Pepa hears the visitor, and Escape's question. */
const HEARING_LINES: readonly string[] = [
  LINES.muted,
  LINES.holdReleased,
  LINES.holding,
  LINES.quietMicrophone,
  LINES.confirmEnd,
];

const bar = () => screen.queryByRole('region', { name: CALL_DOCK_LABEL });
/** The section's own End Call (the bar has one too). */
const sectionEnd = () =>
  within(screen.getByTestId('controls')).getByRole('button', { name: 'End Call' });

describe('the docked call', () => {
  beforeEach(() => {
    FakeObserver.all = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    vi.stubGlobal('scrollBy', vi.fn());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows nothing and watches nothing while no call is on, wherever the section is', () => {
    render(<Harness phase="idle" />);
    expect(FakeObserver.all).toEqual([]);
    expect(bar()).toBeNull();
  });

  it('docks when the call controls leave the view, with the status, her latest words, Mute and End Call', () => {
    render(<Harness phase="listening" />);
    expect(latest().watched).toEqual([screen.getByTestId('controls')]);
    expect(bar()).toBeNull();
    latest().see(false);
    const docked = bar()!;
    expect(docked).toBeInTheDocument();
    const back = within(docked).getByRole('button', { name: /^Back to the call/ });
    expect(back).toHaveTextContent('Listening...');
    expect(within(docked).getByTestId('dock-words')).toHaveTextContent(
      'Pepa: Ribbit! Welcome to my court.',
    );
    expect(within(docked).getByRole('button', { name: 'Mute' })).toBeInTheDocument();
    expect(within(docked).getByRole('button', { name: 'End Call' })).toBeInTheDocument();
    // The section's captions already announce her words: the bar says nothing by itself.
    expect(docked.querySelector('[aria-live], [role="status"], [role="log"]')).toBeNull();
  });

  it('says what she is saying now, before her line is finished', () => {
    render(
      <Harness
        phase="speaking"
        state={{ ...SPOKEN, partials: { user: null, assistant: 'Hop over to my' } }}
      />,
    );
    latest().see(false);
    expect(screen.getByTestId('dock-words')).toHaveTextContent('Pepa: Hop over to my');
    expect(screen.getByRole('button', { name: /^Back to the call/ })).toHaveTextContent(
      'Pepa is speaking...',
    );
  });

  it('leaves when the call controls come back into view', () => {
    render(<Harness phase="listening" />);
    latest().see(false);
    expect(bar()).not.toBeNull();
    latest().see(true);
    expect(bar()).toBeNull();
  });

  it('mutes and ends the call through the section’s own handlers', async () => {
    const user = userEvent.setup();
    const onToggleMute = vi.fn();
    const onEnd = vi.fn();
    const { rerender } = render(
      <Harness phase="listening" onToggleMute={onToggleMute} onEnd={onEnd} />,
    );
    latest().see(false);
    await user.click(within(bar()!).getByRole('button', { name: 'Mute' }));
    expect(onToggleMute).toHaveBeenCalledOnce();
    rerender(
      <Harness
        phase="listening"
        state={{ ...SPOKEN, muted: true }}
        onToggleMute={onToggleMute}
        onEnd={onEnd}
      />,
    );
    expect(within(bar()!).getByRole('button', { name: 'Unmute' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(within(bar()!).getByRole('button', { name: 'End Call' }));
    expect(onEnd).toHaveBeenCalledOnce();
  });

  it('muted: the bar says what the section says, the status and the muted line, never Listening alone', () => {
    render(<SectionWithDock situation={{ phase: 'listening', microphone: 'muted' }} />);
    latest().see(false);
    const section = screen.getByRole('region', { name: 'Talk to Pepa' });
    const docked = bar()!;
    expect(within(section).getByRole('status')).toHaveTextContent(/^Listening\.\.\.$/);
    expect(within(docked).getByTestId('dock-status')).toHaveTextContent(/^Listening\.\.\.$/);
    const sectionLine = within(section).getByTestId('muted-indicator');
    expect(sectionLine).toHaveTextContent(LINES.muted);
    expect(within(docked).getByTestId('dock-note')).toHaveTextContent(
      sectionLine.textContent ?? '',
    );
    expect(within(docked).getByRole('button', { name: 'Unmute' })).toBeInTheDocument();
  });

  it('never disagrees with the section: in every docked state its status is the section’s, and so is every line of whether Pepa hears', () => {
    const phases: TalkPhase[] = ['connecting', 'listening', 'speaking', 'reconnecting'];
    const microphones: Microphone[] = ['open', 'muted', 'hold', 'holding'];
    const { rerender } = render(
      <SectionWithDock situation={{ phase: 'listening', microphone: 'open' }} />,
    );
    latest().see(false);
    for (const phase of phases)
      for (const microphone of microphones)
        for (const quiet of [false, true])
          for (const confirmingEnd of [false, true]) {
            const situation = { phase, microphone, quiet, confirmingEnd };
            rerender(<SectionWithDock situation={situation} />);
            const said = JSON.stringify(situation);
            const docked = bar()!;
            const inBar = (id: string) =>
              docked.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
            // The section's lines, each as shown (the bar is outside its paragraphs).
            const section = [...document.querySelectorAll('section p')].map(
              (line) => line.textContent,
            );
            const status = document.querySelector('section [role="status"]')?.textContent;
            expect(inBar('dock-status'), said).toBe(status);
            // Every line the bar shows is one the section shows.
            for (const line of [inBar('dock-note'), inBar('dock-confirm')])
              if (line !== null) expect(section, said).toContain(line);
            // And every line of the section's about hearing is in the bar.
            const barText = docked.textContent ?? '';
            for (const line of HEARING_LINES)
              if (section.includes(line)) expect(barText, said).toContain(line);
          }
  });

  it('offers no Mute where the section shows none (hold to talk)', () => {
    render(<Harness phase="listening" onToggleMute={null} />);
    latest().see(false);
    expect(within(bar()!).queryByRole('button', { name: /mute/i })).toBeNull();
  });

  it('returns to the call with a tap: the call is scrolled into view and the focus on End Call', async () => {
    const user = userEvent.setup();
    render(<Harness phase="listening" />);
    latest().see(false);
    await user.click(screen.getByRole('button', { name: /^Back to the call/ }));
    expect(window.scrollBy).toHaveBeenCalled();
    expect(sectionEnd()).toHaveFocus();
    latest().see(true);
    expect(bar()).toBeNull();
  });

  it('gives the focus back to the section when it leaves holding it', async () => {
    const user = userEvent.setup();
    render(<Harness phase="listening" />);
    latest().see(false);
    await user.click(within(bar()!).getByRole('button', { name: 'Mute' }));
    expect(within(bar()!).getByRole('button', { name: 'Mute' })).toHaveFocus();
    latest().see(true);
    expect(sectionEnd()).toHaveFocus();
  });

  it('leaves with the call, and lets its observer go', () => {
    const { rerender, unmount } = render(<Harness phase="listening" />);
    const observer = latest();
    observer.see(false);
    rerender(<Harness phase="idle" />);
    expect(bar()).toBeNull();
    expect(observer.disconnected).toBe(true);
    // The next call starts docked only once its controls are seen out of view.
    rerender(<Harness phase="connecting" />);
    expect(bar()).toBeNull();
    unmount();
    expect(latest().disconnected).toBe(true);
  });

  it('scrolls the call into view once when it connects, not again on every render', () => {
    const { rerender } = render(<Harness phase="connecting" state={initialVoiceState} />);
    expect(window.scrollBy).not.toHaveBeenCalled();
    rerender(<Harness phase="listening" />);
    expect(window.scrollBy).toHaveBeenCalledTimes(1);
    rerender(<Harness phase="speaking" />);
    expect(window.scrollBy).toHaveBeenCalledTimes(1);
  });

  it('measures on scroll where the engine has no IntersectionObserver, and stops with the call', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    // Frames run when the test says: one measure per frame, however many scroll events.
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (run: FrameRequestCallback) => frames.push(run));
    vi.stubGlobal('cancelAnimationFrame', () => frames.splice(0));
    const nextFrame = () => act(() => frames.splice(0).forEach((run) => run(0)));
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    const { rerender } = render(<Harness phase="listening" />);
    const controls = screen.getByTestId('controls');
    // Scrolled past: the controls are above the navigation bar.
    const box = vi
      .spyOn(controls, 'getBoundingClientRect')
      .mockReturnValue(new DOMRect(0, -400, 300, 200));
    nextFrame();
    expect(bar()).not.toBeNull();
    box.mockReturnValue(new DOMRect(0, 300, 300, 200));
    act(() => window.dispatchEvent(new Event('scroll')));
    act(() => window.dispatchEvent(new Event('scroll')));
    expect(frames).toHaveLength(1);
    nextFrame();
    expect(bar()).toBeNull();
    const scrollListener = added.mock.calls.find(([type]) => type === 'scroll')?.[1];
    rerender(<Harness phase="idle" />);
    expect(removed).toHaveBeenCalledWith('scroll', scrollListener);
    expect(removed.mock.calls.some(([type]) => type === 'resize')).toBe(true);
  });
});
