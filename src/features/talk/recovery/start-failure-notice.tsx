import { useEffect, useState } from 'react';
import type { StartFailureView } from './start-failure';
import { waitWords } from '../../../lib/wait-words';

export interface StartFailureNoticeProps {
  view: StartFailureView;
  /** Start rests until this time (ms since the epoch), or null. */
  cooldownUntil: number | null;
  onCooledDown(): void;
}

/** Why the last start failed, in the panel, with the wait before the next try counted down. */
export function StartFailureNotice({ view, cooldownUntil, onCooledDown }: StartFailureNoticeProps) {
  const secondsLeft = useSecondsUntil(cooldownUntil, onCooledDown);
  if (!view.reason && secondsLeft === 0) return null;
  return (
    <p
      role={view.polite ? 'status' : 'alert'}
      className="relative mx-auto mt-4 max-w-md text-sm text-gold-200"
    >
      {view.reason}
      {secondsLeft > 0 && (
        <>
          {view.reason ? ' ' : ''}
          Try again in {waitWords(secondsLeft)}.
        </>
      )}
    </p>
  );
}

function useSecondsUntil(until: number | null, onDone: () => void): number {
  const left = () => (until === null ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    if (until === null) {
      setSeconds(0);
      return;
    }
    const tick = () => {
      const remaining = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      setSeconds(remaining);
      if (remaining === 0) onDone();
    };
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [until, onDone]);
  return seconds;
}
