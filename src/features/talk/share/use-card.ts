import { useCallback, useEffect, useState } from 'react';
import type { Card, CardRemark, CardResult } from '../../../api/cards';

/** What the share dialog shows of its card: being made, made, or why not. */
export type CardView =
  | { state: 'making' }
  | { state: 'made'; card: Card }
  | { state: 'refused'; reason: string | null }
  /** `ready`: the wait the gate asked for is over, and Try again may be pressed. */
  | { state: 'not-ready'; retryAfterSeconds: number; ready: boolean }
  | { state: 'not-found' }
  | { state: 'rate-limited'; retryAfterSeconds: number | null }
  | { state: 'failed'; network: boolean };

function viewOf(result: CardResult): CardView {
  switch (result.status) {
    case 'made':
      return { state: 'made', card: result.card };
    case 'not-ready':
      return { state: 'not-ready', retryAfterSeconds: result.retryAfterSeconds, ready: false };
    case 'refused':
      return { state: 'refused', reason: result.reason };
    case 'not-found':
      return { state: 'not-found' };
    case 'rate-limited':
      return { state: 'rate-limited', retryAfterSeconds: result.retryAfterSeconds };
    case 'failed':
      return { state: 'failed', network: result.network };
  }
}

export type AskForCard = (remark: CardRemark, signal: AbortSignal) => Promise<CardResult>;

/**
 * The card of one line, asked for once on mount and again on `retry`. An ask still under way
 * when the dialog closes is aborted, and the wait of a remark not yet written down is a timer that
 * goes with it.
 */
export function useCard(remark: CardRemark, ask: AskForCard) {
  const [view, setView] = useState<CardView>({ state: 'making' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setView({ state: 'making' });
    ask(remark, controller.signal).then(
      (result) => {
        if (!controller.signal.aborted) setView(viewOf(result));
      },
      () => {
        // Only an abort rejects: the dialog has gone, and nothing is left to show.
      },
    );
    return () => controller.abort();
    // The remark is the dialog's for its whole life: a new ask comes with a new attempt.
  }, [remark, ask, attempt]);

  const waitMs = view.state === 'not-ready' && !view.ready ? view.retryAfterSeconds * 1000 : null;
  useEffect(() => {
    if (waitMs === null) return;
    const timer = setTimeout(
      () =>
        setView((current) =>
          current.state === 'not-ready' ? { ...current, ready: true } : current,
        ),
      waitMs,
    );
    return () => clearTimeout(timer);
  }, [waitMs]);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  return { view, retry };
}
