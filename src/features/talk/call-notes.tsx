import { SHIELD_HIDDEN, SHIELD_NOT_SENT, SHIELD_WARNING } from './seed-shield';
import { MASKED_NOTE } from './site-facts';
import { TURN_CUE_TEXT, type TurnCue } from './use-turn-cue';

/** The shield's warning: a typed secret held back, or a spoken one hidden from the captions. */
export function ShieldWarning({ kind }: { kind: 'typed' | 'spoken' }) {
  return (
    <p
      role="alert"
      className="w-full rounded-2xl border border-gold-300/60 bg-court-950/80 p-3 text-left text-sm font-semibold text-gold-100"
    >
      {SHIELD_WARNING} {kind === 'typed' ? SHIELD_NOT_SENT : SHIELD_HIDDEN}
    </p>
  );
}

/** Said once something in the captions was masked: the facts are in the site's card. */
export function MaskedNote() {
  return (
    <p role="note" className="w-full text-left text-xs text-gold-200">
      {MASKED_NOTE}
    </p>
  );
}

const CUE_DOT: Record<TurnCue, string> = {
  listening: 'bg-court-300',
  thinking: 'bg-gold-200 motion-safe:animate-pulse',
  speaking: 'bg-gold-300',
};

/** Whose turn it is, beside the status (which keeps the spec's words). */
export function TurnCueLabel({ cue }: { cue: TurnCue | null }) {
  return (
    <p
      aria-live="polite"
      data-testid="turn-cue"
      data-cue={cue ?? undefined}
      className="relative mt-2 flex min-h-5 items-center justify-center gap-2 text-xs font-semibold text-mist"
    >
      {cue && (
        <>
          <span aria-hidden="true" className={`size-1.5 rounded-full ${CUE_DOT[cue]}`} />
          {TURN_CUE_TEXT[cue]}
        </>
      )}
    </p>
  );
}
