/**
 * A wallet's recovery phrase, however it is written: words of one of BIP-39's ten lists, twelve
 * in runs, or eight or more close together in any order with a filler word here and there, or
 * written by the first four letters of each word (which name a word of a Latin list, as the lists
 * were made), or run together with no space at all.
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
import { latinSkeleton } from '../fold/card-confusables';
import { withoutMarks } from '../fold/card-fold';

/** A wallet's recovery phrase has at least 12 words of one list. */
const PHRASE_WORDS = 12;
/**
 * The shortest run of list words that counts towards a phrase: a phrase split across sentences
 * (6 + 6, 4 + 4 + 4) still adds up, while ordinary remarks, whose every few words include one no
 * list holds, do not (the language tests hold this to at least 20 remarks in each language).
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

/** Eight words of one list close together are most of a phrase: the rest can be guessed. */
const CLOSE_WORDS = 8;
/** How much of a close stretch must be list words: fillers stand at most one at a time. */
const CLOSE_SHARE = 0.7;
/** The letters that name a word of a Latin list: its first four, unique in every such list. */
const PREFIX = 4;
/** A word this long that is not a list word may be list words run together. */
const GLUED = 10;

interface PhraseList {
  words: ReadonlySet<string>;
  /** The first four letters of each word, for the lists whose words are Latin letters. */
  prefixes: ReadonlySet<string>;
  longest: number;
}

let folded: PhraseList[] | null = null;

/** The ten lists, folded, built on the first check rather than at the Worker's start. */
function phraseLists(): PhraseList[] {
  folded ??= LISTS.map((list) => {
    const words = list.map(listForm);
    const latin = words.every((word) => /^[a-z]+$/.test(word));
    return {
      words: new Set(words),
      prefixes: new Set(latin ? words.map((word) => word.slice(0, PREFIX)) : []),
      longest: Math.max(...words.map((word) => word.length)),
    };
  });
  return folded;
}

/** How many list words `word` is when it is list words run together (three or more), else 0. */
function gluedWords(word: string, list: PhraseList): number {
  const fewest: number[] = [0];
  for (let end = 1; end <= word.length; end += 1) {
    let best = Infinity;
    for (let start = Math.max(0, end - list.longest); start < end; start += 1) {
      const before = fewest[start] ?? Infinity;
      if (before + 1 < best && list.words.has(word.slice(start, end))) best = before + 1;
    }
    fewest.push(best);
  }
  const count = fewest[word.length] ?? Infinity;
  return Number.isFinite(count) && count >= 3 ? count : 0;
}

/** How many list words `word` stands for: 1 as a word or a word's first four letters, or more. */
function listWords(word: string, list: PhraseList): number {
  if (list.words.has(word)) return 1;
  if (word.length === PREFIX && list.prefixes.has(word)) return 1;
  return word.length >= GLUED && list.prefixes.size > 0 ? gluedWords(word, list) : 0;
}

/** Twelve list words in runs of `PHRASE_RUN` or more. */
function inRuns(counts: readonly number[]): boolean {
  let run = 0;
  let total = 0;
  for (const count of [...counts, 0]) {
    if (count > 0) {
      run += count;
      continue;
    }
    if (run >= PHRASE_RUN) total += run;
    run = 0;
  }
  return total >= PHRASE_WORDS;
}

/** Eight list words close together: no two fillers in a row, and most of the stretch list words. */
function closeTogether(counts: readonly number[]): boolean {
  let hits = 0;
  let fillers = 0;
  let lastWasFiller = true;
  for (const count of [...counts, 0, 0]) {
    if (count > 0) {
      hits += count;
      lastWasFiller = false;
      continue;
    }
    if (lastWasFiller) {
      // Two fillers in a row end the stretch; the last filler was not inside it.
      const inside = Math.max(0, fillers - 1);
      if (hits >= CLOSE_WORDS && hits / (hits + inside) >= CLOSE_SHARE) return true;
      hits = 0;
      fillers = 0;
      continue;
    }
    fillers += 1;
    lastWasFiller = true;
  }
  return false;
}

/**
 * Whether a recovery phrase stands in `text`: twelve words of one list in runs of `PHRASE_RUN`
 * or more, or eight close together. Words are what lies between anything that is not a letter:
 * the CJK lists' words are matched one by one when written apart, as a phrase is (`的 一 是 …`).
 */
export function holdsPhrase(text: string): boolean {
  const words = listForm(text)
    .split(/[^\p{L}]+/u)
    .filter(Boolean);
  return phraseLists().some((list) => {
    const counts = words.map((word) => listWords(word, list));
    return inRuns(counts) || closeTogether(counts);
  });
}
