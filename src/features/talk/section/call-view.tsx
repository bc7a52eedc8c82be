/**
 * The call view: the part of the Talk section loaded on demand, as a chunk of its own
 * (`call-view-*.js`), once the visitor shows interest: the web-call mutation, the call's state,
 * the toasts, and the panel (talk-panel.tsx) live, with the visitor's controls (CallControls) and
 * the call's add-ons (call-add-ons.tsx). Before it loads, talk-section.tsx renders the same panel
 * idle.
 */
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
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
import { CallControls, useQuietMicrophone } from '../controls/call-controls';
import { useCallAddOns } from './call-add-ons';
import { useCaptionGuard } from '../guards/use-caption-guard';
import { DOUBLE_TAP_MS, TalkPanel } from './talk-panel';
import { CHAT_PANEL_ATTRIBUTE, isCode, useTextMode } from './text-mode';
import { useVoiceCall, type VoiceCall } from '../voice/use-voice-call';
import { useWakeLock } from '../voice/use-wake-lock';
import { switchMicrophone, switchSpeaker } from '../controls/device-switch';
import { MicrophoneBlockedNote } from '../recovery/microphone-note';
import { useFocusRescue } from '../recovery/focus-rescue';
import { TYPE_FIELD_ATTRIBUTE } from '../thread/type-to-pepa';
import { StartFailureNotice } from '../recovery/start-failure-notice';
import { cooldownMs, describeStartFailure } from '../recovery/start-failure';
import { phaseOf, transcriptAfterCall } from '../voice/voice-state';
import { callEntries } from '../thread/thread';
import { CourtToaster } from '../status/court-toaster';
import { panelTexts } from '../status/panel-texts';
import { CallDock, latestWords } from '../status/call-dock';
import { createToastLane } from '../status/toast-lane';
import { useEscapeToEnd } from '../status/use-escape-to-end';

export { warmTextMode } from './text-mode';

/** Warms what a call needs next (the room runtime), so pressing the button goes straight out. */
export function prefetchCallRuntime(): void {
  preconnectRoomService();
  loadRoomFactory().catch(() => undefined);
  prefetchBotCheck();
}

/** React Query's key for the page's one mutation, `POST /api/calls` (the court gate). */
export const WEB_CALL_MUTATION_KEY = ['web-call'] as const;

// The spec's toasts, as the section's tests know them.
export { TOASTS } from '../status/toast-lane';

export interface CallViewProps {
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
export function CallView({
  pressedAt,
  createCall = createPepaCall,
  openText = false,
}: CallViewProps) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { mutations: { retry: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <CallViewPanel pressedAt={pressedAt} createCall={createCall} openText={openText} />
      {/* One lane under the navigation bar, which the panel keeps clear of the status. */}
      <CourtToaster />
    </QueryClientProvider>
  );
}

function CallViewPanel({
  pressedAt,
  createCall,
  openText,
}: Pick<CallViewProps, 'pressedAt'> & Required<Pick<CallViewProps, 'createCall' | 'openText'>>) {
  const controlsRef = useRef<HTMLDivElement>(null);
  const guard = useCaptionGuard();
  // The spec's toasts, each event's once: keyed by the start they belong to (its serial).
  const [toasts] = useState(createToastLane);
  const starts = useRef(0);
  const { call, state, setMuted, sendText } = useVoiceCall(
    createCall,
    {
      onConnected: () => toasts.show('connected', starts.current),
      onEnded: () => toasts.show('ended', starts.current),
      onCallError: () => toasts.show('error', starts.current),
    },
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
    muted: state.muted,
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
    // A call joined: the chat so far stands above its entries in the one thread.
    phase === 'listening' || phase === 'speaking' || phase === 'reconnecting',
    // Turned to the chat after a refused microphone, the visitor has done what 'Failed to
    // connect' asked: it goes, rather than lie over the note as the chat comes into view.
    () => toasts.withdraw('startFailed'),
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
    if (view.microphoneToast) toasts.show('startFailed', starts.current);
  };
  const outcomeHandler = useRef(onOutcome);
  outcomeHandler.current = onOutcome;
  const start = useCallback(() => {
    starts.current += 1;
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

  // Escape asks before it ends the call or leaves the line (status/use-escape-to-end.ts); what
  // the chat beside the line hears is the chat's.
  const asking = useEscapeToEnd({
    active: inCall && phase !== 'ending',
    waiting: phase === 'waiting',
    end: endCall,
    ownerSelector: `[${CHAT_PANEL_ATTRIBUTE}]`,
  });
  // Leaving the page ends the call and releases the microphone. Hiding the page does not: a
  // glance at another tab or a notification must not cut the visitor off.
  useEffect(() => {
    if (!inCall) return;
    window.addEventListener('pagehide', endCall);
    return () => window.removeEventListener('pagehide', endCall);
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

  const quiet = useQuietMicrophone(
    state.lastHeardAt ?? state.connectedAt,
    phase === 'listening' && addOns.microphone === 'open',
  );
  const failure = inCall ? null : state.failure;
  // Every text the panel shows of the call, from one place (status/panel-texts.ts).
  const texts = panelTexts({
    phase,
    microphone: addOns.microphone,
    line: state.line,
    offered: text.offered,
    chatOpen: text.chatOpen,
    microphoneBlocked:
      failure !== null &&
      (describeStartFailure(failure).microphoneToast || failure.type === 'microphone-missing'),
    thinking: addOns.turn === 'thinking',
    quiet,
    asking,
  });
  const afterCallEntries = transcriptAfterCall(state);
  // After a call, what it left (the rating, the transcript, why it failed) takes the place its
  // controls had: the panel keeps the call's room, so nothing above them moves.
  const callRoom =
    inCall || failure !== null || addOns.afterCall !== null || afterCallEntries.length > 0;

  return (
    <>
      <TalkPanel
        phase={phase}
        line={state.line}
        onPrimary={onPrimary}
        volume={state.volume}
        demo={siteConfig.voice.mode === 'demo'}
        recording={siteConfig.voice.recording}
        primaryRef={primaryRef}
        controlsRef={controlsRef}
        texts={texts}
        callRoom={callRoom}
        resting={!inCall && cooldownUntil !== null}
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
        {/* The one thread: after a call, the chat holds the call's entries where they came, and
            the rating comes first, where the call's controls were, rather than under the chat. */}
        {text.chatOpen && phase === 'idle' && addOns.afterCall}
        {text.panel(phase, callEntries(afterCallEntries, shareCallId))}
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
          afterCall={text.chatOpen ? null : addOns.afterCall}
          shareCallId={shareCallId}
          earlier={text.captionsAbove}
          threadInChat={text.chatOpen}
        />
      </TalkPanel>
      {/* Scrolled away from the call, it docks at the bottom of the screen: the section's own
        texts, Mute and End Call. */}
      <CallDock
        phase={phase}
        status={texts.status}
        note={texts.question ?? (texts.mutedHint ? texts.hint : null)}
        words={latestWords(state)}
        muted={state.muted}
        primaryRef={primaryRef}
        onToggleMute={addOns.holdButton === undefined ? () => setMuted(!state.muted) : null}
        onEnd={endCall}
      />
    </>
  );
}
