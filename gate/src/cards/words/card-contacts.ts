/**
 * Personal data a card must never carry: e-mail addresses, also written around (`name [at] proton
 * [dot] me`, `(at)`, ` at … dot `, `arroba`, a fullwidth `＠` once folded), and phone numbers, also
 * with a letter for a digit (read as digits by the fold).
 */

const LOCAL = String.raw`[\p{L}\p{N}._%+-]+`;
const LABEL = String.raw`[\p{L}\p{N}-]+`;
/** The last part of a domain: letters only, as every top-level domain is. */
const TOP = String.raw`\p{L}{2,}(?![\p{L}\p{N}])`;
/** `@` or `.` spelt out in brackets: `[at]`, `(dot)`, `{punto}`. */
const bracketed = (words: string) => String.raw`\s*[[({<]\s*(?:${words})\s*[\])}>]\s*`;
const AT_WORDS = 'at|arroba|chez|bei';
const DOT_WORDS = 'dot|punto|ponto|point|punkt';
/** A dot written as a dot (perhaps spaced), in brackets, or as a word. */
const ANY_DOT = String.raw`(?:\s?\.\s?|${bracketed(DOT_WORDS)}|\s+(?:${DOT_WORDS})\s+)`;
/** A dot written as a word: with `at` as a word too, a plain `.` is a sentence's end. */
const WORD_DOT = String.raw`(?:${bracketed(DOT_WORDS)}|\s+(?:${DOT_WORDS})\s+)`;

const EMAILS = [
  new RegExp(
    String.raw`${LOCAL}(?:\s?@\s?|${bracketed(AT_WORDS)})${LABEL}(?:${ANY_DOT}${LABEL})*${ANY_DOT}${TOP}`,
    'u',
  ),
  new RegExp(
    String.raw`${LOCAL}\s+(?:at|arroba)\s+${LABEL}(?:${WORD_DOT}${LABEL})*${WORD_DOT}${TOP}`,
    'u',
  ),
];

/** Nine digits or more, with the separators phone numbers are written with. */
const PHONE = /\+?\(?\d(?:[\s().\-/]{0,3}\d){8,}/;

/** Whether `text` holds an e-mail address or a phone number. */
export function holdsContact(text: string): boolean {
  const lowered = text.toLowerCase();
  return EMAILS.some((email) => email.test(lowered)) || PHONE.test(lowered);
}
