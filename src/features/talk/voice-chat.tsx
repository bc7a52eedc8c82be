import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Toaster, toast } from 'sonner';
import { siteConfig } from '../../config/site';
import type { CallError } from '../voice/call-events';
import { createPepaCall, loadCallRuntime } from './create-pepa-call';
import { CallExtras } from './call-extras';
import { DOUBLE_TAP_MS, TalkView } from './talk-view';
import { useVoiceCall, type VoiceCall, type VoiceNotifications } from './use-voice-call';
import { phaseOf } from './voice-state';

/** Warms what a call needs next (the room runtime), so pressing the button goes straight out. */
export function prefetchCallRuntime(): void {
  loadCallRuntime().catch(() => undefined);
}

/** The spec's toasts, word for word. */
export const TOASTS = {
  connected: { title: 'Connected', description: "You're now talking to Pepa!" },
  ended: { title: 'Call ended', description: 'Thanks for chatting with Pepa!' },
  error: { title: 'Error', description: 'Something went wrong with the voice call' },
  startFailed: {
    title: 'Failed to connect',
    description: 'Please check your microphone permissions',
  },
} as const;

/** A start that ended without a call: why, as the call object reported it. */
export class StartFailedError extends Error {
  constructor(readonly callError: CallError | null) {
    super(callError?.message ?? 'The call could not start');
    this.name = 'StartFailedError';
  }
}

const notifications: VoiceNotifications = {
  onConnected: () =>
    toast.success(TOASTS.connected.title, { description: TOASTS.connected.description }),
  onEnded: () => toast(TOASTS.ended.title, { description: TOASTS.ended.description }),
  onCallError: () => toast.error(TOASTS.error.title, { description: TOASTS.error.description }),
};

export interface VoiceChatProps {
  /**
   * The visitor pressed 'Start Talking' before the chat loaded (at this `performance.now()`):
   * start as soon as it is on screen.
   */
  pressedAt?: number;
  /** Which call object to use; the page's own by default. */
  createCall?: () => VoiceCall;
}

/**
 * Talk to Pepa with a live call: the web-call mutation, the call's state, toasts and controls.
 * Loaded on demand, so none of this is in the initial page bundle.
 */
export function VoiceChat({ pressedAt, createCall = createPepaCall }: VoiceChatProps) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { mutations: { retry: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <VoiceChatPanel pressedAt={pressedAt} createCall={createCall} />
      {/* In <body>, so no ancestor's stacking or clipping can hide a toast. */}
      {createPortal(
        <Toaster position="bottom-center" theme="dark" richColors closeButton />,
        document.body,
      )}
    </QueryClientProvider>
  );
}

function VoiceChatPanel({
  pressedAt,
  createCall,
}: Pick<VoiceChatProps, 'pressedAt'> & Required<Pick<VoiceChatProps, 'createCall'>>) {
  const { call, state, setMuted } = useVoiceCall(createCall, notifications, {
    // Starting at once: show it from the first frame rather than flash 'Ready to chat'.
    starting: pressedAt !== undefined,
  });
  const phase = phaseOf(state);
  const lastPress = useRef(pressedAt ?? Number.NEGATIVE_INFINITY);
  const primaryRef = useRef<HTMLButtonElement>(null);

  // The web-call mutation: the call object creates the web call through the generated client
  // and joins its room; the section awaits the whole start. One call at a time: the call
  // object refuses a second start, and the button ends a call instead of starting another.
  const startCall = useMutation({
    mutationKey: ['web-call'],
    mutationFn: async () => {
      let failure: CallError | null = null;
      const unsubscribe = call.on('call-start-failed', ({ error }) => {
        failure = error;
      });
      try {
        const started = await call.start(siteConfig.voice.assistantId);
        if (!started && failure) throw new StartFailedError(failure);
        return started;
      } finally {
        unsubscribe();
      }
    },
    onError: () =>
      toast.error(TOASTS.startFailed.title, { description: TOASTS.startFailed.description }),
  });
  const { mutate: start } = startCall;

  const endCall = useCallback(() => void call.end(), [call]);

  const onPrimary = () => {
    const now = performance.now();
    if (now - lastPress.current < DOUBLE_TAP_MS) return;
    lastPress.current = now;
    if (call.state === 'idle') start();
    else endCall();
  };

  // The visitor pressed 'Start Talking' before this chunk arrived: start now, keep the focus.
  const autoStarted = useRef(false);
  useEffect(() => {
    if (pressedAt === undefined || autoStarted.current) return;
    autoStarted.current = true;
    primaryRef.current?.focus();
    start();
  }, [pressedAt, start]);

  const inCall = phase !== 'idle';

  // Escape ends the call; leaving or hiding the page ends it and releases the microphone.
  useEffect(() => {
    if (!inCall) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) endCall();
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') endCall();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('visibilitychange', onHidden);
    window.addEventListener('pagehide', endCall);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('visibilitychange', onHidden);
      window.removeEventListener('pagehide', endCall);
    };
  }, [inCall, endCall]);

  return (
    <TalkView
      phase={phase}
      onPrimary={onPrimary}
      volume={state.volume}
      demo={siteConfig.voice.mode === 'demo'}
      primaryRef={primaryRef}
    >
      <CallExtras
        phase={phase}
        state={state}
        onToggleMute={() => setMuted(!state.muted)}
        onResumeAudio={() => void call.resumeAudio()}
      />
    </TalkView>
  );
}
