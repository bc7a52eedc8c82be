import { useEffect, useState } from 'react';
import { buttonClass } from '../../components/ui/button-styles';
import type { TalkPhase } from './talk-view';
import type { VoiceState } from './voice-state';

/** The 'we can't hear you' hint shows after this long without an audible microphone. */
export const QUIET_MIC_HINT_MS = 6000;

/** A start that takes longer than this is said to be slow, with the way out. */
export const SLOW_START_HINT_MS = 8000;

const BAR_WEIGHTS = [0.45, 0.8, 1, 0.8, 0.45];

export interface CallExtrasProps {
  phase: TalkPhase;
  state: VoiceState;
  onToggleMute(): void;
  onResumeAudio(): void;
}

/** Everything a live call adds under the button: controls, captions and notices. */
export function CallExtras({ phase, state, onToggleMute, onResumeAudio }: CallExtrasProps) {
  const connected = phase === 'listening' || phase === 'speaking';
  return (
    <div className="relative mx-auto mt-6 flex max-w-md flex-col items-center gap-4">
      {connected && (
        <div className="flex items-center gap-4">
          <button
            type="button"
            aria-pressed={state.muted}
            onClick={onToggleMute}
            className={buttonClass('outline', 'md', 'min-w-28')}
          >
            {state.muted ? 'Unmute' : 'Mute'}
          </button>
          <VolumeBars volume={phase === 'speaking' ? state.volume : 0} />
          {state.connectedAt !== null && <CallTimer since={state.connectedAt} />}
        </div>
      )}

      {state.audioBlocked && connected && (
        <button type="button" onClick={onResumeAudio} className={buttonClass('gold', 'md')}>
          Tap to hear Pepa
        </button>
      )}

      {phase === 'connecting' && <SlowStartHint />}

      {phase === 'listening' && !state.muted && (
        <QuietMicHint lastHeardAt={state.lastHeardAt ?? state.connectedAt} />
      )}

      {phase !== 'idle' && phase !== 'ending' && <HeadphonesTip />}

      <Captions state={state} visible={phase !== 'idle'} />

      {phase === 'idle' && state.failure?.type === 'microphone-permission-denied' && (
        <div
          role="note"
          className="rounded-2xl border border-gold-300/40 bg-court-950/70 p-4 text-left text-sm text-mist"
        >
          <p className="font-semibold text-gold-200">
            Pepa can&apos;t hear you: the microphone is blocked.
          </p>
          <p className="mt-1">
            Open the site settings (the icon left of the address), allow the microphone for this
            site, then press Start Talking again.
          </p>
        </div>
      )}
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

function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

function CallTimer({ since }: { since: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span data-call-timer className="font-mono text-sm text-gold-200 tabular-nums">
      <span className="sr-only">Call time </span>
      {formatDuration(now - since)}
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

function Captions({ state, visible }: { state: VoiceState; visible: boolean }) {
  return (
    <div
      aria-live="polite"
      aria-label="Captions"
      role="log"
      // Long words wrap anywhere, and the panel scrolls rather than stretching the section.
      className={
        visible
          ? 'max-h-40 w-full space-y-1.5 overflow-y-auto text-left text-sm wrap-anywhere'
          : 'sr-only'
      }
    >
      {visible &&
        state.captions.map((caption) => (
          <p
            key={caption.id}
            className={caption.role === 'assistant' ? 'text-ivory' : 'text-court-300'}
          >
            <span className="font-semibold">
              {caption.role === 'assistant' ? 'Pepa: ' : 'You: '}
            </span>
            {caption.text}
          </p>
        ))}
    </div>
  );
}
