/**
 * Secrets a card must never carry, however they are written: a wallet's recovery phrase in any of
 * BIP-39's ten word lists, and key-like runs (base58 keys and addresses, hex keys, byte arrays),
 * split or grouped.
 */
import { wordlist as czech } from '@scure/bip39/wordlists/czech.js';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import { wordlist as french } from '@scure/bip39/wordlists/french.js';
import { wordlist as italian } from '@scure/bip39/wordlists/italian.js';
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese.js';
import { wordlist as korean } from '@scure/bip39/wordlists/korean.js';
import { wordlist as portuguese } from '@scure/bip39/wordlists/portuguese.js';
import { wordlist as simplifiedChinese } from '@scure/bip39/wordlists/simplified-chinese.js';
import { wordlist as spanish } from '@scure/bip39/wordlists/spanish.js';
import { wordlist as traditionalChinese } from '@scure/bip39/wordlists/traditional-chinese.js';
import { latinSkeleton } from './card-confusables';
import { withoutMarks } from './card-fold';

/** A wallet's recovery phrase has at least 12 words of one list. */
const PHRASE_WORDS = 12;
/**
 * The shortest run of list words that counts towards a phrase: a phrase split across sentences
 * (6 + 6, 4 + 4 + 4) still adds up, while ordinary lines, whose every few words include one no
 * list holds, do not (the language tests hold this to at least 20 lines in each language).
 */
const PHRASE_RUN = 4;

const LISTS = [
  english,
  spanish,
  portuguese,
  french,
  italian,
  czech,
  japanese,
  korean,
  simplifiedChinese,
  traditionalChinese,
];

/** A word as the lists are compared with it: no diacritics (the French and Spanish lists' accents). */
function listForm(word: string): string {
  return latinSkeleton(withoutMarks(word.normalize('NFKC'))).toLowerCase();
}

let folded: ReadonlySet<string>[] | null = null;

/** The ten lists, folded, built on the first check rather than at the Worker's start. */
function phraseLists(): ReadonlySet<string>[] {
  folded ??= LISTS.map((list) => new Set(list.map(listForm)));
  return folded;
}

/**
 * Whether 12 words of one list stand in `text`, in runs of `PHRASE_RUN` or more. Words are what
 * lies between anything that is not a letter: the CJK lists' words are matched one by one when
 * written apart, as a phrase is (`的 一 是 …`).
 */
export function holdsPhrase(text: string): boolean {
  const words = listForm(text)
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  return phraseLists().some((list) => {
    let run = 0;
    let total = 0;
    for (const word of [...words, '']) {
      if (list.has(word)) {
        run += 1;
        continue;
      }
      if (run >= PHRASE_RUN) total += run;
      run = 0;
    }
    return total >= PHRASE_WORDS;
  });
}

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const HEX = /^(?:0x)?[0-9a-fA-F]+$/;

/** What may stand between the groups of a key written apart (`9xQe WvG8`, `…-…`, `… / …`). */
const GROUP_GAP = /^[\s\-_.·:/|,+~]{1,3}$/u;

/** A group that reads like a word (`court`, `The`, `OK`), not like a piece of a key. */
const WORD_LIKE = /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+)$/;

/** Whether `run` (groups joined) reads as a key: long, mixed and mostly not words. */
function keyLike(groups: readonly string[]): boolean {
  const run = groups.join('');
  const pieces = groups.filter((group) => !WORD_LIKE.test(group)).length;
  if (pieces * 2 < groups.length) return false;
  if (run.length >= 32 && BASE58.test(run) && /\d/.test(run) && /[a-z]/.test(run)) {
    if (/[A-Z]/.test(run) || groups.length === 1) return true;
  }
  const hex = run.replace(/^0x/i, '');
  if (hex.length >= 40 && HEX.test(run)) {
    const digits = (hex.match(/\d/g) ?? []).length;
    return digits >= hex.length * 0.3 && digits < hex.length;
  }
  return false;
}

/**
 * Key-like runs: one unbroken, or in groups with a short gap between them. Each stretch of groups
 * that are base58 or hex is tried from every start, so words before a key do not hide it.
 */
export function holdsKey(text: string): boolean {
  const parts = text.split(/([^\p{L}\p{N}]+)/u);
  let stretch: string[] = [];
  const tryStretch = () => {
    for (let from = 0; from < stretch.length; from += 1) {
      for (let to = from + 1; to <= stretch.length; to += 1) {
        if (keyLike(stretch.slice(from, to))) return true;
      }
    }
    return false;
  };
  for (let i = 0; i < parts.length; i += 2) {
    const group = parts[i] ?? '';
    const gap = parts[i + 1] ?? '';
    if (group && (BASE58.test(group) || HEX.test(group))) {
      stretch.push(group);
      if (GROUP_GAP.test(gap) && stretch.length < 64) continue;
    }
    if (tryStretch()) return true;
    stretch = [];
  }
  return tryStretch();
}

/** A number a byte can be (0-255). */
const BYTE = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;

/** 16 bytes or more in a row, in any brackets or none, apart by commas, semicolons or spaces. */
const BYTE_ARRAY = new RegExp(
  String.raw`(?<![\d.])${BYTE}(?:\s*[,;]\s*|\s+)(?:${BYTE}(?:\s*[,;]\s*|\s+)){14,}${BYTE}(?![\d.])`,
);

/** Whether `text` holds a byte array as a keypair is written out. */
export function holdsBytes(text: string): boolean {
  return BYTE_ARRAY.test(text);
}
