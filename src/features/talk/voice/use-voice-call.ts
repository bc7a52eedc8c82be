import { useEffect, useReducer, useState } from 'react';
import type {
  CallEvents,
  CallError,
  ClientMessage,
  ServerMessage,
  WebCallRequest,
  DailyLikeInputDevices,
  StartOutcome,
  StartWithOptions,
} from '../../../lib/call';
import type { Handler } from 'mitt';
import { initialVoiceState, voiceReducer, type VoiceState } from './voice-state';

/** Failures of the room's optional set-up, which never end or spoil a call. */
const OPTIONAL_SETUP_ERRORS: ReadonlySet<CallError['type']> = new Set([
  'audio-observer-setup-error',
  'audio-processing-setup-error',
]);

/** What the section needs of the call object: its events and its verbs. */
export interface VoiceCall<TCall = unknown> {
  readonly state: CallEvents['state-change']['state'];
  on<K extends keyof CallEvents>(type: K, handler: Handler<CallEvents[K]>): () => void;
  /**
   * Joins the web call `request` creates; its signal aborts the request when stopped, and it
   * reports its place while it waits in line.
   */
  startWith(
    request: WebCallRequest<TCall>,
    options?: Pick<StartWithOptions, 'unjoined'>,
  ): Promise<StartOutcome<TCall>>;
  stop(): Promise<void>;
  end(): Promise<void>;
  setMuted(muted: boolean): void;
  resumeAudio(): Promise<boolean>;
  send(message: ClientMessage): void;
  setInputDevicesAsync(devices: DailyLikeInputDevices): Promise<unknown>;
  setOutputDeviceAsync(device: { outputDeviceId: string }): Promise<unknown>;
}

/** What the section can do to the call besides its verbs, each also reflected in the state. */
export interface VoiceCallControls {
  setMuted(muted: boolean): void;
  /** Says `text` to Pepa as the visitor's typed message; Pepa answers it. False: it did not go out. */
  sendText(text: string): boolean;
}

/** What the UI is told besides state changes: the toasts' triggers. */
export interface VoiceNotifications {
  onConnected(): void;
  onEnded(): void;
  /** An error during a connected call (start failures are reported by the start itself). */
  onCallError(error: CallError): void;
}

/**
 * The thin bridge from the call object to React: subscribes to its events in an effect,
 * reduces them into the state the section shows, and unsubscribes (and stops any call) when
 * the section goes away.
 */
export function useVoiceCall<TCall>(
  createCall: () => VoiceCall<TCall>,
  notifications: VoiceNotifications,
  options: {
    starting?: boolean;
    /** What a server message may show (captions guarded), before the state ever holds it. */
    screenMessage?: (message: ServerMessage) => ServerMessage;
  } = {},
): { call: VoiceCall<TCall>; state: VoiceState } & VoiceCallControls {
  const [call] = useState(createCall);
  const [state, dispatch] = useReducer(voiceReducer, options.starting ?? false, (starting) =>
    starting ? { ...initialVoiceState, callState: 'starting' as const } : initialVoiceState,
  );
  const [notify] = useState(() => ({ current: notifications }));
  notify.current = notifications;
  const [screen] = useState(() => ({ current: options.screenMessage }));
  screen.current = options.screenMessage;

  useEffect(() => {
    const now = () => Date.now();
    const unsubscribes = [
      call.on('state-change', ({ state: next }) => dispatch({ type: 'state-change', state: next })),
      call.on('network-quality-change', ({ state: quality }) =>
        dispatch({ type: 'network-quality', quality }),
      ),
      call.on('call-start', () => {
        dispatch({ type: 'call-start', at: now() });
        notify.current.onConnected();
      }),
      call.on('call-end', () => {
        dispatch({ type: 'call-end' });
        notify.current.onEnded();
      }),
      call.on('speech-start', () => dispatch({ type: 'speech-start' })),
      call.on('speech-end', () => dispatch({ type: 'speech-end' })),
      call.on('volume-level', ({ volume }) => dispatch({ type: 'volume-level', volume })),
      call.on('local-volume-level', ({ volume }) =>
        dispatch({ type: 'local-volume-level', volume, at: now() }),
      ),
      call.on('message', (message) =>
        dispatch({ type: 'message', message: screen.current?.(message) ?? message }),
      ),
      call.on('call-start-failed', ({ error }) => dispatch({ type: 'start-failed', error })),
      call.on('line-update', (place) => dispatch({ type: 'line', place })),
      call.on('audio-playback-resumed', () => dispatch({ type: 'audio-resumed' })),
      call.on('error', (error) => {
        if (error.type === 'audio-playback-blocked') {
          dispatch({ type: 'audio-blocked' });
        } else if (OPTIONAL_SETUP_ERRORS.has(error.type)) {
          // The room's optional set-up may finish after Pepa listens; the call goes on without it.
        } else if (call.state === 'started' || call.state === 'reconnecting') {
          notify.current.onCallError(error);
          // A call lost for good is said in the panel too, once it is over.
          if (error.type === 'reconnect-error') dispatch({ type: 'start-failed', error });
        }
      }),
    ];
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
      void call.stop();
    };
  }, [call, notify, screen]);

  const [controls] = useState<VoiceCallControls>(() => ({
    setMuted: (muted) => {
      try {
        call.setMuted(muted);
      } catch {
        return;
      }
      dispatch({ type: 'muted', muted });
    },
    sendText: (text) => {
      try {
        call.send({
          type: 'add-message',
          message: { role: 'user', content: text },
          triggerResponseEnabled: true,
        });
      } catch {
        // The call ended as the visitor pressed Send: there is no one to say it to.
        return false;
      }
      dispatch({ type: 'typed', text });
      return true;
    },
  }));

  return { call, state, ...controls };
}
