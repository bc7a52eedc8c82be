import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadShareDialog } from '../share/share-button';
import {
  initialVoiceState,
  type TalkPhase,
  type TranscriptEntry,
  type VoiceState,
} from '../voice/voice-state';
import { CallControls, type CallControlsProps } from './call-controls';
import { CallTranscript, LiveCaptions, pepaRemarkPlaces } from './transcript-panel';

const CALL_ID = 'call-0123456789abcdef';
const SHARE = /^Share this remark of Pepa's/;

const LINES: TranscriptEntry[] = [
  { id: 10, role: 'assistant', text: 'Ribbit! Welcome to my court.' },
  { id: 11, role: 'user', text: 'Hello, Your Majesty.' },
  { id: 12, role: 'user', text: 'Are you a frog?', typed: true },
  { id: 13, role: 'assistant', text: 'A queen of frogs, no less.' },
];

const inCall = (transcript: TranscriptEntry[]): VoiceState => ({
  ...initialVoiceState,
  callState: 'started',
  connected: true,
  transcript,
});

describe("Pepa's remarks in a call", () => {
  it('are numbered among her own remarks only, as the provider records them', () => {
    expect([...pepaRemarkPlaces(LINES)]).toEqual([
      [10, 1],
      [13, 2],
    ]);
  });

  it("each get a Share button in the captions, the visitor's messages and words still forming none", () => {
    const open = vi.fn();
    render(
      <LiveCaptions
        state={{ ...inCall(LINES), partials: { user: null, assistant: 'And now' } }}
        share={{ callId: CALL_ID, open }}
      />,
    );
    const buttons = within(screen.getByRole('log', { name: 'Captions' })).getAllByRole('button', {
      name: SHARE,
    });
    expect(buttons.map((button) => button.closest('p')?.textContent)).toEqual([
      expect.stringContaining('Ribbit! Welcome'),
      expect.stringContaining('A queen of frogs'),
    ]);
  });

  it('each get a Share button in the transcript after the call', () => {
    render(<CallTranscript transcript={LINES} share={{ callId: CALL_ID, open: vi.fn() }} />);
    const region = screen.getByRole('region', { name: 'Transcript' });
    expect(within(region).getAllByRole('button', { name: SHARE })).toHaveLength(2);
  });

  it('have no Share button when the call cannot be shared (no gate, or no call id)', () => {
    render(<CallTranscript transcript={LINES} />);
    render(<LiveCaptions state={inCall(LINES)} />);
    expect(screen.queryByRole('button', { name: SHARE })).toBeNull();
  });
});

describe('a Share dialog opened during a call', () => {
  const asked: Request[] = [];

  beforeEach(() => {
    asked.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn((request: Request) => {
        asked.push(request.clone());
        return new Promise<Response>(() => undefined);
      }),
    );
  });

  afterEach(() => vi.unstubAllGlobals());

  const props = (phase: TalkPhase, state: VoiceState): CallControlsProps => ({
    phase,
    state,
    limitSeconds: 180,
    onToggleMute: vi.fn(),
    onResumeAudio: vi.fn(),
    onSendText: vi.fn(() => true),
    onMicrophone: vi.fn(() => Promise.resolve({ ok: true as const })),
    onSpeaker: vi.fn(() => Promise.resolve({ ok: true as const })),
    shareCallId: CALL_ID,
  });

  it("asks for her remark's place in the call, stays open as the call ends, and gives the focus to the transcript's button of that remark", async () => {
    await loadShareDialog();
    const user = userEvent.setup();
    const state = inCall(LINES);
    const view = render(<CallControls {...props('listening', state)} />);
    const captions = screen.getByRole('log', { name: 'Captions' });
    const [, second] = within(captions).getAllByRole('button', { name: SHARE });
    await user.click(second!);
    const dialog = await screen.findByRole('dialog');
    await act(async () => {
      await Promise.resolve();
    });
    expect(asked[0]?.credentials).toBe('same-origin');
    expect(await asked[0]?.json()).toEqual({ from: 'call', conversationId: CALL_ID, remark: 2 });

    view.rerender(<CallControls {...props('idle', { ...state, callState: 'idle' })} />);
    expect(screen.queryByRole('log', { name: 'Captions' })).toBeNull();
    expect(dialog).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    const transcript = screen.getByRole('region', { name: 'Transcript' });
    expect(within(transcript).getAllByRole('button', { name: SHARE })[1]).toHaveFocus();
  });
});
