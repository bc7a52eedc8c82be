/**
 * The voice chat: the part of the Talk section loaded on demand, as a chunk of its own
 * (`voice-chat-*.js`), once the visitor shows interest: the web-call mutation, the call's state,
 * the toasts, and the panel (talk-panel.tsx) live, with the visitor's controls (CallControls) and
 * the call's add-ons (call-add-ons.tsx). Before it loads, talk-section.tsx renders the same panel
 * idle.
 */
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Toaster, toast } from 'sonner';
import { chatHeaders, createCallMutation, giveBackUnjoined } from '../../../api/gate-client';
import { siteConfig } from '../../../config/site';
import type { StartOutcome } from '../../../lib/call';
import {
  createPepaCall,
  loadRoomFactory,
  pageWebCallRequest,
  prefetchBotCheck,
  preconnectRoomService,
} from '../voice/voice-runtime';
import { CallControls } from '../controls/call-controls';
import { useCallAddOns } from './call-add-ons';
import { useCaptionGuard } from '../guards/use-caption-guard';
import { DOUBLE_TAP_MS, TalkPanel } from './talk-panel';
import { CHAT_PANEL_ATTRIBUTE, isCode, useTextMode } from './text-mode';
import { useVoiceCall, type VoiceCall, type VoiceNotifications } from '../voice/use-voice-call';
import { useWakeLock } from '../voice/use-wake-lock';
import { switchMicrophone, switchSpeaker } from '../controls/device-switch';
import { MicrophoneBlockedNote } from '../recovery/microphone-note';
import { useFocusRescue } from '../recovery/focus-rescue';
import { TYPE_FIELD_ATTRIBUTE } from '../thread/type-to-pepa';
import { StartFailureNotice } from '../recovery/start-failure-notice';
import { cooldownMs, describeStartFailure } from '../recovery/start-failure';
import { phaseOf, transcriptAfterCall } from '../voice/voice-state';
import { callEntries } from '../thread/thread';

export { warmTextMode } from './text-mode';

/** Warms what a call needs next (the room runtime), so pressing the button goes straight out. */
export function prefetchCallRuntime(): void {
  preconnectRoomService();
  loadRoomFactory().catch(() => undefined);
  prefetchBotCheck();
}

/** React Query's key for the page's one mutation, `POST /api/calls` (the court gate). */
export const WEB_CALL_MUTATION_KEY = ['web-call'] as const;

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

/** Toasts keep clear of the fixed navigation bar (4rem tall) and of the screen's bottom edge. */
const TOAST_OFFSET = { top: 'calc(4rem + 12px)', bottom: '16px' };

type ToastPosition = 'top-center' | 'bottom-center';

/** The band a top toast takes: below the navigation bar (4rem + 12px), one toast tall. */
const TOP_TOAST_BAND_PX = 64 + 12 + 110;

/**
 * Where a toast covers none of the call controls. What the panel adds under the button (the
 * microphone help, typing instead, the transcript) grows downward, often after the toast shows;
 * so the toast goes to the top whenever the controls start below the top toast's band, and to the
 * bottom only when they reach up into it. Measured when a toast is about to show, since the
 * visitor may have scrolled.
 */
export function toastPositionAwayFrom(controls: Element | null): ToastPosition {
  if (!controls) return 'top-center';
  return controls.getBoundingClientRect().top >= TOP_TOAST_BAND_PX ? 'top-center' : 'bottom-center';
}

function notificationsFor(place: () => void): VoiceNotifications {
  return {
    onConnected: () => {
      place();
      toast.success(TOASTS.connected.title, { description: TOASTS.connected.description });
    },
    onEnded: () => {
      place();
      toast(TOASTS.ended.title, { description: TOASTS.ended.description });
    },
    onCallError: () => {
      place();
      toast.error(TOASTS.error.title, { description: TOASTS.error.description });
    },
  };
}

export interface VoiceChatProps {
  /**
   * The visitor pressed 'Start Talking' before the chat loaded (at this `performance.now()`):
   * start as soon as it is on screen.
   */
  pressedAt?: number;
  /** Which call object to use; the page's own by default. */
  createCall?: () => VoiceCall;
  /** The visitor chose to type with Pepa before the chat loaded: open the chat at once. */
  openText?: boolean;
}

/**
 * Talk to Pepa with a live call: the web-call mutation, the call's state, toasts and controls.
 * Loaded on demand, so none of this is in the initial page bundle.
 */
export function VoiceChat({
  pressedAt,
  createCall = createPepaCall,
  openText = false,
}: VoiceChatProps) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { mutations: { retry: false } } }),
  );
  const [toastPosition, setToastPosition] = useState<ToastPosition>('top-center');
  return (
    <QueryClientProvider client={queryClient}>
      <VoiceChatPanel
        pressedAt={pressedAt}
        createCall={createCall}
        openText={openText}
        onPlaceToasts={(controls) => setToastPosition(toastPositionAwayFrom(controls))}
      />
      {/* In <body>, so no ancestor's stacking or clipping can hide a toast; placed away from the
          call controls, so a toast never covers the button, Mute or the microphone help. */}
      {createPortal(
        <Toaster
          position={toastPosition}
          offset={TOAST_OFFSET}
          mobileOffset={TOAST_OFFSET}
          theme="dark"
          richColors
          closeButton
        />,
        document.body,
      )}
    </QueryClientProvider>
  );
}

function VoiceChatPanel({
  pressedAt,
  createCall,
  openText,
  onPlaceToasts,
}: Pick<VoiceChatProps, 'pressedAt'> &
  Required<Pick<VoiceChatProps, 'createCall' | 'openText'>> & {
    onPlaceToasts(controls: Element | null): void;
  }) {
  const controlsRef = useRef<HTMLDivElement>(null);
  const placeToasts = () => onPlaceToasts(controlsRef.current);
  const guard = useCaptionGuard();
  const { call, state, setMuted, sendText } = useVoiceCall(
    createCall,
    notificationsFor(placeToasts),
    {
      // Starting at once: show it from the first frame rather than flash 'Ready to chat'.
      starting: pressedAt !== undefined,
      screenMessage: guard.screenMessage,
    },
  );
  const phase = phaseOf(state);
  const addOns = useCallAddOns({
    call,
    phase,
    setMuted,
    sendText,
    guard,
    panelRef: controlsRef,
  });
  const lastPress = useRef(pressedAt ?? Number.NEGATIVE_INFINITY);
  const primaryRef = useRef<HTMLButtonElement>(null);
  const failuresInARow = useRef(0);
  // After a failure the provider asked us to wait, or we back off: Start rests until then.
  const [cooldownUntil, setCooldownUntil] = useState<number | null>(null);
  const endCooldown = useCallback(() => setCooldownUntil(null), []);

  // The call's mutation as the gate's generated client describes it: React Query sends
  // POST /api/calls (once per start; the call object's signal aborts it when the visitor stops),
  // the section awaits it and walks the line it may be given, and the call object joins the call
  // the gate admits. One call at a time: the call object refuses a second start, and the button
  // ends a call (or leaves the line) instead of starting another.
  const { mutateAsync: askGate } = useMutation({
    ...createCallMutation(),
    mutationKey: WEB_CALL_MUTATION_KEY,
  });
  // Typing with Pepa beside the call: the chat goes with every request for a call, so the call
  // is given what was said; while the visitor chats, their turn in line waits for their tap.
  const text = useTextMode(
    openText && siteConfig.voice.route === 'gate',
    siteConfig.voice.route === 'gate' &&
      (phase === 'waiting' || (phase === 'idle' && isCode(state.failure, 'court-full'))),
    // A call joined: the chat so far stands above its lines in the one thread.
    phase === 'listening' || phase === 'speaking' || phase === 'reconnecting',
  );
  const { companion, onStart: onTextStart } = text;
  const request = useMemo(
    () =>
      pageWebCallRequest(
        (botCheckToken, signal) =>
          askGate({
            body: { botCheckToken },
            headers: chatHeaders(companion.chat()),
            signal,
          }),
        companion,
      ),
    [askGate, companion],
  );
  const onOutcome = (outcome: StartOutcome<unknown>) => {
    text.onStartOutcome(outcome);
    if (outcome.status === 'started') {
      failuresInARow.current = 0;
      addOns.onStarted(outcome.call);
    }
    if (outcome.status !== 'failed') return;
    const view = describeStartFailure(outcome.error.cause);
    failuresInARow.current += 1;
    const waitMs = cooldownMs(failuresInARow.current, view.retryAfterMs);
    setCooldownUntil(waitMs > 0 ? Date.now() + waitMs : null);
    if (view.microphoneToast) {
      placeToasts();
      toast.error(TOASTS.startFailed.title, { description: TOASTS.startFailed.description });
    }
  };
  const outcomeHandler = useRef(onOutcome);
  outcomeHandler.current = onOutcome;
  const start = useCallback(() => {
    onTextStart();
    void call
      .startWith(request, { unjoined: giveBackUnjoined })
      .then((outcome) => outcomeHandler.current(outcome));
  }, [call, request, onTextStart]);

  const endCall = useCallback(() => void call.end(), [call]);

  const onPrimary = () => {
    const now = performance.now();
    if (now - lastPress.current < DOUBLE_TAP_MS) return;
    lastPress.current = now;
    if (call.state !== 'idle') endCall();
    else if (cooldownUntil === null) start();
  };

  // The visitor pressed 'Start Talking' before this chunk arrived: start now, keep the focus. The
  // button they pressed went with the panel this one replaced, in this same commit: the focus
  // moves here before anything else runs (an effect would leave it on the page meanwhile).
  const autoStarted = useRef(false);
  useLayoutEffect(() => {
    if (pressedAt !== undefined && !autoStarted.current) primaryRef.current?.focus();
  }, [pressedAt]);
  useEffect(() => {
    if (pressedAt === undefined || autoStarted.current) return;
    autoStarted.current = true;
    start();
  }, [pressedAt, start]);

  const inCall = phase !== 'idle';

  // Escape ends the call (unless something else, such as the open menu, handled it); leaving
  // the page ends it and releases the microphone. Hiding the page does not: a glance at another
  // tab or a notification must not cut the visitor off.
  useEffect(() => {
    if (!inCall) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      // A field's or a picker's Escape is theirs, and so is anything in the chat beside the line:
      // ending the call (or leaving the line) stays one deliberate action.
      if (
        event.target instanceof Element &&
        event.target.closest(`input, select, textarea, [${CHAT_PANEL_ATTRIBUTE}]`)
      )
        return;
      endCall();
    };
    document.addEventListener('keydown', onKey);
    window.addEventListener('pagehide', endCall);
    return () => {
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('pagehide', endCall);
    };
  }, [inCall, endCall]);
  useWakeLock(inCall && phase !== 'ending');
  // Focus that the call takes away (a control it removes) lands in the field, else on the button.
  useFocusRescue(
    controlsRef,
    () =>
      controlsRef.current?.querySelector<HTMLElement>(`[${TYPE_FIELD_ATTRIBUTE}]`) ??
      primaryRef.current,
  );

  // Cards are made by the gate, of calls it admitted.
  const shareCallId = siteConfig.voice.route === 'gate' ? addOns.shownCall : null;

  return (
    <TalkPanel
      phase={phase}
      line={state.line}
      onPrimary={onPrimary}
      volume={state.volume}
      demo={siteConfig.voice.mode === 'demo'}
      recording={siteConfig.voice.recording}
      primaryRef={primaryRef}
      controlsRef={controlsRef}
      muted={inCall && state.muted && addOns.showMuted}
      resting={!inCall && cooldownUntil !== null}
      turn={addOns.turn}
      cue={inCall ? addOns.cue : undefined}
      secondary={siteConfig.voice.route === 'gate' ? text.secondary(phase, state.failure) : null}
      notice={
        !inCall && state.failure?.type === 'microphone-permission-denied' ? (
          <MicrophoneBlockedNote />
        ) : null
      }
    >
      {!inCall && state.failure && !text.hidesFailure(state.failure) && (
        <StartFailureNotice
          view={describeStartFailure(state.failure)}
          cooldownUntil={cooldownUntil}
          onCooledDown={endCooldown}
        />
      )}
      {/* The one thread: after a call, the chat holds the call's lines where they came. */}
      {text.panel(phase, callEntries(transcriptAfterCall(state), shareCallId))}
      <CallControls
        phase={phase}
        state={state}
        limitSeconds={siteConfig.voice.maxCallSeconds}
        onToggleMute={() => setMuted(!state.muted)}
        onResumeAudio={() => void call.resumeAudio()}
        onSendText={addOns.onSendText}
        onMicrophone={async (deviceId) => {
          const result = await switchMicrophone(call, deviceId);
          // Hold to talk: the microphone goes back to what the mode says after a switch.
          addOns.reapplyMicrophone();
          return result;
        }}
        onSpeaker={(deviceId) => switchSpeaker(call, deviceId)}
        holdButton={addOns.holdButton}
        modeSwitch={addOns.modeSwitch}
        afterCaptions={addOns.afterCaptions}
        afterCall={addOns.afterCall}
        shareCallId={shareCallId}
        earlier={text.captionsAbove}
        threadInChat={text.chatOpen}
      />
    </TalkPanel>
  );
}
