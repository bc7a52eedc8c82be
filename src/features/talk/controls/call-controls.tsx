import { useEffect, useState, type ReactNode } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { CallTimeLeft, ConnectionQuality } from './call-meters';
import { DevicePicker } from './device-picker';
import type { SwitchDevice } from './device-switch';
import type { TalkPhase } from '../voice/voice-state';
import { useShareHost } from '../share/share-button';
import { CallTranscript, LiveCaptions, type CallShare } from './transcript-panel';
import { TypeToPepa } from './type-to-pepa';
import { transcriptAfterCall, type VoiceState } from '../voice/voice-state';

/** The 'we can't hear you' hint shows after this long without an audible microphone. */
export const QUIET_MIC_HINT_MS = 6000;

/** A start that takes longer than this is said to be slow, with the way out. */
export const SLOW_START_HINT_MS = 8000;

const BAR_WEIGHTS = [0.45, 0.8, 1, 0.8, 0.45];

export const TYPE_INSTEAD = 'Type to Pepa instead';
export const TYPING_INDICATOR = "Typing only: Pepa can't hear you";

export interface CallControlsProps {
  phase: TalkPhase;
  state: VoiceState;
  /** The longest a call may last, shown as time left. */
  limitSeconds: number;
  onToggleMute(): void;
  onResumeAudio(): void;
  /** Sends a typed line; false when it did not go out (held back, or no call): the field keeps it. */
  onSendText(text: string): boolean;
  onMicrophone: SwitchDevice;
  onSpeaker: SwitchDevice;
  /** Starts a call without the microphone; offered when the microphone may be the trouble. */
  onTypeInstead(): void;
  /** The last start failed in a way the microphone may cause. */
  microphoneTrouble: boolean;
  /** In hold-to-talk mode, the hold button, shown in Mute's place. */
  holdButton?: ReactNode;
  /** The hold-to-talk mode switch, beside Mute. */
  modeSwitch?: ReactNode;
  /** Under the captions: the shield's warning, the masked note, the site's card. */
  afterCaptions?: ReactNode;
  /** After a call, above its transcript: the rating. */
  afterCall?: ReactNode;
  /** The call whose lines are shown, when Pepa's lines can be shared (through the gate). */
  shareCallId?: string | null;
}

/** Everything a live call adds under the button: controls, captions and notices. */
export function CallControls({
  phase,
  state,
  limitSeconds,
  onToggleMute,
  onResumeAudio,
  onSendText,
  onMicrophone,
  onSpeaker,
  onTypeInstead,
  microphoneTrouble,
  holdButton,
  modeSwitch,
  afterCaptions,
  afterCall,
  shareCallId = null,
}: CallControlsProps) {
  const connected = phase === 'listening' || phase === 'speaking';
  // While the connection is restored the call keeps its surface (the draft, the focus, the
  // pickers' choices, the captions); only what cannot work meanwhile rests.
  const reconnecting = phase === 'reconnecting';
  const inCall = connected || reconnecting;
  const lastLine = state.transcript.at(-1);
  // Kept here, which outlives the captions: a call that ends under the dialog leaves it open.
  const shareHost = useShareHost();
  const share: CallShare | null =
    shareCallId === null ? null : { callId: shareCallId, open: shareHost.open };
  return (
    <div className="relative mx-auto mt-6 flex max-w-md flex-col items-center gap-4">
      {inCall && (
        <div className="flex flex-wrap items-center justify-center gap-x-4 gap-y-2">
          {!state.typing && holdButton}
          {!state.typing && !holdButton && (
            <button
              type="button"
              aria-pressed={state.muted}
              aria-disabled={reconnecting || undefined}
              onClick={reconnecting ? undefined : onToggleMute}
              className={buttonClass('outline', 'md', 'min-w-28 aria-disabled:opacity-60')}
            >
              {state.muted ? 'Unmute' : 'Mute'}
            </button>
          )}
          {!state.typing && modeSwitch}
          <VolumeBars volume={phase === 'speaking' ? state.volume : 0} />
          <ConnectionQuality quality={state.networkQuality} />
          {state.connectedAt !== null && (
            <CallTimeLeft since={state.connectedAt} limitSeconds={limitSeconds} />
          )}
        </div>
      )}

      {inCall && state.typing && (
        <p className="text-sm font-semibold text-gold-200">{TYPING_INDICATOR}</p>
      )}

      {state.audioBlocked && connected && (
        <button type="button" onClick={onResumeAudio} className={buttonClass('gold', 'md')}>
          Tap to hear Pepa
        </button>
      )}

      {phase === 'connecting' && <SlowStartHint />}

      {phase === 'listening' && !state.muted && !state.typing && (
        <QuietMicHint lastHeardAt={state.lastHeardAt ?? state.connectedAt} />
      )}

      {phase !== 'idle' && phase !== 'ending' && !state.typing && <HeadphonesTip />}

      {phase !== 'idle' && phase !== 'waiting' && <LiveCaptions state={state} share={share} />}

      {afterCaptions}

      {/* A typed-only call offers the field from its first moment: the focus goes there. */}
      {(inCall || (phase === 'connecting' && state.typing)) && (
        <TypeToPepa
          onSend={onSendText}
          awaitingReply={lastLine?.role === 'user' && lastLine.typed === true}
          unavailable={!connected}
        />
      )}

      {inCall && (
        <DevicePicker
          microphone={!state.typing}
          onMicrophone={onMicrophone}
          onSpeaker={onSpeaker}
          unavailable={reconnecting}
        />
      )}

      {/* A blocked microphone's note is the panel's, under the status (MicrophoneBlockedNote). */}
      {phase === 'idle' && microphoneTrouble && (
        <button type="button" onClick={onTypeInstead} className={buttonClass('outline', 'md')}>
          {TYPE_INSTEAD}
        </button>
      )}

      {phase === 'idle' && afterCall}

      {phase === 'idle' && transcriptAfterCall(state).length > 0 && (
        <CallTranscript lines={transcriptAfterCall(state)} share={share} />
      )}

      {shareHost.dialog}
    </div>
  );
}

function VolumeBars({ volume }: { volume: number }) {
  return (
    <span aria-hidden="true" data-testid="volume-bars" className="flex h-8 items-center gap-1">
      {BAR_WEIGHTS.map((weight, index) => (
        <span
          key={index}
          className="w-1.5 rounded-full bg-gold-300 motion-safe:transition-[height] motion-safe:duration-100"
          style={{ height: `${Math.round(15 + 85 * Math.min(1, volume * weight))}%` }}
        />
      ))}
    </span>
  );
}

function QuietMicHint({ lastHeardAt }: { lastHeardAt: number | null }) {
  const [quiet, setQuiet] = useState(false);
  useEffect(() => {
    setQuiet(false);
    if (lastHeardAt === null) return;
    const remaining = Math.max(0, lastHeardAt + QUIET_MIC_HINT_MS - Date.now());
    const timer = setTimeout(() => setQuiet(true), remaining);
    return () => clearTimeout(timer);
  }, [lastHeardAt]);
  if (!quiet) return null;
  return (
    <p role="note" className="text-sm text-gold-200">
      We can&apos;t hear you. Check that your microphone is connected and not muted.
    </p>
  );
}

function SlowStartHint() {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SLOW_START_HINT_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!slow) return null;
  return (
    <p role="note" className="text-sm text-gold-200">
      Pepa is taking longer than usual to answer. Keep waiting, or press End Call to cancel.
    </p>
  );
}

function HeadphonesTip() {
  const [phone, setPhone] = useState(false);
  useEffect(() => {
    setPhone(window.matchMedia?.('(pointer: coarse)').matches ?? false);
  }, []);
  if (!phone) return null;
  return <p className="text-xs text-mist">Tip: headphones keep Pepa from hearing herself.</p>;
}
