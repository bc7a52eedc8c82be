import { useEffect, useState, type ReactNode } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { CallTimeLeft, ConnectionQuality } from './call-meters';
import { DevicePicker } from './device-picker';
import type { SwitchDevice } from './device-switch';
import type { TalkPhase } from '../voice/voice-state';
import { useShareHost } from '../share/share-button';
import type { ThreadEntry } from '../thread/thread';
import { CallTranscript, LiveCaptions, type CallShare } from './transcript-panel';
import { TypeToPepa } from '../thread/type-to-pepa';
import { transcriptAfterCall, type VoiceState } from '../voice/voice-state';

/** The quiet-microphone hint (status/panel-texts.ts) shows after this long without an audible microphone. */
export const QUIET_MIC_HINT_MS = 6000;

/** A start that takes longer than this is said to be slow, with the way out. */
export const SLOW_START_HINT_MS = 8000;

const BAR_WEIGHTS = [0.45, 0.8, 1, 0.8, 0.45];

export interface CallControlsProps {
  phase: TalkPhase;
  state: VoiceState;
  /** The longest a call may last, shown as time left. */
  limitSeconds: number;
  onToggleMute(): void;
  onResumeAudio(): void;
  /** Sends a typed message; false when it did not go out (held back, or no call): the field keeps it. */
  onSendText(text: string): boolean;
  onMicrophone: SwitchDevice;
  onSpeaker: SwitchDevice;
  /** In hold-to-talk mode, the hold button, shown in Mute's place. */
  holdButton?: ReactNode;
  /** The hold-to-talk mode switch, beside Mute. */
  modeSwitch?: ReactNode;
  /** Under the captions: the shield's warning, the masked note, the site's card. */
  afterCaptions?: ReactNode;
  /** After a call, above its transcript: the rating. */
  afterCall?: ReactNode;
  /** The call whose entries are shown, when Pepa's remarks can be shared (through the gate). */
  shareCallId?: string | null;
  /** The text chat's entries said before the call: the captions show them above the call's. */
  earlier?: readonly ThreadEntry[];
  /** The text chat is open and holds the one thread after the call: no transcript of its own. */
  threadInChat?: boolean;
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
  holdButton,
  modeSwitch,
  afterCaptions,
  afterCall,
  shareCallId = null,
  earlier = [],
  threadInChat = false,
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
          {holdButton}
          {!holdButton && (
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
          {modeSwitch}
          <VolumeBars volume={phase === 'speaking' ? state.volume : 0} />
          <ConnectionQuality quality={state.networkQuality} />
          {state.connectedAt !== null && (
            <CallTimeLeft since={state.connectedAt} limitSeconds={limitSeconds} />
          )}
        </div>
      )}

      {state.audioBlocked && connected && (
        <button type="button" onClick={onResumeAudio} className={buttonClass('gold', 'md')}>
          Tap to hear Pepa
        </button>
      )}

      {phase === 'connecting' && <SlowStartHint />}

      {phase !== 'idle' && phase !== 'ending' && <HeadphonesTip />}

      {phase !== 'idle' && phase !== 'waiting' && (
        <LiveCaptions state={state} share={share} earlier={earlier} />
      )}

      {afterCaptions}

      {inCall && (
        <TypeToPepa
          onSend={onSendText}
          awaitingReply={lastLine?.role === 'user' && lastLine.typed === true}
          unavailable={!connected}
        />
      )}

      {inCall && (
        <DevicePicker
          onMicrophone={onMicrophone}
          onSpeaker={onSpeaker}
          unavailable={reconnecting}
        />
      )}

      {/* A blocked microphone's note is the panel's, under the status (MicrophoneBlockedNote);
          the way to talk meanwhile is Write to Pepa, beside Start Talking. */}
      {phase === 'idle' && afterCall}

      {phase === 'idle' && !threadInChat && transcriptAfterCall(state).length > 0 && (
        <CallTranscript transcript={transcriptAfterCall(state)} share={share} />
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

/**
 * Whether the open microphone has been silent for QUIET_MIC_HINT_MS (while `active`): the panel's
 * hint then says so (status/panel-texts.ts), in place of the spec's, never beside it.
 */
export function useQuietMicrophone(lastHeardAt: number | null, active: boolean): boolean {
  const [quiet, setQuiet] = useState(false);
  useEffect(() => {
    setQuiet(false);
    if (!active || lastHeardAt === null) return;
    const remaining = Math.max(0, lastHeardAt + QUIET_MIC_HINT_MS - Date.now());
    const timer = setTimeout(() => setQuiet(true), remaining);
    return () => clearTimeout(timer);
  }, [lastHeardAt, active]);
  return active && quiet;
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
