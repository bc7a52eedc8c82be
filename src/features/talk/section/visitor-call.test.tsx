import { act, fireEvent, screen, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MICROPHONE_LABEL } from '../controls/device-picker';
import { FAILURE_REASONS } from '../recovery/start-failure';
import { DOUBLE_TAP_MS } from './talk-panel';
import { COPY_TRANSCRIPT, CallTranscript, DOWNLOAD_TRANSCRIPT } from '../controls/transcript-panel';
import {
  REPLY_WAIT_MAX_MS,
  SEND_LABEL,
  SEND_WAITING_LABEL,
  TYPE_LABEL,
} from '../thread/type-to-pepa';
import { FakeVoiceCall } from '../test/fake-voice-call';
import {
  freshSectionWorld,
  renderSection,
  renderWithVisitor,
  stubGate,
} from '../test/section-world';
import { TOASTS } from './call-view';
import { initialVoiceState, voiceReducer, type VoiceAction } from '../voice/voice-state';

let call: FakeVoiceCall;

const renderChat = () => renderSection(call);

const mainButton = (name: 'Start Talking' | 'End Call') => screen.getByRole('button', { name });
const field = () => screen.getByRole('textbox', { name: TYPE_LABEL });
const typedSends = () => call.sentMessages.filter((message) => message.type === 'add-message');

async function connected(user: ReturnType<typeof userEvent.setup>) {
  await user.click(mainButton('Start Talking'));
  call.connect();
  call.say('assistant', 'Ribbit! Welcome to my court.');
}

/** Two microphones, so the picker shows. */
function twoMicrophones() {
  const devices = [
    { kind: 'audioinput', deviceId: 'default', label: 'Built-in microphone', groupId: 'a' },
    { kind: 'audioinput', deviceId: 'headset', label: 'Headset', groupId: 'b' },
  ];
  vi.stubGlobal('navigator', {
    ...navigator,
    mediaDevices: Object.assign(new EventTarget(), {
      enumerateDevices: () => Promise.resolve(devices.slice()),
    }),
  });
}

freshSectionWorld(() => {
  call = new FakeVoiceCall();
  stubGate();
});

// Each test renders the whole panel and types through user events: generous on a busy machine.
describe('a call that respects the visitor', { timeout: 20_000 }, () => {
  it('reconnecting keeps the draft, the focus, the chosen microphone and the captions', async () => {
    twoMicrophones();
    const { user } = renderChat();
    await connected(user);
    await user.selectOptions(
      await screen.findByRole('combobox', { name: MICROPHONE_LABEL }),
      'headset',
    );
    await user.type(field(), 'Half a tho');
    expect(field()).toHaveFocus();

    call.setState('reconnecting');
    expect(screen.getByRole('status')).toHaveTextContent('Reconnecting to Pepa...');
    // The surface is the same: only what cannot work meanwhile rests.
    expect(field()).toHaveValue('Half a tho');
    expect(field()).toHaveFocus();
    expect(screen.getByRole('combobox', { name: MICROPHONE_LABEL })).toHaveValue('headset');
    expect(screen.getByRole('log', { name: 'Captions' })).toHaveTextContent('Ribbit!');
    expect(screen.getByRole('button', { name: SEND_LABEL })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Mute' })).toHaveAttribute('aria-disabled', 'true');
    // Typing goes on into the draft; Enter does not send it while there is no connection.
    await user.type(field(), 'ught{Enter}');
    expect(typedSends()).toEqual([]);

    call.setState('started');
    expect(field()).toHaveValue('Half a thought');
    expect(field()).toHaveFocus();
    expect(screen.getByRole('combobox', { name: MICROPHONE_LABEL })).toHaveValue('headset');
    await user.keyboard('{Enter}');
    expect(typedSends()).toHaveLength(1);
    expect(call.inputDevices).toEqual([{ audioDeviceId: 'headset' }]);
  });

  it('Escape in the typing field clears the draft and never ends the call', async () => {
    const { user } = renderChat();
    await connected(user);
    await user.type(field(), 'Should I');
    await user.keyboard('{Escape}');
    expect(call.ends).toBe(0);
    expect(screen.getByRole('status')).toHaveTextContent('Listening...');
    expect(field()).toHaveValue('');
    expect(field()).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(call.ends).toBe(0);
    // End Call stays one deliberate action.
    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(mainButton('End Call'));
    expect(call.ends).toBe(1);
  });

  it('a start the provider refuses keeps the last conversation, to copy or download', async () => {
    const { user } = renderChat();
    await connected(user);
    call.say('user', 'Hello Pepa!');
    call.leave();
    const transcript = () => screen.getByRole('region', { name: 'Transcript' });
    expect(transcript()).toHaveTextContent('You: Hello Pepa!');

    act(() => vi.advanceTimersByTime(DOUBLE_TAP_MS));
    await user.click(mainButton('Start Talking'));
    call.failStart({
      type: 'web-call-creation-error',
      kind: 'http',
      status: 429,
      message: 'Too many requests',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(FAILURE_REASONS.busy);
    expect(
      within(transcript())
        .getAllByRole('paragraph')
        .map((line) => line.textContent),
    ).toEqual(['Pepa: Ribbit! Welcome to my court.', 'You: Hello Pepa!']);
    expect(screen.getByRole('button', { name: COPY_TRANSCRIPT })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: DOWNLOAD_TRANSCRIPT })).toBeInTheDocument();
  });

  it('a malformed answer is said in the panel, without the microphone toast', async () => {
    const { user } = renderChat();
    await user.click(mainButton('Start Talking'));
    call.failStart({ type: 'web-call-creation-error', kind: 'malformed', message: 'unreadable' });
    expect(await screen.findByRole('alert')).toHaveTextContent(FAILURE_REASONS.malformed);
    await act(async () => vi.advanceTimersByTimeAsync(0));
    expect(screen.queryByText(TOASTS.startFailed.title)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /instead/i })).not.toBeInTheDocument();
  });

  describe('focus never falls to the page', () => {
    it('after Send, the focus is in the field for the next message', async () => {
      const { user } = renderChat();
      await connected(user);
      await user.type(field(), 'Hello');
      await user.click(screen.getByRole('button', { name: SEND_LABEL }));
      expect(typedSends()).toHaveLength(1);
      expect(field()).toHaveFocus();
    });

    it('when Pepa ends the call while the visitor types, the focus is on Start Talking', async () => {
      const { user } = renderChat();
      await connected(user);
      await user.type(field(), 'One more thing');
      call.leave();
      expect(mainButton('Start Talking')).toHaveFocus();
    });

    it("after 'Tap to hear Pepa' did its work, the focus is in the field", async () => {
      const { user } = renderChat();
      await connected(user);
      call.emit('error', { type: 'audio-playback-blocked', participantId: 'p', message: 'x' });
      await user.click(screen.getByRole('button', { name: 'Tap to hear Pepa' }));
      call.emit('audio-playback-resumed');
      expect(field()).toHaveFocus();
    });

    it('a visitor who moved the focus away is left where they went', async () => {
      const { user } = renderChat();
      await connected(user);
      await user.click(field());
      await act(async () => field().blur());
      call.leave();
      expect(document.body).toHaveFocus();
    });
  });

  describe('device choices are true', () => {
    it('a microphone that cannot be opened is refused with a reason; the picker shows the one in use', async () => {
      twoMicrophones();
      call.inputDeviceAnswer = () => Promise.reject(new Error('NotReadableError'));
      const { user } = renderChat();
      await connected(user);
      const picker = await screen.findByRole('combobox', { name: MICROPHONE_LABEL });
      await user.selectOptions(picker, 'headset');
      await act(async () => vi.advanceTimersByTimeAsync(0));
      expect(picker).toHaveValue('default');
      expect(screen.getByRole('alert')).toHaveTextContent(
        "That microphone couldn't be opened, so Pepa still hears you through Built-in microphone.",
      );
      expect(picker).toHaveAccessibleDescription(/couldn't be opened/);
    });

    it('a switch the room answers with another microphone shows that one', async () => {
      twoMicrophones();
      call.inputDeviceAnswer = () => Promise.resolve({ mic: { deviceId: 'default' } });
      const { user } = renderChat();
      await connected(user);
      const picker = await screen.findByRole('combobox', { name: MICROPHONE_LABEL });
      await user.selectOptions(picker, 'headset');
      await act(async () => vi.advanceTimersByTimeAsync(0));
      expect(picker).toHaveValue('default');
      expect(screen.getByRole('alert')).toHaveTextContent("That microphone couldn't be opened");
    });

    it('a switch the room confirms is shown, with nothing to say', async () => {
      twoMicrophones();
      call.inputDeviceAnswer = () => Promise.resolve({ mic: { deviceId: 'headset' } });
      const { user } = renderChat();
      await connected(user);
      const picker = await screen.findByRole('combobox', { name: MICROPHONE_LABEL });
      await user.selectOptions(picker, 'headset');
      await act(async () => vi.advanceTimersByTimeAsync(0));
      expect(picker).toHaveValue('headset');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });

  it('a long conversation is kept whole, greeting included, in the panel and in the download', async () => {
    const spoken = (role: 'user' | 'assistant', transcript: string): VoiceAction => ({
      type: 'message',
      message: { type: 'transcript', role, transcriptType: 'final', transcript },
    });
    const actions: VoiceAction[] = [spoken('assistant', 'Ribbit! Welcome to my court.')];
    for (let turn = 0; turn < 300; turn += 1) {
      actions.push(
        { type: 'typed', text: `Question ${turn}` },
        spoken('assistant', `Answer ${turn}`),
      );
    }
    const { transcript } = actions.reduce(voiceReducer, initialVoiceState);
    let saved: Blob | null = null;
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (blob: Blob) => {
          saved = blob;
          return 'blob:transcript';
        },
        revokeObjectURL: () => undefined,
      }),
    );
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = renderWithVisitor(<CallTranscript transcript={transcript} />);
    // Read straight from the DOM: a role query over 601 lines is slow.
    const shown = screen.getByRole('region', { name: 'Transcript' }).querySelectorAll('p');
    expect(shown).toHaveLength(601);
    expect(shown[0]).toHaveTextContent('Pepa: Ribbit! Welcome to my court.');
    await user.click(screen.getByRole('button', { name: DOWNLOAD_TRANSCRIPT }));
    const reading = new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(saved as unknown as Blob);
    });
    // The reader answers on a timer of its own.
    await act(async () => vi.advanceTimersByTimeAsync(100));
    const text = await reading;
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(601);
    expect(lines[0]).toBe('Pepa: Ribbit! Welcome to my court.');
    expect(lines.at(-1)).toBe('Pepa: Answer 299');
    clicked.mockRestore();
  }, 20_000);

  describe('typed messages are paced', () => {
    it('a flood of sends makes one message until Pepa answers, and Send says so', async () => {
      const { user } = renderChat();
      await connected(user);
      // Thirty lines, each typed and sent at once, as a script (or a stuck key) would (the browser
      // test sends 300).
      for (let press = 0; press < 30; press += 1) {
        fireEvent.change(field(), { target: { value: `Line ${press}` } });
        fireEvent.submit(field());
      }
      expect(typedSends()).toHaveLength(1);
      const send = screen.getByRole('button', { name: SEND_WAITING_LABEL });
      expect(send).toHaveAttribute('aria-disabled', 'true');
      // Nothing the visitor typed meanwhile is lost: it is the draft.
      expect(field()).not.toHaveValue('');

      call.say('assistant', 'One question at a time, little tadpole.');
      expect(screen.getByRole('button', { name: SEND_LABEL })).toBeInTheDocument();
      await user.clear(field());
      await user.type(field(), 'Sorry{Enter}');
      expect(typedSends()).toHaveLength(2);
    }, 20_000);

    it('an answer that never comes holds Send for REPLY_WAIT_MAX_MS at most', async () => {
      const { user } = renderChat();
      await connected(user);
      await user.type(field(), 'Hello?{Enter}');
      act(() => vi.advanceTimersByTime(REPLY_WAIT_MAX_MS - 100));
      await user.type(field(), 'Anyone?{Enter}');
      expect(typedSends()).toHaveLength(1);
      act(() => vi.advanceTimersByTime(100));
      await user.keyboard('{Enter}');
      expect(typedSends()).toHaveLength(2);
    });
  });
});
