/**
 * The call's add-ons, composed for the Talk panel: what the site adds to the spec's call (Pepa's
 * tools on the page and the site's card, the caption guard's notes, the seed-phrase shield, hold
 * to talk, the turn cue and the rating after the call). The visitor's own controls under the
 * button are CallControls (controls/call-controls.tsx).
 */
import { useCallback, useEffect, useState, type RefObject } from 'react';
import { CallRating } from '../controls/call-rating';
import { MaskedNote, ShieldWarning } from '../guards/guard-notes';
import { HOLD_KEY_HINT, HoldModeSwitch, HoldToTalkButton } from '../controls/hold-to-talk';
import { containsSecret } from '../guards/seed-shield';
import { SiteCard } from '../page-tools/site-card';
import type { TalkPhase } from '../voice/voice-state';
import type { useCaptionGuard } from '../guards/use-caption-guard';
import { useHoldToTalk } from '../controls/use-hold-to-talk';
import { usePageTools } from '../page-tools/use-page-tools';
import { useTurnCue } from '../controls/use-turn-cue';
import type { VoiceCall } from '../voice/use-voice-call';
import type { Microphone } from '../status/panel-texts';

export interface CallAddOnsInput {
  call: Pick<VoiceCall, 'on' | 'send'>;
  phase: TalkPhase;
  /** The visitor's microphone is muted (by Mute, or by hold to talk between holds). */
  muted: boolean;
  setMuted(muted: boolean): void;
  /** Sends a typed message; false when the call could not take it. */
  sendText(text: string): boolean;
  guard: ReturnType<typeof useCaptionGuard>;
  /** The panel: Space holds to talk while the focus is in it. */
  panelRef: RefObject<HTMLElement | null>;
}

/** The id of a Call the start resolved with, when it has one. */
export function callIdOf(call: unknown): string | null {
  if (typeof call !== 'object' || call === null) return null;
  const id = (call as { id?: unknown }).id;
  return typeof id === 'string' && id !== '' ? id : null;
}

export function useCallAddOns({
  call,
  phase,
  muted,
  setMuted,
  sendText,
  guard,
  panelRef,
}: CallAddOnsInput) {
  const { shown } = usePageTools(call);
  const { cue, thought } = useTurnCue(call, phase);
  const connected = phase === 'listening' || phase === 'speaking';
  const hold = useHoldToTalk(connected || phase === 'reconnecting', setMuted);
  const [typedSecret, setTypedSecret] = useState(false);
  // The call the rating is for: set when a call starts, cleared by Skip or the next start, so
  // no call is ever offered the rating twice.
  const [ratingFor, setRatingFor] = useState<string | null>(null);
  // The call whose entries are on screen, for their cards: set when a call starts, kept after it
  // ends (its transcript stays) and through a start that fails (which keeps its entries).
  const [shownCall, setShownCall] = useState<string | null>(null);
  const { reset } = guard;

  useEffect(
    () =>
      call.on('state-change', ({ state: next }) => {
        if (next !== 'starting') return;
        reset();
        setTypedSecret(false);
        setRatingFor(null);
      }),
    [call, reset],
  );

  /** A typed message: held back (and the field keeps it) when it holds a secret. */
  const onSendText = useCallback(
    (text: string): boolean => {
      if (containsSecret(text)) {
        setTypedSecret(true);
        return false;
      }
      setTypedSecret(false);
      if (!sendText(text)) return false;
      thought();
      return true;
    },
    [sendText, thought],
  );

  const onStarted = useCallback((webCall: unknown) => {
    setRatingFor(callIdOf(webCall));
    setShownCall(callIdOf(webCall));
  }, []);
  const inHold = hold.mode === 'hold';
  // What reaches Pepa, for the panel's texts (status/panel-texts.ts): in hold mode the microphone
  // is muted between holds, which is the hold's doing, not a Mute the visitor pressed.
  const microphone: Microphone = inHold
    ? hold.holding
      ? 'holding'
      : 'hold'
    : muted
      ? 'muted'
      : 'open';
  const cardShown = { ...shown, contract: shown.contract || guard.masked };

  return {
    onSendText,
    onStarted,
    /** The call whose entries are shown (during the call and after it), or null before any. */
    shownCall,
    /** After a device switch: the microphone goes back to what the mode says. */
    reapplyMicrophone: hold.reapply,
    /** How the visitor's microphone is set, for the panel's texts. */
    microphone,
    /** Whose turn it is (listening, thinking, speaking), for the panel's texts. */
    turn: cue,
    holdButton: inHold ? (
      <HoldToTalkButton holding={hold.holding} onHolding={hold.setHolding} panelRef={panelRef} />
    ) : undefined,
    modeSwitch: <HoldModeSwitch mode={hold.mode} onMode={hold.setMode} />,
    afterCaptions: (
      <>
        {connected && inHold && <p className="text-xs text-mist">{HOLD_KEY_HINT}</p>}
        {(typedSecret || guard.redacted) && (
          <ShieldWarning kind={typedSecret ? 'typed' : 'spoken'} />
        )}
        {guard.masked && <MaskedNote />}
        {(cardShown.contract || cardShown.buy) && <SiteCard shown={cardShown} />}
      </>
    ),
    afterCall:
      ratingFor === null ? null : (
        <CallRating key={ratingFor} callId={ratingFor} onDone={() => setRatingFor(null)} />
      ),
  };
}
