import { useEffect, useState } from 'react';
import type { NetworkQuality } from '../../../lib/call';

/** In the last this many seconds of a call, the visitor is told it is about to end. */
export const LIMIT_WARNING_SECONDS = 30;

export const LIMIT_WARNING = 'Less than 30 seconds left: Pepa will say goodbye soon.';

/** "02:35" for 155 seconds. */
export function formatClock(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Whole seconds left of a call that connected at `since` and may last `limitSeconds`. */
export function secondsLeft(since: number, limitSeconds: number, now: number): number {
  return Math.max(0, Math.ceil((since + limitSeconds * 1000 - now) / 1000));
}

/** The call's time limit as time left, and a gentle warning in its last 30 seconds. */
export function CallTimeLeft({ since, limitSeconds }: { since: number; limitSeconds: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = secondsLeft(since, limitSeconds, now);
  const warning = left <= LIMIT_WARNING_SECONDS;
  return (
    <>
      <span
        data-call-timer
        className={`font-mono text-sm tabular-nums ${warning ? 'text-gold-100' : 'text-gold-200'}`}
      >
        {formatClock(left)}
        <span className="text-xs text-mist"> left</span>
      </span>
      {/* Always present, so the warning is announced when it appears. */}
      <p aria-live="polite" className="basis-full text-center text-sm text-gold-100 empty:hidden">
        {warning ? LIMIT_WARNING : ''}
      </p>
    </>
  );
}

const QUALITY: Record<NetworkQuality['state'], { label: string; bars: number }> = {
  good: { label: 'Connection: good', bars: 3 },
  warning: { label: 'Connection: weak', bars: 2 },
  bad: { label: 'Connection: poor', bars: 1 },
  unknown: { label: 'Connection: checking', bars: 0 },
};

/** Three bars and a name for the connection's quality, as the room reports it. */
export function ConnectionQuality({ quality }: { quality: NetworkQuality['state'] }) {
  const { label, bars } = QUALITY[quality];
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      data-quality={quality}
      className="inline-flex h-5 items-end gap-0.5"
    >
      {[1, 2, 3].map((bar) => (
        <span
          key={bar}
          className={`w-1 rounded-sm ${bar <= bars ? (bars === 1 ? 'bg-red-400' : 'bg-court-300') : 'bg-mist/30'}`}
          style={{ height: `${bar * 33}%` }}
        />
      ))}
    </span>
  );
}
