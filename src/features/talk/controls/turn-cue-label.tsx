import type { TurnCue } from './use-turn-cue';

const CUE_DOT: Record<TurnCue, string> = {
  listening: 'bg-court-300',
  thinking: 'bg-gold-200 motion-safe:animate-pulse',
  speaking: 'bg-gold-300',
};

/**
 * Whose turn it is, beside the status (which keeps the spec's words), in the words the panel's
 * texts chose for it (status/panel-texts.ts), so it never disagrees with the hint.
 */
export function TurnCueLabel({ cue }: { cue: { turn: TurnCue; text: string } | null }) {
  return (
    <p
      aria-live="polite"
      data-testid="turn-cue"
      data-cue={cue?.turn}
      className="relative mt-2 flex min-h-5 items-center justify-center gap-2 text-xs font-semibold text-mist"
    >
      {cue && (
        <>
          <span aria-hidden="true" className={`size-1.5 rounded-full ${CUE_DOT[cue.turn]}`} />
          {cue.text}
        </>
      )}
    </p>
  );
}
