/**
 * The seed-phrase shield: finds a wallet recovery phrase (BIP-39, English) or a private key in
 * what the visitor types or says. Pure, and it never keeps, logs or stores what it reads. The word
 * list comes with the voice chunk, never with the first page.
 */
import { wordlist } from '@scure/bip39/wordlists/english.js';

/** A recovery phrase has 12 to 24 words. */
export const PHRASE_MIN_WORDS = 12;
/** Captions form word by word: a run this long is hidden before it can grow into a phrase. */
export const CAPTION_RUN_WORDS = 8;

export const SECRET_MASK = '[hidden for your safety]';

/** Shown whenever the shield holds something back. */
export const SHIELD_WARNING =
  'That looks like a wallet recovery phrase or private key. Keep it secret: Pepa and the $PEPA team will never ask for it.';
/** Added when a typed message was held back. */
export const SHIELD_NOT_SENT = 'Your message was not sent.';
/** Added when a spoken phrase was hidden from the captions. */
export const SHIELD_HIDDEN = 'It was hidden from the captions and the transcript.';

const WORDS: ReadonlySet<string> = new Set(wordlist);

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** A Solana secret key is 64 bytes: 86 to 88 base58 characters. */
const SECRET_KEY_BYTES = 64;
const BASE58_KEYLIKE = /[1-9A-HJ-NP-Za-km-z]{80,100}/g;
/** The command-line wallet's key file: a JSON array of 64 numbers. */
const BYTE_ARRAY = /\[\s*\d{1,3}(?:\s*,\s*\d{1,3}){63}\s*\]/;

/** How many bytes a base58 string decodes to (null when it is not base58). */
export function base58ByteLength(text: string): number | null {
  const bytes: number[] = [];
  for (const char of text) {
    let carry = BASE58_ALPHABET.indexOf(char);
    if (carry < 0) return null;
    for (let i = 0; i < bytes.length; i += 1) {
      carry += (bytes[i] ?? 0) * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  let leadingZeros = 0;
  while (text[leadingZeros] === '1') leadingZeros += 1;
  return bytes.length + leadingZeros;
}

/** Whether `text` holds a private key: a 64-byte base58 string or a 64-number byte array. */
export function containsPrivateKey(text: string): boolean {
  if (BYTE_ARRAY.test(text)) return true;
  for (const match of text.matchAll(BASE58_KEYLIKE)) {
    if (base58ByteLength(match[0]) === SECRET_KEY_BYTES) return true;
  }
  return false;
}

interface WordToken {
  word: string;
  start: number;
  end: number;
}

function wordTokens(text: string): WordToken[] {
  return [...text.matchAll(/[A-Za-z]+/g)].map((match) => ({
    word: match[0].toLowerCase(),
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/**
 * Runs of consecutive word-list words at least `minWords` long, as [start, end) ranges of `text`.
 * Only spaces, commas, full stops, dashes and numbering may stand between the words of a run.
 */
function phraseRuns(text: string, minWords: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let run: WordToken[] = [];
  const close = () => {
    const first = run[0];
    const last = run[run.length - 1];
    if (first && last && run.length >= minWords) runs.push([first.start, last.end]);
    run = [];
  };
  for (const token of wordTokens(text)) {
    const previous = run[run.length - 1];
    const between = previous ? text.slice(previous.end, token.start) : '';
    if (previous && !/^[\s,.;:\-\d)]*$/.test(between)) close();
    if (WORDS.has(token.word)) run.push(token);
    else close();
  }
  close();
  return runs;
}

/** Whether a typed message holds a recovery phrase (12 or more word-list words in a row) or a key. */
export function containsSecret(text: string): boolean {
  return phraseRuns(text, PHRASE_MIN_WORDS).length > 0 || containsPrivateKey(text);
}

export interface RedactResult {
  text: string;
  redacted: boolean;
}

/** A caption with any phrase-like run (from 8 words) or private key replaced by a mask. */
export function redactSecrets(text: string): RedactResult {
  let result = text;
  let redacted = false;
  for (const [start, end] of phraseRuns(text, CAPTION_RUN_WORDS).reverse()) {
    result = `${result.slice(0, start)}${SECRET_MASK}${result.slice(end)}`;
    redacted = true;
  }
  const withoutKeys = result
    .replace(BYTE_ARRAY, () => {
      redacted = true;
      return SECRET_MASK;
    })
    .replace(BASE58_KEYLIKE, (run) => {
      if (base58ByteLength(run) !== SECRET_KEY_BYTES) return run;
      redacted = true;
      return SECRET_MASK;
    });
  return { text: withoutKeys, redacted };
}
