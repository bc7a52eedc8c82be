/**
 * Letters that look like Latin ones, mapped to the Latin letter a reader takes them for: a
 * compact table after Unicode's confusables data (UTS #39, `confusables.txt`), for the scripts a
 * disguise reaches for. It is applied after NFKC, which already turns fullwidth and mathematical
 * letters (`ａ`, `𝐚`) into plain ones, and before the case is lowered, as the data is case-aware:
 * Cyrillic `В` reads as `B`, its small `в` as nothing Latin.
 */

/** Each entry: the look-alikes, then the Latin letter(s) they read as. */
const LOOK_ALIKES: readonly (readonly [string, string])[] = [
  // Cyrillic capitals.
  ['АӐӒ', 'A'],
  ['ВϐꞴ', 'B'],
  ['СϹⅭ', 'C'],
  ['ЕЀЁ', 'E'],
  ['НΗⲎ', 'H'],
  ['ІӀΙⅠ', 'I'],
  ['ЈͿ', 'J'],
  ['КΚⲔ', 'K'],
  ['МΜϺ', 'M'],
  ['ΝⲚ', 'N'],
  ['ОΟՕⲞ', 'O'],
  ['РΡⲢ', 'P'],
  ['ԚႳ', 'Q'],
  ['ЅՏ', 'S'],
  ['ТΤⲦ', 'T'],
  ['УҮΥϒ', 'Y'],
  ['ԜᏔ', 'W'],
  ['ХΧⲬ', 'X'],
  ['ΖⲌ', 'Z'],
  ['Ϝ', 'F'],
  ['Ѵ', 'V'],
  // Small letters of Cyrillic, Greek, Armenian and Latin's own odd shapes.
  ['аαɑ', 'a'],
  ['ЬƄ', 'b'],
  ['сϲⅽ', 'c'],
  ['ԁⅾ', 'd'],
  ['еҽ℮', 'e'],
  ['ɡց', 'g'],
  ['һհ', 'h'],
  ['іιɩɪӏıⅰ', 'i'],
  ['јϳ', 'j'],
  ['ⅼǀ', 'l'],
  ['ⅿ', 'm'],
  ['ոռ', 'n'],
  ['оοσօ', 'o'],
  ['рρϱ', 'p'],
  ['ԛ', 'q'],
  ['г', 'r'],
  ['ѕ', 's'],
  ['υʋ', 'u'],
  ['νѵⅴ', 'v'],
  ['ԝѡɯ', 'w'],
  ['хⅹ', 'x'],
  ['уүγɣ', 'y'],
  // Symbols that stand for letters or signs in a disguise (`×` for x, `＠` is NFKC's already).
  ['×✕✖⨯', 'x'],
  ['ⓐ', 'a'],
  ['‐‑‒–—―−', '-'],
  ['·•∙⋅・', '.'],
  ['［【〔〖', '['],
  ['］】〕〗', ']'],
];

const TABLE: ReadonlyMap<string, string> = new Map(
  LOOK_ALIKES.flatMap(([alikes, latin]) => [...alikes].map((alike) => [alike, latin] as const)),
);

const ANY_LOOK_ALIKE = new RegExp(
  `[${[...TABLE.keys()].join('').replace(/[\]\\^-]/g, '\\$&')}]`,
  'gu',
);

/** `text` with every look-alike letter replaced by the Latin letter it reads as. */
export function latinSkeleton(text: string): string {
  return text.replace(ANY_LOOK_ALIKE, (alike) => TABLE.get(alike) ?? alike);
}
