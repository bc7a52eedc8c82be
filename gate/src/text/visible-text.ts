/**
 * Whether a message shows anything: what a reader would see once every character that draws
 * nothing is set aside. Such a message is refused before it costs a turn.
 */

/**
 * Characters that draw nothing on their own: format characters (zero-width spaces and joiners,
 * direction marks and overrides, soft hyphens, tags), every default-ignorable code point
 * (variation selectors, Hangul fillers), white space, control characters, marks (a mark with no
 * letter to sit on), and the blank Braille pattern, which is drawn as a space.
 */
const DRAWS_NOTHING = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{White_Space}\p{Cc}\p{M}\u2800]/gu;

/** Whether `text` has at least one character that a reader would see. */
export function hasVisibleCharacter(text: string): boolean {
  return text.replace(DRAWS_NOTHING, '') !== '';
}
