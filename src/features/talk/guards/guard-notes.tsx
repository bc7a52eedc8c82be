/** What the guards say under the captions: the seed-phrase shield's warning, the masked note. */
import { SHIELD_HIDDEN, SHIELD_NOT_SENT, SHIELD_WARNING } from './seed-shield';
import { MASKED_NOTE } from './site-facts';

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
