import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { HOLD_BUTTON_LABEL, HOLD_MODE_LABEL } from '../controls/hold-to-talk';
import { MICROPHONE_LABEL } from '../controls/device-picker';
import { partialCaption } from '../test/fake-voice-call';
import { SEND_LABEL, TYPE_LABEL } from '../thread/type-to-pepa';
import { TALK_MODE_KEY } from '../controls/use-hold-to-talk';
import { THINKING_MAX_MS } from '../controls/use-turn-cue';
import { CUE_TEXT } from '../status/panel-texts';
import { call, freshCall, renderPage, startCall, freshAddOnsWorld } from '../test/call-add-ons-kit';

freshAddOnsWorld();

describe('hold to talk', () => {
  it('mutes except while the visitor holds (pointer or Space), and remembers the mode', async () => {
    const { user, unmount } = renderPage();
    await startCall(user);
    expect(call.muted).toEqual([]);
    const modeSwitch = screen.getByRole('switch', { name: HOLD_MODE_LABEL });
    await user.click(modeSwitch);
    expect(modeSwitch).toHaveAttribute('aria-checked', 'true');
    expect(window.localStorage.getItem(TALK_MODE_KEY)).toBe('hold');
    expect(call.muted).toEqual([true]);
    // Mute gives way to the hold button; the 'Muted' hint to the hold hint.
    expect(screen.queryByRole('button', { name: 'Mute' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('muted-indicator')).not.toBeInTheDocument();

    const hold = screen.getByRole('button', { name: HOLD_BUTTON_LABEL });
    expect(hold).toHaveAttribute('aria-pressed', 'false');
    fireEvent.pointerDown(hold, { button: 0, pointerId: 1 });
    expect(hold).toHaveAttribute('aria-pressed', 'true');
    expect(call.muted).toEqual([true, false]);
    fireEvent.pointerUp(hold, { button: 0, pointerId: 1 });
    expect(hold).toHaveAttribute('aria-pressed', 'false');
    expect(call.muted).toEqual([true, false, true]);

    // Space while the focus is in the panel holds too.
    hold.focus();
    fireEvent.keyDown(hold, { key: ' ', code: 'Space' });
    fireEvent.keyDown(hold, { key: ' ', code: 'Space', repeat: true });
    expect(call.muted).toEqual([true, false, true, false]);
    fireEvent.keyUp(hold, { key: ' ', code: 'Space' });
    expect(call.muted).toEqual([true, false, true, false, true]);

    // Space in the typing field types a space.
    fireEvent.keyDown(screen.getByRole('textbox', { name: TYPE_LABEL }), {
      key: ' ',
      code: 'Space',
    });
    expect(call.muted).toHaveLength(5);

    unmount();
    freshCall();
    const again = renderPage();
    await startCall(again.user, 'call-2');
    expect(screen.getByRole('switch', { name: HOLD_MODE_LABEL })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(call.muted).toEqual([true]);
  });

  it('keeps the microphone muted across a device switch and a reconnect in hold mode', async () => {
    window.localStorage.setItem(TALK_MODE_KEY, 'hold');
    const devices = [
      { kind: 'audioinput', deviceId: 'default', label: 'Default microphone', groupId: 'a' },
      { kind: 'audioinput', deviceId: 'headset', label: 'Headset', groupId: 'b' },
    ];
    vi.stubGlobal('navigator', {
      ...navigator,
      mediaDevices: Object.assign(new EventTarget(), {
        enumerateDevices: () => Promise.resolve(devices.slice()),
      }),
    });
    const { user } = renderPage();
    await startCall(user);
    expect(call.muted).toEqual([true]);
    await user.selectOptions(
      await screen.findByRole('combobox', { name: MICROPHONE_LABEL }),
      'headset',
    );
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(call.inputDevices).toEqual([{ audioDeviceId: 'headset' }]);
    // The new device's track comes muted, as the mode says.
    expect(call.muted).toEqual([true, true]);

    // Through a reconnect the hold button stays, and a hold still opens the microphone.
    call.setState('reconnecting');
    call.setState('started');
    const hold = screen.getByRole('button', { name: HOLD_BUTTON_LABEL });
    fireEvent.pointerDown(hold, { button: 0, pointerId: 1 });
    expect(call.muted.at(-1)).toBe(false);
    fireEvent.pointerUp(hold, { button: 0, pointerId: 1 });
    expect(call.muted.at(-1)).toBe(true);
  });

  it('gives the microphone back when the visitor leaves hold mode', async () => {
    window.localStorage.setItem(TALK_MODE_KEY, 'hold');
    const { user } = renderPage();
    await startCall(user);
    expect(call.muted).toEqual([true]);
    await user.click(screen.getByRole('switch', { name: HOLD_MODE_LABEL }));
    expect(call.muted).toEqual([true, false]);
    expect(screen.getByRole('button', { name: 'Mute' })).toBeInTheDocument();
  });
});

describe('her thinking made visible', () => {
  it("shows listening, thinking from the visitor's end of speech to Pepa's first audio, then speaking", async () => {
    const { user } = renderPage();
    await startCall(user);
    const cue = screen.getByTestId('turn-cue');
    expect(cue).toHaveTextContent(CUE_TEXT.hears);
    call.message({ type: 'speech-update', status: 'stopped', role: 'user' });
    expect(cue).toHaveTextContent(CUE_TEXT.thinking);
    // The spec's status stays word for word.
    expect(screen.getByRole('status')).toHaveTextContent('Listening...');
    call.emit('speech-start');
    expect(cue).toHaveTextContent(CUE_TEXT.speaking);
    expect(screen.getByRole('status')).toHaveTextContent('Pepa is speaking...');
    call.emit('speech-end');
    expect(cue).toHaveTextContent(CUE_TEXT.hears);
  });

  it('ends the thought when her answer runs on from her last remark without a pause', async () => {
    const { user } = renderPage();
    await startCall(user);
    call.emit('speech-start');
    await user.type(screen.getByRole('textbox', { name: TYPE_LABEL }), 'Hello');
    await user.click(screen.getByRole('button', { name: SEND_LABEL }));
    // Her level never fell long enough for a speech-end: no new speech-start either.
    call.message({ type: 'speech-update', status: 'started', role: 'assistant' });
    call.message(partialCaption('assistant', 'Ribbit, hello'));
    call.emit('speech-end');
    expect(screen.getByTestId('turn-cue')).toHaveTextContent(CUE_TEXT.hears);
  });

  it('thinks after a typed message, and stops showing a thought that never turns into speech', async () => {
    const { user } = renderPage();
    await startCall(user);
    await user.type(screen.getByRole('textbox', { name: TYPE_LABEL }), 'Hello');
    await user.click(screen.getByRole('button', { name: SEND_LABEL }));
    expect(screen.getByTestId('turn-cue')).toHaveTextContent(CUE_TEXT.thinking);
    act(() => vi.advanceTimersByTime(THINKING_MAX_MS));
    const cue = screen.getByTestId('turn-cue');
    expect(cue).toHaveAttribute('data-cue', 'listening');
    // The microphone was silent all along: her turn is offered, not that she hears the visitor.
    expect(cue).toHaveTextContent(CUE_TEXT.yourTurn);
  });
});
