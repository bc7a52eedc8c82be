/**
 * Pepa repeating a visitor is no quote. A card says "Pepa said": words the visitor typed or said
 * first and she only repeated are theirs, however a model was talked into saying them. A remark is
 * an echo when it holds a run of words the visitor said earlier in the conversation, or any long
 * token they said first (an address-like run, a handle, a link, a number run); both are compared
 * on the folded forms the other checks read, so a look-alike letter, a changed case, an accent or
 * a split address repeats as well as the plain form.
 */
import { cleanWords, foldForMatch, readingsOf } from '../fold/card-fold';
import { drawing } from '../fold/card-script';

/**
 * The shortest run of the visitor's words that Pepa may not repeat: five would refuse her answering
 * "are you the queen of the pond?" with "I am the queen of the pond".
 */
export const ECHO_RUN = 6;
/** A remark this short or longer that is all the visitor's words is theirs too. */
const ECHO_WHOLE = 3;

/** A long token needs at least this many letters and digits. */
const TOKEN_CHARS = 6;
/** A long token shorter than this is only matched whole, not inside a longer run. */
const INSIDE_CHARS = 8;

/** The words of `text` as a takedown folds them, one by one. */
function foldedWords(text: string): string[] {
  return foldForMatch(text).split(' ').filter(Boolean);
}

/** Each way of writing `text` compactly: its letters and digits only, in both readings. */
function compactForms(text: string): string[] {
  const readings = readingsOf(drawing(cleanWords(text)).words);
  const compact = (reading: string) => reading.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  return [...new Set([compact(readings.letters), compact(readings.digits)])];
}

/** Digits written as a run, with the separators numbers are written with. */
const NUMBER_RUN = /\d(?:[\s().\-/]{0,2}\d){4,}/gu;

/**
 * The long tokens of `text`: words that mix letters and digits, handles (`@…`), names and links
 * (a dot, slash or colon inside), and (unless `numbers` is false) runs of five digits or more
 * however they are grouped; each in its compact forms.
 */
function longTokens(text: string, numbers = true): string[] {
  const drawn = drawing(cleanWords(text.normalize('NFKC'))).words;
  const tokens = drawn.split(/\s+/u).flatMap((raw) => {
    const word = raw.replace(/^[^\p{L}\p{N}@#]+|[^\p{L}\p{N}]+$/gu, '');
    const mixed = /\p{L}/u.test(word) && /\p{N}/u.test(word);
    const marked = /^[@#]/u.test(word) || /[\p{L}\p{N}][./:_@][\p{L}\p{N}]/u.test(word);
    return mixed || marked ? [word] : [];
  });
  const runs = numbers ? [...drawn.matchAll(NUMBER_RUN)].map(([run]) => run) : [];
  return [...tokens, ...runs].flatMap(compactForms).filter((token) => token.length >= TOKEN_CHARS);
}

/** Whether `token` stands in `said` (compact forms): whole, or inside a run when it is long. */
function holdsToken(said: { tokens: ReadonlySet<string>; runs: readonly string[] }, token: string) {
  if (said.tokens.has(token)) return true;
  return token.length >= INSIDE_CHARS && said.runs.some((run) => run.includes(token));
}

/** A text's folded words, its compact runs and its long tokens, as the echo check compares them. */
function readSaid(texts: readonly string[]) {
  return {
    words: texts.map((text) => ` ${foldedWords(text).join(' ')} `),
    runs: texts.flatMap(compactForms),
    tokens: new Set(texts.flatMap((text) => longTokens(text))),
  };
}

/**
 * Whether `remark` repeats what the visitor said first (`heard`, their messages before it): a run
 * of `ECHO_RUN` folded words, the whole remark when it has `ECHO_WHOLE` words or more, or a long
 * token either side said that stands in the other's words.
 */
export function repeatsVisitor(remark: string, heard: readonly string[]): boolean {
  if (heard.length === 0) return false;
  const visitor = readSaid(heard);
  const pepa = readSaid([remark]);
  const words = foldedWords(remark);
  const runs: string[] = [];
  if (words.length >= ECHO_WHOLE && words.length < ECHO_RUN) runs.push(words.join(' '));
  for (let from = 0; from + ECHO_RUN <= words.length; from += 1) {
    runs.push(words.slice(from, from + ECHO_RUN).join(' '));
  }
  if (runs.some((run) => visitor.words.some((said) => said.includes(` ${run} `)))) return true;
  if ([...pepa.tokens].some((token) => holdsToken(visitor, token))) return true;
  return [...visitor.tokens].some((token) => holdsToken(pepa, token));
}

/**
 * What in `text` points somewhere or names someone: its address-like runs, handles, names and
 * links (long tokens that are not plain numbers), each in its compact folded forms, so
 * `@Pepa_Drop` and `@pepadrop`, or a link with its dots spaced, read as one token.
 */
export function reachTokens(text: string): string[] {
  return [...new Set(longTokens(text, false))];
}
