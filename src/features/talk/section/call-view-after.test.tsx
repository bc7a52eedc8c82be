import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { QUIET_MIC_HINT_MS } from '../controls/call-controls';
import { MICROPHONE_LABEL } from '../controls/device-picker';
import {
  COPY_TRANSCRIPT,
  DOWNLOAD_TRANSCRIPT,
  TRANSCRIPT_COPIED,
  TRANSCRIPT_COPY_REFUSED,
} from '../controls/transcript-panel';
import { DOUBLE_TAP_MS } from './talk-panel';
import { FAILURE_REASONS } from '../recovery/start-failure';
import { TOASTS } from './call-view';
import { CUE_TEXT, QUESTIONS } from '../status/panel-texts';
import {
  TOAST_SHOWN_MS,
  call,
  waiting,
  jsonAnswer,
  answers,
  renderChat,
  status,
  mainButton,
  flush,
  freshCallViewWorld,
} from '../test/call-view-kit';

freshCallViewWorld();

describe('CallView, after and around a call', () => {
  it('keeps the whole transcript after the call, to copy or download, until the next call', async () => {
    const createObjectURL = vi.fn(() => 'blob:transcript');
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const { user } = renderChat();
    // user-event installs its own clipboard; watch what the page writes to it.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('message', {
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'Ribbit! Welcome.',
    });
    call.emit('message', {
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: 'Hello Pepa!',
    });
    call.leave();
    const transcript = screen.getByRole('region', { name: 'Transcript' });
    expect(
      within(transcript)
        .getAllByRole('paragraph')
        .map((p) => p.textContent),
    ).toEqual(['Pepa: Ribbit! Welcome.', 'You: Hello Pepa!']);

    await user.click(screen.getByRole('button', { name: COPY_TRANSCRIPT }));
    expect(writeText).toHaveBeenCalledWith('Pepa: Ribbit! Welcome.\nYou: Hello Pepa!');
    await act(async () => undefined);
    expect(screen.getByText(TRANSCRIPT_COPIED)).toBeInTheDocument();

    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: DOWNLOAD_TRANSCRIPT }));
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    act(() => vi.runOnlyPendingTimers());
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:transcript');
    clicked.mockRestore();

    await user.click(mainButton('Start Talking'));
    expect(screen.queryByRole('region', { name: 'Transcript' })).not.toBeInTheDocument();
  });

  it('selects the transcript for the visitor when the browser refuses the clipboard', async () => {
    const { user } = renderChat();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('message', {
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: 'Hello Pepa!',
    });
    call.leave();
    await user.click(screen.getByRole('button', { name: COPY_TRANSCRIPT }));
    expect(await screen.findByText(TRANSCRIPT_COPY_REFUSED)).toBeInTheDocument();
    expect(window.getSelection()?.toString()).toContain('Hello Pepa!');
  });

  it('after a refused microphone, offers no call without it: the way to talk meanwhile is the text chat', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.failStart({ type: 'microphone-permission-denied', message: 'Permission denied' });
    expect(await screen.findByRole('note')).toHaveTextContent(/microphone is blocked/);
    expect(screen.queryByRole('button', { name: /instead/i })).not.toBeInTheDocument();
    expect(call.starts).toEqual(['start']);
  });

  it('with no microphone at all, says so without blaming permissions', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.failStart({ type: 'microphone-missing', message: 'Requested device not found' });
    expect(await screen.findByText(FAILURE_REASONS.noMicrophone)).toBeInTheDocument();
    expect(screen.queryByText(TOASTS.startFailed.description)).not.toBeInTheDocument();
    expect(screen.queryByText(/microphone is blocked/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /instead/i })).not.toBeInTheDocument();
  });

  it('lets the visitor pick a microphone, and follows a device that goes away', async () => {
    const devices = [
      { kind: 'audioinput', deviceId: 'default', label: 'Default microphone', groupId: 'a' },
      { kind: 'audioinput', deviceId: 'headset', label: 'Headset', groupId: 'b' },
    ];
    const media = new EventTarget();
    vi.stubGlobal('navigator', {
      ...navigator,
      mediaDevices: Object.assign(media, {
        enumerateDevices: () => Promise.resolve(devices.slice()),
      }),
    });
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    const picker = await screen.findByRole('combobox', { name: MICROPHONE_LABEL });
    await user.selectOptions(picker, 'headset');
    expect(call.inputDevices).toEqual([{ audioDeviceId: 'headset' }]);
    // The headset is unplugged: back to the default microphone.
    devices.pop();
    devices.push({ kind: 'audioinput', deviceId: 'usb', label: 'USB mic', groupId: 'c' });
    await act(async () => {
      media.dispatchEvent(new Event('devicechange'));
    });
    expect(call.inputDevices).toEqual([{ audioDeviceId: 'headset' }, { audioDeviceId: 'default' }]);
    expect(screen.getByRole('combobox', { name: MICROPHONE_LABEL })).toHaveValue('default');
  });

  it("says it can't hear the visitor after a quiet spell, and stops saying it once they speak", async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    act(() => vi.advanceTimersByTime(QUIET_MIC_HINT_MS - 100));
    expect(screen.queryByText(/can't hear you/)).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.getByText(/We can't hear you/)).toBeInTheDocument();
    call.emit('local-volume-level', { volume: 0.4 });
    expect(screen.queryByText(/can't hear you/)).not.toBeInTheDocument();
  });

  it('offers a tap to hear Pepa when the browser blocks her audio', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('error', {
      type: 'audio-playback-blocked',
      participantId: 'pepa',
      message: 'NotAllowedError',
    });
    expect(screen.queryByText(TOASTS.error.title)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Tap to hear Pepa' }));
    expect(call.resumeAudio).toHaveBeenCalledTimes(1);
    call.emit('audio-playback-resumed');
    expect(screen.queryByRole('button', { name: 'Tap to hear Pepa' })).not.toBeInTheDocument();
  });

  it('ends the call on a second Escape and when the page is left, but not when it is hidden', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    await user.keyboard('{Escape}');
    expect(call.ends).toBe(0);
    expect(screen.getByText(QUESTIONS.end)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(call.ends).toBe(1);

    vi.advanceTimersByTime(500);
    await user.click(mainButton('Start Talking'));
    call.connect();
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(call.ends).toBe(1);
    expect(status()).toHaveTextContent('Listening...');
    visibility.mockRestore();

    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(call.ends).toBe(2);
    expect(status()).toHaveTextContent('Ready to chat');
  });

  it("shows one 'Connected' and one 'Call ended' per call, however often the call reports them", async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    call.emit('call-start');
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(mainButton('End Call'));
    call.emit('call-end');
    expect(await screen.findAllByText(TOASTS.ended.title)).toHaveLength(1);
    expect(screen.queryAllByText(TOASTS.connected.title).length).toBeLessThanOrEqual(1);
    // The next call has toasts of its own.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(TOAST_SHOWN_MS);
    });
    await user.click(mainButton('Start Talking'));
    call.connect();
    expect(await screen.findByText(TOASTS.connected.title)).toBeInTheDocument();
  });

  it('asks before leaving the line, politely, and a second Escape leaves it', async () => {
    answers.push(jsonAnswer(waiting(5, 30), 202));
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    await flush();
    await user.keyboard('{Escape}');
    const question = screen.getByText(QUESTIONS.leave);
    expect(question).toHaveAttribute('aria-live', 'polite');
    expect(call.signal?.aborted).toBe(false);
    await user.keyboard('{Escape}');
    expect(call.signal?.aborted).toBe(true);
    expect(status()).toHaveTextContent('Ready to chat');
  });

  it("says the question in the hint's place for 5 s, then the hint again, the call going on", async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    await user.keyboard('{Escape}');
    expect(screen.getByText(QUESTIONS.end)).toBeInTheDocument();
    expect(screen.queryByText('Speak naturally, Pepa is all ears')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByText(QUESTIONS.end)).not.toBeInTheDocument();
    expect(screen.getByText('Speak naturally, Pepa is all ears')).toBeInTheDocument();
    expect(call.ends).toBe(0);
    expect(status()).toHaveTextContent('Listening...');
  });

  it('muted, says so in the hint and never that Pepa hears the visitor', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    expect(screen.getByTestId('turn-cue')).toHaveTextContent(CUE_TEXT.hears);
    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(screen.getByText("Muted: Pepa can't hear you")).toBeInTheDocument();
    expect(screen.queryByText(/Pepa hears you/)).not.toBeInTheDocument();
    expect(screen.queryByText('Speak naturally, Pepa is all ears')).not.toBeInTheDocument();
  });

  it("after a call keeps the call's room, so what it left takes the controls' place", async () => {
    const { user, container } = renderChat();
    expect(container.querySelector('[data-call-room]')).toBeNull();
    await user.click(mainButton('Start Talking'));
    await flush();
    call.connect();
    expect(container.querySelector('[data-call-room]')).not.toBeNull();
    call.emit('message', {
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'Ribbit.',
    });
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(mainButton('End Call'));
    expect(status()).toHaveTextContent('Ready to chat');
    expect(screen.getByRole('region', { name: 'Transcript' })).toBeInTheDocument();
    expect(container.querySelector('[data-call-room]')).not.toBeNull();
  });

  it('ends a call still getting ready when the page is left, so the provider hears it end', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    expect(call.state).toBe('starting');
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(call.ends).toBe(1);
  });

  it('does not end the call for an Escape that something else handled', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    const handled = (event: KeyboardEvent) => event.preventDefault();
    document.addEventListener('keydown', handled, true);
    await user.keyboard('{Escape}');
    document.removeEventListener('keydown', handled, true);
    expect(call.ends).toBe(0);
    expect(status()).toHaveTextContent('Listening...');
  });

  it('stops the call and leaves no timer or listener behind when the section goes away', async () => {
    const { user, unmount } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.connect();
    await flush();
    unmount();
    expect(call.stops).toBeGreaterThanOrEqual(1);
    expect(call.listenerCount()).toBe(0);
    vi.runOnlyPendingTimers();
    vi.clearAllTimers();
    expect(vi.getTimerCount()).toBe(0);
  });
});
