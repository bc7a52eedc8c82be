/** The count near a message's limit, and the error past it (draft.ts measures). */
import { draftLength, draftTooLong, showsLimit } from './draft';

export interface DraftLimitProps {
  /** The field's description points here. */
  id: string;
  draft: string;
  limit: number | null;
}

/** The count near the limit, and the error past it; nothing while the draft is well short. */
export function DraftLimit({ id, draft, limit }: DraftLimitProps) {
  const length = draftLength(draft);
  if (limit === null || !showsLimit(draft, limit)) return null;
  const over = length > limit;
  return (
    <p id={id} className={`mt-1 text-xs ${over ? 'font-semibold text-gold-200' : 'text-mist'}`}>
      <span data-testid="draft-count">
        {length} / {limit}
      </span>
      {over && (
        <span role="alert" className="ml-2">
          {draftTooLong(limit)}
        </span>
      )}
    </p>
  );
}
