import { useEffect, useState } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { MicIcon } from '../../../components/ui/icons';

export const TURN_OFFER_LABEL = 'Your turn: talk to Pepa';
/** Before the tap the visitor is not in a call: nothing here says Pepa hears them (panel-texts.ts). */
export const TURN_OFFERED = 'A voice place is yours: take it, and your chat comes with you.';
export const turnHeldText = (seconds: number) => `Your place is held for ${seconds} s.`;
export const TURN_MISSED =
  'Your place in the voice line went to the next guest. Keep typing: Pepa is still reading.';

export interface TurnOfferProps {
  /** When the held place is given up (ms since the epoch). */
  until: number;
  onTake(): void;
}

/**
 * A place in the voice line held for a visitor who is chatting: one tap takes it (the call
 * joins as any admitted call does), with how long it is held counted down. The offer is
 * announced once; the countdown is shown, not announced each second.
 */
export function TurnOffer({ until, onTake }: TurnOfferProps) {
  const [seconds, setSeconds] = useState(() => Math.max(0, Math.ceil((until - Date.now()) / 1000)));
  useEffect(() => {
    const tick = () => setSeconds(Math.max(0, Math.ceil((until - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [until]);
  return (
    <div className="shrink-0 rounded-2xl border border-gold-300/70 bg-gold-300/10 p-3 text-center">
      <p role="alert" className="text-sm font-semibold text-gold-100">
        {TURN_OFFERED}
      </p>
      <p className="mt-1 text-xs text-mist">{turnHeldText(seconds)}</p>
      <button type="button" onClick={onTake} className={buttonClass('gold', 'md', 'mt-2')}>
        <MicIcon className="size-5" />
        {TURN_OFFER_LABEL}
      </button>
    </div>
  );
}
