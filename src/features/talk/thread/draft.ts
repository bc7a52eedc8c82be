/**
 * A message to Pepa as it is typed, measured as the gate measures it: what would be sent (the
 * draft trimmed), counted in characters (code points, so an emoji is one). The count shows near
 * the limit and an error past it, while the visitor types, in the text chat and in a call alike;
 * Send rests meanwhile. The field's name is the same in both.
 */

/** The message field's name, in a call and in the text chat alike. */
export const MESSAGE_LABEL = 'Message to Pepa';

/**
 * Characters that draw nothing on their own (format and default-ignorable characters, white
 * space, controls, marks with no letter, blank Braille): the gate refuses a message of only these.
 */
const DRAWS_NOTHING = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Cc}\p{M}\u2800]/gu;

/** Whether a draft shows anything to a reader: one that does not is never sent. */
export function hasVisibleText(text: string): boolean {
  return text.replace(DRAWS_NOTHING, '') !== '';
}

/** A draft's length as the gate counts it: the characters of what is sent. */
export function draftLength(text: string): number {
  return [...text.trim()].length;
}

/** From this share of the limit on, the count is shown beside the field. */
export const COUNT_FROM = 0.8;

/** Said under the field once the draft is past the limit (once: it is announced as it appears). */
export const draftTooLong = (limit: number) =>
  `That's longer than Pepa reads in one go: ${limit} characters at most. Shorten it to send.`;

/** Whether a draft is past the limit (no limit known yet: never). */
export function isOverLimit(text: string, limit: number | null): boolean {
  return limit !== null && draftLength(text) > limit;
}

/** Whether the count (and maybe the error) is shown for this draft. */
export function showsLimit(text: string, limit: number | null): boolean {
  return limit !== null && draftLength(text) > limit * COUNT_FROM;
}
