import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialVoiceState, type TalkPhase, type VoiceState } from '../voice/voice-state';
import { CALL_DOCK_LABEL, CallDock, latestWords, type CallDockProps } from './call-dock';

/** A stand-in IntersectionObserver the test drives: which elements are watched, and by whom. */
class FakeObserver {
  static live = new Set<FakeObserver>();
  readonly watched = new Set<Element>();
  constructor(
    private readonly report: (
      entries: Array<Pick<IntersectionObserverEntry, 'isIntersecting'>>,
    ) => void,
    readonly options?: IntersectionObserverInit,
  ) {
    FakeObserver.live.add(this);
  }
  observe(element: Element) {
    this.watched.add(element);
  }
  unobserve(element: Element) {
    this.watched.delete(element);
  }
  disconnect() {
    this.watched.clear();
    FakeObserver.live.delete(this);
  }
  takeRecords() {
    return [];
  }
  static show(inView: boolean) {
    act(() => {
      for (const observer of FakeObserver.live) observer.report([{ isIntersecting: inView }]);
    });
  }
}

function Section({
  phase,
  onEnd = vi.fn(),
  onToggleMute = null,
  ...rest
}: Partial<Omit<CallDockProps, 'primaryRef'>> & { phase: TalkPhase }) {
  const primaryRef = useRef<HTMLButtonElement>(null);
  return (
    <section aria-label="Talk to Pepa">
      <p role="status" data-phase={phase}>
        Listening...
      </p>
      <button ref={primaryRef} type="button">
        End Call
      </button>
      <CallDock
        phase={phase}
        status="Listening..."
        note={null}
        words=""
        muted={false}
        primaryRef={primaryRef}
        onToggleMute={onToggleMute}
        onEnd={onEnd}
        {...rest}
      />
    </section>
  );
}

const dock = () => screen.queryByRole('region', { name: CALL_DOCK_LABEL });

beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  Element.prototype.scrollIntoView = vi.fn();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  FakeObserver.live.clear();
});

describe('the docked call', () => {
  it("shows only while the section's End Call is out of view, under the navigation bar too", () => {
    render(<Section phase="listening" />);
    expect(dock()).toBeNull();
    const [observer] = FakeObserver.live;
    expect(observer?.watched.has(screen.getByRole('button', { name: 'End Call' }))).toBe(true);
    expect(observer?.options?.rootMargin).toBe('-64px 0px 0px 0px');

    FakeObserver.show(false);
    expect(dock()).not.toBeNull();
    FakeObserver.show(true);
    expect(dock()).toBeNull();
  });

  it('says the status, her latest words, and gives Mute and End Call', async () => {
    const onEnd = vi.fn();
    const onToggleMute = vi.fn();
    render(
      <Section
        phase="speaking"
        status="Pepa is speaking..."
        words="The pond is mine."
        onEnd={onEnd}
        onToggleMute={onToggleMute}
      />,
    );
    FakeObserver.show(false);
    const bar = within(dock() as HTMLElement);
    expect(
      bar.getByRole('button', { name: /Back to the call: Pepa is speaking\.\.\./ }),
    ).toBeTruthy();
    expect(bar.getByText('Pepa: The pond is mine.')).toBeTruthy();
    await userEvent.click(bar.getByRole('button', { name: 'Mute' }));
    expect(onToggleMute).toHaveBeenCalledOnce();
    await userEvent.click(bar.getByRole('button', { name: 'End Call' }));
    expect(onEnd).toHaveBeenCalledOnce();
  });

  it('says muted in place of her words, pressed, as the section says it', () => {
    render(
      <Section
        phase="listening"
        muted
        note="Muted: Pepa can't hear you"
        words="Are you there?"
        onToggleMute={vi.fn()}
      />,
    );
    FakeObserver.show(false);
    const bar = within(dock() as HTMLElement);
    expect(bar.getByText("Muted: Pepa can't hear you")).toBeTruthy();
    expect(bar.queryByText(/Are you there/)).toBeNull();
    expect(bar.getByRole('button', { name: 'Unmute' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('has no Mute where the section has none (hold to talk), and Mute rests while reconnecting', () => {
    const { rerender } = render(<Section phase="listening" />);
    FakeObserver.show(false);
    expect(within(dock() as HTMLElement).queryByRole('button', { name: /Mute/ })).toBeNull();
    const onToggleMute = vi.fn();
    rerender(<Section phase="reconnecting" onToggleMute={onToggleMute} />);
    FakeObserver.show(false);
    const mute = within(dock() as HTMLElement).getByRole('button', { name: 'Mute' });
    expect(mute.getAttribute('aria-disabled')).toBe('true');
    mute.click();
    expect(onToggleMute).not.toHaveBeenCalled();
  });

  it("brings the call back at the tap, its status just under the toasts' lane, with the focus on End Call", async () => {
    render(<Section phase="listening" />);
    FakeObserver.show(false);
    await userEvent.click(
      within(dock() as HTMLElement).getByRole('button', { name: /Back to the call/ }),
    );
    const home = screen.getAllByRole('button', { name: 'End Call' })[0] as HTMLElement;
    expect(screen.getByRole('status').scrollIntoView).toHaveBeenCalledExactlyOnceWith({
      block: 'start',
      behavior: 'instant',
    });
    expect(document.activeElement).toBe(home);
  });

  it("ends the call where its section is: the press brings the section back and the focus lands on the section's button", async () => {
    function Ending() {
      const [phase, setPhase] = useState<TalkPhase>('listening');
      return <Section phase={phase} onEnd={() => setPhase('ending')} />;
    }
    render(<Ending />);
    FakeObserver.show(false);
    await userEvent.click(within(dock() as HTMLElement).getByRole('button', { name: 'End Call' }));
    expect(dock()).toBeNull();
    const home = screen.getByRole('button', { name: 'End Call' });
    expect(screen.getByRole('status').scrollIntoView).toHaveBeenCalledOnce();
    expect(document.activeElement).toBe(home);
  });

  it('leaves with the call, and its observer with it', () => {
    const { rerender, unmount } = render(<Section phase="listening" />);
    FakeObserver.show(false);
    expect(dock()).not.toBeNull();
    rerender(<Section phase="idle" />);
    expect(dock()).toBeNull();
    expect(FakeObserver.live.size).toBe(0);
    rerender(<Section phase="waiting" />);
    expect(FakeObserver.live.size).toBe(0);
    rerender(<Section phase="connecting" />);
    expect(FakeObserver.live.size).toBe(1);
    unmount();
    expect(FakeObserver.live.size).toBe(0);
  });

  it('keeps the call in its section where the page has no observer', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<Section phase="listening" />);
    expect(dock()).toBeNull();
  });
});

describe('her latest words', () => {
  const state = (partial: string | null): VoiceState => ({
    ...initialVoiceState,
    transcript: [
      { id: 1, role: 'assistant', text: 'Welcome.' },
      { id: 2, role: 'user', text: 'Hi.' },
    ],
    partials: { ...initialVoiceState.partials, assistant: partial },
  });

  it('are what she is saying now, else her last finished remark', () => {
    expect(latestWords(state('The lily'))).toBe('The lily');
    expect(latestWords(state(null))).toBe('Welcome.');
    expect(latestWords(initialVoiceState)).toBe('');
  });
});
